import { ZApiKey, ZApiKeyCreated, ZKeyAuthentication } from '@coldtrace/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../../../test/helpers';
import { apiKeys } from '../../../db/schema-access';
import { hashKey } from './service';

const GENERATE = '/api/keys/generate/';
const AUTH = '/api/keys/authenticate/';

describe('API keys [SPEC-7.6]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const withKey = (key: string, header: 'authorization' | 'x-api-key' = 'authorization') =>
    t.inject({
      method: 'POST',
      url: AUTH,
      headers:
        header === 'authorization' ? { authorization: `Api-Key ${key}` } : { 'x-api-key': key },
    });

  it('generates a key shown once, stores only its SHA-256, lists it by prefix', async () => {
    const { client, orgs } = await t.signIn({ role: 'Administrator' });
    // Mass assignment: another organization or extra permissions in the body are ignored.
    const other = await t.createOrg();
    const res = await client.post(GENERATE, {
      name: 'ERP link',
      organization_id: other.id,
      permissions: ['awsPacketUpload'],
      is_server_admin: true,
    });
    expect(res.statusCode).toBe(200);
    const created = ZApiKeyCreated.parse(res.json());
    expect(created.private_key).toMatch(new RegExp(`^ct_${created.prefix}_[A-Za-z0-9_-]{43}$`));
    expect(created.permissions).toContain('sysAdminUser');

    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.prefix, created.prefix));
    expect(row!.keyHash).toBe(hashKey(created.private_key!));
    // The secret after `ct_<prefix>_` (it may itself contain `_`).
    expect(JSON.stringify(row)).not.toContain(
      created.private_key!.slice(`ct_${created.prefix}_`.length),
    );
    expect(row!.organizationId).toBe(orgs[0]!.id);

    const list = z.array(ZApiKey).parse((await client.get(GENERATE)).json());
    expect(list.map((k) => k.prefix)).toEqual([created.prefix]);
    expect(JSON.stringify(list)).not.toContain('private_key');
  });

  it('authenticates with Authorization: Api-Key and X-Api-Key, scoped to its organization', async () => {
    const { client, orgs } = await t.signIn({ role: 'Administrator' });
    const { private_key: key, prefix } = (await client.post(GENERATE, { name: 'k' })).json();
    for (const header of ['authorization', 'x-api-key'] as const) {
      const res = await withKey(key, header);
      expect(res.statusCode, header).toBe(200);
      expect(ZKeyAuthentication.parse(res.json())).toMatchObject({
        kind: 'api-key',
        prefix,
        organization: { id: orgs[0]!.id, name: orgs[0]!.name },
      });
    }
    // A wrong secret with a real prefix, a malformed key and no key: 401.
    expect((await withKey(`${key.slice(0, -2)}xx`)).statusCode).toBe(401);
    expect((await withKey('nonsense')).statusCode).toBe(401);
    // Nothing at all: an anonymous POST (the CSRF check answers first).
    expect([401, 403]).toContain((await t.inject({ method: 'POST', url: AUTH })).statusCode);
  });

  it('a key authenticates only the calls open to keys: a person’s calls answer 401 (keys-on-api.test.ts has the rest)', async () => {
    const { client } = await t.signIn({ role: 'Administrator' });
    const { private_key: key } = (await client.post(GENERATE, { name: 'k' })).json();
    for (const url of ['/api/auth/session/', '/api/auth/tokens/', GENERATE]) {
      const res = await t.inject({
        method: 'GET',
        url,
        headers: { authorization: `Api-Key ${key}` },
      });
      expect(res.statusCode, url).toBe(401);
    }
  });

  it('takes the permissions of a chosen role, never more than the creator holds', async () => {
    const { client } = await t.signIn({ role: 'Administrator' });
    const roles = (await client.get('/api/auth/role-permissions/')).json() as {
      id: string;
      name: string;
    }[];
    const viewer = roles.find((r) => r.name === 'Viewer')!;
    const res = await client.post(GENERATE, { name: 'read only', role_id: viewer.id });
    expect(res.json().permissions.sort()).toEqual(
      ['notifyReceive', 'rulesView', 'sysDataRead', 'sysReportView'].sort(),
    );
    const other = await t.signIn({ role: 'Administrator' });
    const foreignRole = (await other.client.get('/api/auth/role-permissions/')).json()[0].id;
    const bad = await client.post(GENERATE, { name: 'x', role_id: foreignRole });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('role_id');
  });

  it('revokes by prefix: the key stops at once; another organization cannot revoke it', async () => {
    const { client } = await t.signIn({ role: 'Administrator' });
    const { private_key: key, prefix } = (await client.post(GENERATE, { name: 'k' })).json();
    const other = await t.signIn({ role: 'Administrator' });
    expect((await other.client.post('/api/keys/revoke/', { prefix })).statusCode).toBe(404);
    expect((await withKey(key)).statusCode).toBe(200);
    expect((await client.post('/api/keys/revoke/', { prefix })).statusCode).toBe(204);
    expect((await withKey(key)).statusCode).toBe(401);
    expect((await client.get(GENERATE)).json()).toEqual([]);
    expect((await client.post('/api/keys/revoke/', { prefix })).statusCode).toBe(404);
    expect((await client.post('/api/keys/revoke/', {})).json().fields).toHaveProperty('prefix');
  });

  it('needs sysAdminUser; a locked creator’s key stops working', async () => {
    const { client: manager } = await t.signIn({ role: 'Manager' });
    expect((await manager.get(GENERATE)).statusCode).toBe(403);
    expect((await manager.post(GENERATE, { name: 'k' })).statusCode).toBe(403);
    const { client, user } = await t.signIn({ role: 'Administrator' });
    const { private_key: key } = (await client.post(GENERATE, { name: 'k' })).json();
    await t.db.execute(`update users set is_locked = true where id = '${user.id}'`);
    expect((await withKey(key)).statusCode).toBe(401);
  });

  it('verifying a key costs well under a millisecond of hashing', () => {
    const key = `ct_abcdefgh_${'A'.repeat(43)}`;
    const started = process.hrtime.bigint();
    for (let i = 0; i < 1000; i++) hashKey(key);
    const perKeyMs = Number(process.hrtime.bigint() - started) / 1e6 / 1000;
    expect(perKeyMs).toBeLessThan(0.1);
  });
});
