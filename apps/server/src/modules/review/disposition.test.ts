import { ZRecord, ZRecordDisposition } from '@coldtrace/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { auditEvents } from '../../db/schema-audit';
import { createTestApp, TEST_PASSWORD, type TestApp, type TestClient } from '../../../test/helpers';
import { scannedShipment, stoppedShipment } from '../../../test/shipment-factories';

const XT1 = '/api/devices/xt1';
const DECIDE = `${XT1}/records/disposition/`;
const HISTORY = `${XT1}/records/dispositions/`;
const ACK = `${XT1}/alarm-acknowledge/`;
/** The signature: the password; the meaning follows from the decision (issue 35). */
const SIGN = { password: TEST_PASSWORD } as const;

/** 9 points, high 8 and low 2: one excursion above, one below (two alarms). */
const EXCURSIONS = [5, 5, 9, 9.5, 5, 5, 1, 1.5, 5];
const IN_RANGE = [5, 5, 5, 5];

describe('release decisions (disposition) [RULE-AUDIT-4, FEAT-E-SIGNATURE]', () => {
  let t: TestApp;
  let manager: TestClient;
  let managerName: string;
  let managerOrg: string;
  let managerUserId: string;
  let operator: TestClient;
  let viewer: TestClient;
  let stranger: TestClient;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signIn({ role: 'Manager' });
    const org = signedIn.orgs[0]!;
    manager = signedIn.client;
    // The printed name: first and last name.
    managerName = `${signedIn.user.row.firstName} ${signedIn.user.row.lastName}`;
    managerOrg = org.id;
    managerUserId = signedIn.user.row.id;
    ({ client: operator } = await t.signIn({ role: 'Operator', orgs: [org] }));
    ({ client: viewer } = await t.signIn({ role: 'Viewer', orgs: [org] }));
    ({ client: stranger } = await t.signIn({ role: 'Administrator' }));
  });
  afterAll(() => t.close());

  const record = async (client: TestClient, recordId: string) => {
    const res = await client.get(`${XT1}/record/?record_id=${recordId}`);
    expect(res.statusCode, res.body).toBe(200);
    return ZRecord.parse(res.json());
  };
  const history = async (client: TestClient, recordId: string) => {
    const res = await client.get(`${HISTORY}?record_id=${recordId}`);
    expect(res.statusCode, res.body).toBe(200);
    return z.array(ZRecordDisposition).parse(res.json());
  };
  /** The record's `record.disposition` audit entries, oldest first. */
  const dispositionAudit = (recordId: string) =>
    t.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.recordId, Number(recordId)),
          eq(auditEvents.action, 'record.disposition'),
        ),
      )
      .orderBy(auditEvents.id);
  const listIds = async (query: string) => {
    const res = await viewer.get(`${XT1}/records/?page_size=1000&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return z
      .array(ZRecord)
      .parse(res.json())
      .map((r) => r.id);
  };

  it('a record without a decision carries disposition null', async () => {
    const { recordId } = await scannedShipment(manager, IN_RANGE, 'DSP');
    expect((await record(viewer, recordId)).disposition).toBeNull();
    expect(await history(viewer, recordId)).toEqual([]);
  });

  it('releases a stopped record without alarms: signed as approval, answered, on the record, audited', async () => {
    const { recordId } = await stoppedShipment(manager, IN_RANGE, 'DSP');
    const before = Date.now();
    const res = await manager.post(DECIDE, {
      ...SIGN,
      record_id: recordId,
      decision: 'RELEASED',
      comment: '  Within limits; released for sale.  ',
    });
    expect(res.statusCode, res.body).toBe(200);
    const reply = ZRecord.parse(res.json());
    expect(reply.id).toBe(recordId);
    expect(reply.disposition).toMatchObject({
      decision: 'RELEASED',
      comment: 'Within limits; released for sale.',
      meaning: 'APPROVED',
      transit_reason: null,
      signed_by: managerName,
    });
    const at = Date.parse(reply.disposition!.signed_at);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
    expect((await record(viewer, recordId)).disposition).toEqual(reply.disposition);

    const audit = await dispositionAudit(recordId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ field: 'disposition', oldValue: null, newValue: 'RELEASED' });
    expect(audit[0]!.reason).toBe('Approved: Released: Within limits; released for sale.');
  });

  it('refuses RELEASED while alarms are unacknowledged (409 naming decision and how many), allows QUARANTINED, then RELEASED once acknowledged', async () => {
    const { recordId } = await stoppedShipment(manager, EXCURSIONS, 'DSP');
    let res = await manager.post(DECIDE, {
      ...SIGN,
      record_id: recordId,
      decision: 'RELEASED',
      comment: 'looks fine',
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().code).toBe('CONFLICT');
    expect(Object.keys(res.json().fields)).toEqual(['decision']);
    expect(res.json().message).toContain('2 alarms are not acknowledged');
    expect(await history(viewer, recordId)).toEqual([]);

    res = await manager.post(DECIDE, {
      ...SIGN,
      record_id: recordId,
      decision: 'QUARANTINED',
      comment: 'Held until the excursions are reviewed',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(ZRecord.parse(res.json()).disposition?.decision).toBe('QUARANTINED');

    const ack = await operator.post(ACK, {
      record_ids: [recordId],
      comment: 'Reviewed',
      client_type: 'WEB',
      password: TEST_PASSWORD,
      meaning: 'REVIEWED',
    });
    expect(ack.statusCode, ack.body).toBe(200);

    res = await manager.post(DECIDE, {
      ...SIGN,
      record_id: recordId,
      decision: 'RELEASED',
      comment: 'Excursions within the stability budget',
    });
    expect(res.statusCode, res.body).toBe(200);
    // Superseded, never edited: both decisions stay, newest first.
    const rows = await history(viewer, recordId);
    expect(rows.map((r) => r.decision)).toEqual(['RELEASED', 'QUARANTINED']);
    expect(rows[1]!.comment).toBe('Held until the excursions are reviewed');
    expect((await record(viewer, recordId)).disposition?.id).toBe(rows[0]!.id);

    const audit = await dispositionAudit(recordId);
    expect(audit.map((a) => [a.oldValue, a.newValue])).toEqual([
      [null, 'QUARANTINED'],
      ['QUARANTINED', 'RELEASED'],
    ]);
  });

  it('refuses a wrong password (400 naming password), decides nothing and audits the failure', async () => {
    const { recordId } = await scannedShipment(manager, IN_RANGE, 'DSP');
    const failures = () =>
      t.db
        .select()
        .from(auditEvents)
        .where(
          and(
            eq(auditEvents.organizationId, managerOrg),
            eq(auditEvents.action, 'signature.failure'),
          ),
        );
    const before = (await failures()).length;
    const res = await manager.post(DECIDE, {
      record_id: recordId,
      decision: 'REJECTED',
      comment: 'x',
      password: 'wrong',
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(Object.keys(res.json().fields)).toEqual(['password']);
    expect(await history(viewer, recordId)).toEqual([]);
    // The failed signature is in the signer's organization's trail, though the request failed.
    const after = await failures();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({
      entityType: 'user',
      entityId: managerUserId,
      reason: 'Signature refused: the password was not correct',
    });
    // The stranger's organization has no entry of it.
    const elsewhere = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'signature.failure'), eq(auditEvents.entityId, managerUserId)),
      );
    expect(elsewhere.every((e) => e.organizationId === managerOrg)).toBe(true);
  });

  it('answers 400 naming each bad field', async () => {
    const { recordId } = await scannedShipment(manager, IN_RANGE, 'DSP');
    const cases: [Record<string, unknown>, string][] = [
      [{ decision: 'SOLD' }, 'decision'],
      [{ comment: '   ' }, 'comment'],
      [{ meaning: 'LIKED' }, 'meaning'],
      // A rejection is signed as a rejection, never as an approval.
      [{ meaning: 'APPROVED' }, 'meaning'],
      [{ transit_reason: 'x'.repeat(2001) }, 'transit_reason'],
      [{ record_id: 'abc' }, 'record_id'],
      [{ password: '' }, 'password'],
    ];
    for (const [change, field] of cases) {
      const res = await manager.post(DECIDE, {
        ...SIGN,
        record_id: recordId,
        decision: 'REJECTED',
        comment: 'damaged',
        ...change,
      });
      expect(res.statusCode, `${field}: ${res.body}`).toBe(400);
      expect(Object.keys(res.json().fields), field).toEqual([field]);
    }
    expect(await history(viewer, recordId)).toEqual([]);
  });

  it('needs sysReportEdit (an Operator or a Viewer: 403), a session (401), and answers 404 for another organization', async () => {
    const { recordId } = await scannedShipment(manager, IN_RANGE, 'DSP');
    const body = { ...SIGN, record_id: recordId, decision: 'REJECTED', comment: 'damaged' };
    expect((await operator.post(DECIDE, body)).statusCode).toBe(403);
    expect((await viewer.post(DECIDE, body)).statusCode).toBe(403);
    expect((await t.client().post(DECIDE, body)).statusCode).toBe(401);
    const res = await stranger.post(DECIDE, body);
    expect(res.statusCode, res.body).toBe(404);
    expect(Object.keys(res.json().fields)).toEqual(['record_id']);
    expect((await stranger.get(`${HISTORY}?record_id=${recordId}`)).statusCode).toBe(404);
    expect(await history(viewer, recordId)).toEqual([]);
  });

  it('an API key cannot sign a decision', async () => {
    const { client } = await t.signIn({ role: 'Administrator' });
    const { recordId } = await scannedShipment(client, IN_RANGE, 'DSP');
    const key = (await client.post('/api/keys/generate/', { name: 'disposition test key' })).json()
      .private_key as string;
    const res = await t.inject({
      method: 'POST',
      url: DECIDE,
      headers: { authorization: `Api-Key ${key}` },
      payload: { ...SIGN, record_id: recordId, decision: 'RELEASED', comment: 'by key' },
    });
    expect([401, 403]).toContain(res.statusCode);
    expect(await history(client, recordId)).toEqual([]);
  });

  it('All Records filters on the current decision (RELEASED, QUARANTINED, REJECTED, NONE)', async () => {
    const released = (await stoppedShipment(manager, IN_RANGE, 'DSP')).recordId;
    const superseded = (await stoppedShipment(manager, IN_RANGE, 'DSP')).recordId;
    const none = (await scannedShipment(manager, IN_RANGE, 'DSP')).recordId;
    const decide = async (recordId: string, decision: string) => {
      const res = await manager.post(DECIDE, {
        ...SIGN,
        record_id: recordId,
        decision,
        comment: 'c',
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    await decide(released, 'RELEASED');
    await decide(superseded, 'RELEASED');
    await decide(superseded, 'REJECTED');

    const releasedIds = await listIds('disposition=RELEASED');
    expect(releasedIds).toContain(released);
    expect(releasedIds).not.toContain(superseded);
    expect(releasedIds).not.toContain(none);
    const rejectedIds = await listIds('disposition=REJECTED');
    expect(rejectedIds).toContain(superseded);
    expect(rejectedIds).not.toContain(released);
    const noneIds = await listIds('disposition=NONE');
    expect(noneIds).toContain(none);
    expect(noneIds).not.toContain(released);
    expect(noneIds).not.toContain(superseded);
    const listed = z
      .array(ZRecord)
      .parse((await viewer.get(`${XT1}/records/?page_size=1000`)).json());
    expect(listed.find((r) => r.id === superseded)?.disposition?.decision).toBe('REJECTED');

    const bad = await viewer.get(`${XT1}/records/?disposition=SOLD`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(['disposition']);
  });

  it('signs each decision with the meaning that follows from it; a matching meaning is accepted, another refused (400 naming meaning)', async () => {
    const meanings: Record<string, string> = {
      RELEASED: 'APPROVED',
      QUARANTINED: 'REVIEWED',
      REJECTED: 'REJECTED',
    };
    for (const [decision, meaning] of Object.entries(meanings)) {
      const { recordId } = await stoppedShipment(manager, IN_RANGE, 'DSP');
      const body = { ...SIGN, record_id: recordId, decision, comment: 'c' };
      // Any other meaning is refused, and nothing is signed.
      for (const other of Object.values(meanings).filter((m) => m !== meaning)) {
        const refused = await manager.post(DECIDE, { ...body, meaning: other });
        expect(refused.statusCode, `${decision} ${other}: ${refused.body}`).toBe(400);
        expect(Object.keys(refused.json().fields)).toEqual(['meaning']);
      }
      expect(await history(viewer, recordId)).toEqual([]);
      // Without a meaning (the web app sends none) and with the matching one (older clients).
      let res = await manager.post(DECIDE, body);
      expect(res.statusCode, res.body).toBe(200);
      expect(ZRecord.parse(res.json()).disposition?.meaning, decision).toBe(meaning);
      res = await manager.post(DECIDE, { ...body, meaning });
      expect(res.statusCode, res.body).toBe(200);
      expect((await history(viewer, recordId)).map((d) => d.meaning)).toEqual([meaning, meaning]);
    }
  });

  it('refuses RELEASED while the trip has not ended (409 naming decision, with the reason); quarantine and rejection are allowed; arrived or stopped may be released', async () => {
    const { recordId } = await scannedShipment(manager, IN_RANGE, 'DSP');
    const body = { ...SIGN, record_id: recordId, comment: 'c' };
    const refused = await manager.post(DECIDE, {
      ...body,
      decision: 'RELEASED',
      transit_reason: 'The customer needs it now',
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().code).toBe('CONFLICT');
    expect(Object.keys(refused.json().fields)).toEqual(['decision']);
    expect(refused.json().fields.decision).toContain('in transit');
    expect(await history(viewer, recordId)).toEqual([]);
    for (const decision of ['QUARANTINED', 'REJECTED']) {
      const res = await manager.post(DECIDE, { ...body, decision });
      expect(res.statusCode, `${decision}: ${res.body}`).toBe(200);
    }
    // Arrived (the trip status) ends the trip as a stop does.
    await t.handle.pool.query(`UPDATE records SET trip_status = 'ARRIVED' WHERE id = $1`, [
      recordId,
    ]);
    const res = await manager.post(DECIDE, { ...body, decision: 'RELEASED' });
    expect(res.statusCode, res.body).toBe(200);
    expect(ZRecord.parse(res.json()).disposition).toMatchObject({
      decision: 'RELEASED',
      transit_reason: null,
    });
  });

  it('with allow_release_in_transit (audited), releases in transit with a reason (stored, in the history and the audit), refuses it without one (400 naming transit_reason)', async () => {
    const { client: admin, orgs } = await t.signIn({ role: 'Administrator' });
    const off = await admin.get('/api/auth/org-settings/');
    expect(off.json().allow_release_in_transit).toBe(false);
    const on = await admin.patch('/api/auth/org-settings/', { allow_release_in_transit: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().allow_release_in_transit).toBe(true);
    const settingAudit = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(
          eq(auditEvents.organizationId, orgs[0]!.id),
          eq(auditEvents.action, 'allow_release_in_transit.update'),
        ),
      );
    expect(settingAudit.map((a) => [a.oldValue, a.newValue])).toEqual([[false, true]]);

    const { recordId } = await scannedShipment(admin, IN_RANGE, 'DSP');
    const body = { ...SIGN, record_id: recordId, decision: 'RELEASED', comment: 'In range' };
    for (const reason of [undefined, '   ']) {
      const res = await admin.post(DECIDE, { ...body, transit_reason: reason });
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['transit_reason']);
    }
    expect(await history(admin, recordId)).toEqual([]);
    const res = await admin.post(DECIDE, {
      ...body,
      transit_reason: '  Customer takes delivery at the border (deviation DV-9)  ',
    });
    expect(res.statusCode, res.body).toBe(200);
    const reason = 'Customer takes delivery at the border (deviation DV-9)';
    expect(ZRecord.parse(res.json()).disposition).toMatchObject({
      decision: 'RELEASED',
      meaning: 'APPROVED',
      transit_reason: reason,
    });
    expect((await history(admin, recordId))[0]!.transit_reason).toBe(reason);
    const [audit] = await dispositionAudit(recordId);
    expect(audit!.reason).toBe(`Approved: Released: In range (released in transit: ${reason})`);

    // A record whose trip has ended stores no transit reason; the setting off again refuses.
    const stopped = (await stoppedShipment(admin, IN_RANGE, 'DSP')).recordId;
    const ended = await admin.post(DECIDE, {
      ...body,
      record_id: stopped,
      transit_reason: 'not needed',
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(ZRecord.parse(ended.json()).disposition?.transit_reason).toBeNull();
    expect(
      (await admin.patch('/api/auth/org-settings/', { allow_release_in_transit: false }))
        .statusCode,
    ).toBe(200);
    const again = (await scannedShipment(admin, IN_RANGE, 'DSP')).recordId;
    const refused = await admin.post(DECIDE, {
      ...body,
      record_id: again,
      transit_reason: reason,
    });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(Object.keys(refused.json().fields)).toEqual(['decision']);
  });

  it('the rows cannot be changed by the application (append-only)', async () => {
    const { recordId } = await scannedShipment(manager, IN_RANGE, 'DSP');
    await manager.post(DECIDE, {
      ...SIGN,
      record_id: recordId,
      decision: 'REJECTED',
      comment: 'x',
    });
    await expect(
      t.handle.pool.query(
        `UPDATE record_dispositions SET decision = 'RELEASED' WHERE record_id = $1`,
        [recordId],
      ),
    ).rejects.toThrow();
    expect((await history(viewer, recordId)).map((r) => r.decision)).toEqual(['REJECTED']);
  });
});
