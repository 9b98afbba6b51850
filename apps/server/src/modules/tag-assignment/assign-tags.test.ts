import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { serial, tagBySerial } from '../../../test/shipment-factories';
import { auditEvents } from '../../db/schema-audit';
import { records, tags } from '../../db/schema-shipments';
import { setMembership } from '../orgs';

const ASSIGN = '/api/devices/xt1/admin/assign-tags/';

describe('POST /api/devices/xt1/admin/assign-tags/ [RULE-ORG-3, SPEC-2.8]', () => {
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

  it('an admin of both organizations moves an idle tag by id or serial number; a tag in use there fails', async () => {
    const { client, orgs, user } = await t.signIn({ role: 'Administrator' });
    const other = await t.createOrg();
    await setMembership(t.db, user.id, other.id, 'Administrator');
    const tagIn = (values: { serialNumber: string; running?: boolean }) =>
      t.db
        .insert(tags)
        .values({ organizationId: other.id, tagType: 'XT1_NFC_MU', ...values })
        .returning()
        .then((rows) => rows[0]!);
    const idle = await tagIn({ serialNumber: serial('ID') });
    const idleBySerial = await tagIn({ serialNumber: serial('IS') });
    const running = await tagIn({ serialNumber: serial('RN'), running: true });
    // In use without running: a record configured (active), not started yet.
    const pending = await tagIn({ serialNumber: serial('PD') });
    await t.db.insert(records).values({
      organizationId: other.id,
      tagId: pending.id,
      tagSerialNumber: pending.serialNumber,
      tagType: pending.tagType,
      measurementInterval: 60,
    });
    const res = await client.post(ASSIGN, {
      organization_id: orgs[0]!.id,
      tag_ids: [
        String(idle.id),
        idleBySerial.serialNumber,
        running.serialNumber,
        String(pending.id),
      ],
    });
    expect(res.json()).toEqual({
      assigned_ids: [String(idle.id), idleBySerial.serialNumber],
      failed_ids: [running.serialNumber, String(pending.id)],
    });
    expect((await tagBySerial(t.db, idle.serialNumber))?.organizationId).toBe(orgs[0]!.id);
    expect((await tagBySerial(t.db, idleBySerial.serialNumber))?.organizationId).toBe(orgs[0]!.id);
    expect((await tagBySerial(t.db, running.serialNumber))?.organizationId).toBe(other.id);
    expect((await tagBySerial(t.db, pending.serialNumber))?.organizationId).toBe(other.id);
    // Audited in both organizations, each naming the other one by no id or name.
    const trail = async (organizationId: string) =>
      t.db
        .select()
        .from(auditEvents)
        .where(
          and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.entityType, 'tag')),
        );
    const released = await trail(other.id);
    expect(released.map((e) => [e.action, e.entityId, e.oldValue, e.newValue])).toEqual(
      expect.arrayContaining([
        ['tag.release', String(idle.id), other.id, '(another organization)'],
        ['tag.release', String(idleBySerial.id), other.id, '(another organization)'],
      ]),
    );
    expect(released).toHaveLength(2);
    const received = await trail(orgs[0]!.id);
    expect(received.map((e) => [e.action, e.entityId, e.oldValue, e.newValue])).toEqual(
      expect.arrayContaining([
        ['tag.assign', String(idle.id), '(another organization)', orgs[0]!.id],
        ['tag.assign', String(idleBySerial.id), '(another organization)', orgs[0]!.id],
      ]),
    );
    expect(received).toHaveLength(2);
    for (const e of [...released, ...received]) {
      const text = JSON.stringify(e);
      const otherOrg = e.organizationId === other.id ? orgs[0]! : other;
      expect(text).not.toContain(otherOrg.id);
      expect(text).not.toContain(otherOrg.name);
    }
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
