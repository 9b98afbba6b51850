import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '../../../test/helpers';
import { startReceiver, type Receiver } from '../../../test/webhook-receiver';

const HOOKS = '/api/integrations/webhooks/';

/**
 * Issue 36 item 4: an integration manages its webhooks with an API key that is
 * not read-only and whose role holds the webhook permission (`sysAdminUser`);
 * a read-only key answers 403, a key of a role without the permission too.
 */
describe('webhooks with an API key [FEAT-WEBHOOKS, FEAT-API-KEYS-ON-API]', () => {
  let t: TestApp;
  let receiver: Receiver;
  let admin: TestClient;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp({ config: { webhooks: { allowPrivate: true, retryDelaySeconds: 1 } } });
    ({ client: admin } = await t.signIn({ role: 'Administrator' }));
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  const keyOf = async (body: Record<string, unknown>) => {
    const res = await admin.post('/api/keys/generate/', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().private_key as string;
  };
  const asKey = (key: string) => t.client({ headers: { authorization: `Api-Key ${key}` } });

  it('a full key of an Administrator creates, lists, edits, reads the log of and deletes a webhook', async () => {
    const key = asKey(await keyOf({ name: 'ERP webhooks' }));
    const created = await key.post(HOOKS, {
      url: receiver.url,
      events: ['alarm.raised'],
      description: 'made by the ERP',
    });
    expect(created.statusCode, created.body).toBe(200);
    const hook = created.json() as { id: string; secret: string; active: boolean };
    expect(hook.secret).toMatch(/^[0-9a-f]{64}$/);
    // Optional fields with a default (issue 36 item 5): `active` was left out.
    expect(hook.active).toBe(true);

    const listed = await key.get(HOOKS);
    expect(listed.statusCode, listed.body).toBe(200);
    expect((listed.json() as { id: string }[]).map((w) => w.id)).toContain(hook.id);
    // The administrators see it too: the same organization's webhook.
    expect(((await admin.get(HOOKS)).json() as { id: string }[]).map((w) => w.id)).toContain(
      hook.id,
    );

    const edited = await key.patch(`${HOOKS}?webhook_id=${hook.id}`, { active: false });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ active: false });
    const log = await key.get(`${HOOKS}deliveries/?webhook_id=${hook.id}`);
    expect(log.statusCode, log.body).toBe(200);
    expect(log.json()).toEqual([]);
    const deleted = await key.request({ method: 'DELETE', url: `${HOOKS}?webhook_id=${hook.id}` });
    expect(deleted.statusCode, deleted.body).toBe(204);
  });

  it('the X-Api-Key header works the same', async () => {
    const key = t.client({ headers: { 'x-api-key': await keyOf({ name: 'header key' }) } });
    const res = await key.get(HOOKS);
    expect(res.statusCode, res.body).toBe(200);
  });

  it('a read-only key is refused with 403 and creates nothing', async () => {
    const key = asKey(await keyOf({ name: 'read only', read_only: true }));
    const before = ((await admin.get(HOOKS)).json() as unknown[]).length;
    const created = await key.post(HOOKS, { url: receiver.url, events: ['alarm.raised'] });
    expect(created.statusCode, created.body).toBe(403);
    expect(created.json()).toMatchObject({
      code: 'FORBIDDEN',
      message: 'This API key is read-only.',
    });
    const listed = await key.get(HOOKS);
    expect(listed.statusCode, listed.body).toBe(403);
    expect(((await admin.get(HOOKS)).json() as unknown[]).length).toBe(before);
  });

  it('a key whose role lacks the webhook permission is refused with 403', async () => {
    const roles = (await admin.get('/api/auth/role-permissions/')).json() as {
      id: string;
      name: string;
    }[];
    const viewer = roles.find((r) => r.name === 'Viewer')!;
    const key = asKey(await keyOf({ name: 'viewer key', role_id: viewer.id }));
    const res = await key.post(HOOKS, { url: receiver.url, events: ['alarm.raised'] });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.json().message).toMatch(/needs sysAdminUser/);
  });
});
