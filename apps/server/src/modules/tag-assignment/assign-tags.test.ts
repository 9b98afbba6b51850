import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { serial, tagBySerial } from '../../../test/shipment-factories';
import { auditEvents } from '../../db/schema-audit';
import { tags } from '../../db/schema-shipments';

const ASSIGN = '/api/devices/xt1/admin/assign-tags/';

describe('POST /api/devices/xt1/admin/assign-tags/', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('creates unknown serial numbers in the organization and reports malformed entries in failed_ids', async () => {
    const { client, orgs } = await t.signIn({ role: 'Administrator' });
    const good = [serial('AS'), serial('AS')];
    const res = await client.post(ASSIGN, {
      organization_id: orgs[0]!.id,
      tag_ids: [good[0], 'bad id!', good[1], '', '  ', '#####'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ assigned_ids: good, failed_ids: ['bad id!', '#####'] });
    for (const s of good) {
      expect((await tagBySerial(t.db, s!))?.organizationId).toBe(orgs[0]!.id);
    }
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.organizationId, orgs[0]!.id), eq(auditEvents.action, 'tag.create')),
      );
    expect(audit).toHaveLength(2);
  });

  it('accepts tag ids and moves an idle tag of another organization; a running one fails', async () => {
    const { client, orgs } = await t.signIn({ role: 'Administrator' });
    const other = await t.createOrg();
    const [idle] = await t.db
      .insert(tags)
      .values({ organizationId: other.id, serialNumber: serial('ID'), tagType: 'XT1_NFC_MU' })
      .returning();
    const [running] = await t.db
      .insert(tags)
      .values({
        organizationId: other.id,
        serialNumber: serial('RN'),
        tagType: 'XT1_NFC_MU',
        running: true,
      })
      .returning();
    const res = await client.post(ASSIGN, {
      organization_id: orgs[0]!.id,
      tag_ids: [String(idle!.id), running!.serialNumber],
    });
    expect(res.json()).toEqual({
      assigned_ids: [String(idle!.id)],
      failed_ids: [running!.serialNumber],
    });
    expect((await tagBySerial(t.db, idle!.serialNumber))?.organizationId).toBe(orgs[0]!.id);
    expect((await tagBySerial(t.db, running!.serialNumber))?.organizationId).toBe(other.id);
  });

  it('needs sysAssignTags in the session and in the target organization (404 otherwise)', async () => {
    const { client: manager, orgs } = await t.signIn({ role: 'Manager' });
    const body = { organization_id: orgs[0]!.id, tag_ids: [serial('NO')] };
    expect((await manager.post(ASSIGN, body)).statusCode).toBe(403);
    const { client: admin } = await t.signIn({ role: 'Administrator' });
    const foreign = await admin.post(ASSIGN, body);
    expect(foreign.statusCode).toBe(404);
    expect(await tagBySerial(t.db, body.tag_ids[0]!)).toBeUndefined();
    const missing = await admin.post(ASSIGN, { tag_ids: ['X'] });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toHaveProperty('organization_id');
  });
});
