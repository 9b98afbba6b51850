import { ZExcursionAlarm, ZRecord, type TExcursionAlarm } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createTestApp,
  TEST_PASSWORD,
  type TestApp,
  type TestClient,
  type TestOrg,
} from '../../../test/helpers';
import { iso, recordOf, scannedShipment, xt1Body } from '../../../test/shipment-factories';

const XT1 = '/api/devices/xt1';
const ACK = `${XT1}/alarm-acknowledge/`;
const DISMISS = `${XT1}/alarm-dismiss/`;
/** The electronic signature every acknowledgement carries (the test users' password). */
const SIGN = { password: TEST_PASSWORD, meaning: 'REVIEWED' };

/** 9 points, high 8 and low 2: one excursion above (points 2-3), one below (points 6-7). */
const TEMPS = [5, 5, 9, 9.5, 5, 5, 1, 1.5, 5];

interface Shipment {
  recordId: string;
  above: TExcursionAlarm;
  below: TExcursionAlarm;
}

describe('alarm actions: acknowledge and dismiss [RULE-AUDIT-1, FEAT-E-SIGNATURE, RULE-ALARM-6]', () => {
  let t: TestApp;
  let org: TestOrg;
  let operator: TestClient;
  let operatorName: string;
  let manager: TestClient;
  let viewer: TestClient;
  let stranger: TestClient;

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signIn({ role: 'Operator' });
    org = signedIn.orgs[0]!;
    operator = signedIn.client;
    operatorName = signedIn.user.username;
    ({ client: manager } = await t.signIn({ role: 'Manager', orgs: [org] }));
    ({ client: viewer } = await t.signIn({ role: 'Viewer', orgs: [org] }));
    ({ client: stranger } = await t.signIn({ role: 'Administrator' }));
  });
  afterAll(() => t.close());

  /** A shipment with one excursion above and one below, uploaded by `client` (its organization). */
  async function shipment(client: TestClient = operator): Promise<Shipment> {
    const { recordId } = await scannedShipment(client, TEMPS, 'ALM');
    const alarms = await listAlarms(client, recordId);
    const above = alarms.find((a) => a.above_or_below === 'ABOVE' && a.kind === 'excursion');
    const below = alarms.find((a) => a.above_or_below === 'BELOW' && a.kind === 'excursion');
    expect(above && below).toBeTruthy();
    return { recordId, above: above!, below: below! };
  }

  async function listAlarms(client: TestClient, recordId: string, flags = '') {
    const res = await client.get(`${XT1}/alarms/?record_id=${recordId}${flags}`);
    expect(res.statusCode, res.body).toBe(200);
    return z.array(ZExcursionAlarm).parse(res.json());
  }

  async function record(client: TestClient, recordId: string) {
    const res = await client.get(`${XT1}/record/?record_id=${recordId}`);
    expect(res.statusCode, res.body).toBe(200);
    return ZRecord.parse(res.json());
  }

  describe('POST alarm-acknowledge/', () => {
    it('acknowledges an alarm with who, when (server time), comment and client type', async () => {
      const s = await shipment();
      const before = Date.now();
      const res = await operator.post(ACK, {
        ...SIGN,
        alarm_ids: [s.above.id],
        comment: '  Product checked: within the stability budget.  ',
        timestamp: '2001-01-01T00:00:00Z',
        client_type: 'WEB',
      });
      expect(res.statusCode, res.body).toBe(200);
      const [reply] = z.array(ZExcursionAlarm).parse(res.json());
      expect(reply).toMatchObject({
        id: s.above.id,
        acknowledged: true,
        dismissed: false,
        acknowledged_by: operatorName,
        acknowledge_comment: 'Product checked: within the stability budget.',
        acknowledge_client_type: 'WEB',
      });
      // The server's clock, in UTC, not the client's timestamp.
      const at = Date.parse(reply!.acknowledged_at!);
      expect(reply!.acknowledged_at).toMatch(/Z$/);
      expect(at).toBeGreaterThanOrEqual(before - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + 1000);
      expect(reply).not.toHaveProperty('dismissed_by');

      // Hidden from the default list, shown (with the same fields) when asked.
      expect((await listAlarms(operator, s.recordId)).map((a) => a.id)).toEqual([s.below.id]);
      const all = await listAlarms(viewer, s.recordId, '&include_acknowledged=true');
      expect(all.find((a) => a.id === s.above.id)).toEqual(reply);
      expect(all.find((a) => a.id === s.below.id)).not.toHaveProperty('acknowledged_by');
    });

    it('keeps the first acknowledgement when acknowledged again', async () => {
      const s = await shipment();
      const first = await operator.post(ACK, {
        ...SIGN,
        alarm_ids: [s.above.id],
        comment: 'First look: fine',
        client_type: 'ANDROID',
      });
      expect(first.statusCode).toBe(200);
      const again = await manager.post(ACK, {
        ...SIGN,
        alarm_ids: [s.above.id],
        comment: 'Second opinion',
        client_type: 'WEB',
      });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json()).toEqual(first.json());
      expect(again.json()[0]).toMatchObject({
        acknowledged_by: operatorName,
        acknowledge_comment: 'First look: fine',
        acknowledge_client_type: 'ANDROID',
      });
    });

    it('without alarm_ids acknowledges every unacknowledged alarm of the records', async () => {
      const s = await shipment();
      await operator.post(ACK, {
        ...SIGN,
        alarm_ids: [s.below.id],
        comment: 'Early',
        client_type: 'IOS',
      });
      const res = await manager.post(ACK, {
        ...SIGN,
        record_ids: [s.recordId],
        comment: 'Whole record reviewed',
        client_type: 'WEB',
      });
      expect(res.statusCode, res.body).toBe(200);
      const replies = z.array(ZExcursionAlarm).parse(res.json());
      expect(replies.map((a) => a.id).sort()).toEqual([s.above.id, s.below.id].sort());
      expect(replies.every((a) => a.acknowledged)).toBe(true);
      const byId = new Map(replies.map((a) => [a.id, a]));
      expect(byId.get(s.below.id)!.acknowledge_comment).toBe('Early');
      expect(byId.get(s.above.id)!.acknowledge_comment).toBe('Whole record reviewed');
      expect(await listAlarms(operator, s.recordId)).toEqual([]);
    });

    it('requires a comment (400 naming comment), at most 2000 characters', async () => {
      const s = await shipment();
      for (const comment of [undefined, '', '   \n ', 'x'.repeat(2001)]) {
        const res = await operator.post(ACK, {
          ...SIGN,
          alarm_ids: [s.above.id],
          client_type: 'WEB',
          ...(comment === undefined ? {} : { comment }),
        });
        expect(res.statusCode, JSON.stringify(comment)).toBe(400);
        expect(res.json().code).toBe('VALIDATION_ERROR');
        expect(Object.keys(res.json().fields)).toEqual(['comment']);
      }
      const ok = await operator.post(ACK, {
        ...SIGN,
        alarm_ids: [s.above.id],
        client_type: 'WEB',
        comment: 'x'.repeat(2000),
      });
      expect(ok.statusCode).toBe(200);
      // Nothing was acknowledged by the refused calls.
      expect(ok.json()[0].acknowledge_comment).toHaveLength(2000);
    });

    it('requires a client type of WEB, IOS or ANDROID (400 naming client_type)', async () => {
      const s = await shipment();
      for (const client_type of [undefined, 'DESKTOP', 'web']) {
        const res = await operator.post(ACK, {
          ...SIGN,
          alarm_ids: [s.above.id],
          comment: 'Checked',
          ...(client_type === undefined ? {} : { client_type }),
        });
        expect(res.statusCode, String(client_type)).toBe(400);
        expect(Object.keys(res.json().fields)).toEqual(['client_type']);
      }
      expect((await listAlarms(operator, s.recordId)).length).toBe(2);
    });

    it('needs record_ids or alarm_ids, as decimal ids', async () => {
      let res = await operator.post(ACK, { ...SIGN, comment: 'Checked', client_type: 'WEB' });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['record_ids']);
      res = await operator.post(ACK, {
        ...SIGN,
        alarm_ids: [],
        comment: 'Checked',
        client_type: 'WEB',
      });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['alarm_ids']);
      res = await operator.post(ACK, {
        ...SIGN,
        alarm_ids: ['1; drop'],
        comment: 'x',
        client_type: 'WEB',
      });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['alarm_ids.0']);
    });

    it("answers 404 for another organization's alarms and records, and changes nothing", async () => {
      const theirs = await shipment(stranger);
      const ours = await shipment();
      let res = await operator.post(ACK, {
        ...SIGN,
        alarm_ids: [ours.above.id, theirs.above.id],
        comment: 'Not mine',
        client_type: 'WEB',
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
      expect(Object.keys(res.json().fields)).toEqual(['alarm_ids']);
      expect(res.body).not.toContain(theirs.above.tag_serial_number);
      res = await operator.post(ACK, {
        ...SIGN,
        record_ids: [theirs.recordId],
        comment: 'Not mine',
        client_type: 'WEB',
      });
      expect(res.statusCode).toBe(404);
      expect(Object.keys(res.json().fields)).toEqual(['record_ids']);
      // An alarm of another record than the one named.
      res = await operator.post(ACK, {
        ...SIGN,
        record_ids: [ours.recordId],
        alarm_ids: [(await shipment()).above.id],
        comment: 'Wrong record',
        client_type: 'WEB',
      });
      expect(res.statusCode).toBe(404);
      expect(Object.keys(res.json().fields)).toEqual(['alarm_ids']);
      expect((await listAlarms(stranger, theirs.recordId)).length).toBe(2);
      expect((await listAlarms(operator, ours.recordId)).length).toBe(2);
    });

    it('is refused to a Viewer (403) and to a visitor (401)', async () => {
      const s = await shipment();
      const body = { ...SIGN, alarm_ids: [s.above.id], comment: 'Looks fine', client_type: 'WEB' };
      const res = await viewer.post(ACK, body);
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
      expect((await t.client().post(ACK, body)).statusCode).toBe(401);
      expect((await listAlarms(operator, s.recordId)).length).toBe(2);
    });

    it('needs the CSRF token with a session cookie', async () => {
      const s = await shipment();
      const res = await operator.request({
        method: 'POST',
        url: ACK,
        payload: { ...SIGN, alarm_ids: [s.above.id], comment: 'Checked', client_type: 'WEB' },
        csrf: false,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('CSRF_FAILED');
      expect((await listAlarms(operator, s.recordId)).length).toBe(2);
    });
  });

  describe('POST alarm-dismiss/', () => {
    it("dismisses an alarm for the organization and recomputes the record's computed_status", async () => {
      const s = await shipment();
      // Acknowledging changes no status.
      await operator.post(ACK, {
        ...SIGN,
        alarm_ids: [s.below.id],
        comment: 'Seen',
        client_type: 'WEB',
      });
      expect(await record(operator, s.recordId)).toMatchObject({
        status: 'Alarm',
        computed_status: 'Alarm',
      });

      let res = await operator.post(DISMISS, {
        reason: 'Probe fault',
        client_type: 'WEB',
        alarm_ids: [s.above.id],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual([
        expect.objectContaining({
          id: s.above.id,
          dismissed: true,
          dismissed_by: operatorName,
          dismissed_at: expect.stringMatching(/Z$/),
          dismiss_reason: 'Probe fault',
        }),
      ]);
      // One alarm still counts.
      expect((await record(operator, s.recordId)).computed_status).toBe('Alarm');

      res = await operator.post(DISMISS, {
        reason: 'Probe fault',
        client_type: 'WEB',
        alarm_ids: [s.below.id],
      });
      expect(res.statusCode).toBe(200);
      const rec = await record(viewer, s.recordId);
      expect(rec).toMatchObject({ status: 'Alarm', computed_status: 'OK' });
      const row = await recordOf(t.db, s.recordId);
      expect(row.computedStatus).toBe('OK');

      // Hidden from every default list, kept with include_dismissed (with the acknowledgement).
      expect(await listAlarms(manager, s.recordId, '&include_acknowledged=true')).toEqual([]);
      const kept = await listAlarms(
        manager,
        s.recordId,
        '&include_acknowledged=true&include_dismissed=true',
      );
      expect(kept.map((a) => a.id).sort()).toEqual([s.above.id, s.below.id].sort());
      expect(kept.find((a) => a.id === s.below.id)).toMatchObject({
        acknowledged: true,
        acknowledge_comment: 'Seen',
        dismissed: true,
        dismissed_by: operatorName,
      });
    });

    it('keeps the first dismissal; record_ids alone dismisses every holding alarm', async () => {
      const s = await shipment();
      const first = await operator.post(DISMISS, {
        reason: 'Probe fault',
        client_type: 'WEB',
        alarm_ids: [s.above.id],
      });
      const res = await manager.post(DISMISS, {
        reason: 'Probe fault',
        client_type: 'WEB',
        record_ids: [s.recordId],
      });
      expect(res.statusCode, res.body).toBe(200);
      const replies = z.array(ZExcursionAlarm).parse(res.json());
      expect(replies.map((a) => a.id).sort()).toEqual([s.above.id, s.below.id].sort());
      expect(replies.find((a) => a.id === s.above.id)).toEqual(first.json()[0]);
      expect((await record(operator, s.recordId)).computed_status).toBe('OK');
    });

    it('a later upload keeps the dismissal and the OK computed status', async () => {
      const s = await shipment();
      await operator.post(DISMISS, {
        reason: 'Probe fault',
        client_type: 'WEB',
        record_ids: [s.recordId],
      });
      const rec = await record(operator, s.recordId);
      const start = rec.start_time_seconds!;
      const res = await operator.post(
        `${XT1}/scans/`,
        xt1Body(rec.tag_serial_number!, {
          start_time_seconds: start,
          timestamp: iso(start + 1200),
          temps: [...TEMPS, 5, 6],
        }),
      );
      expect(res.statusCode, res.body).toBe(200);
      expect((await record(operator, s.recordId)).computed_status).toBe('OK');
      const alarms = await listAlarms(operator, s.recordId, '&include_dismissed=true');
      expect(alarms.every((a) => a.dismissed)).toBe(true);
    });

    it('answers 404 for another organization, 403 to a Viewer, 400 naming nothing', async () => {
      const theirs = await shipment(stranger);
      let res = await operator.post(DISMISS, {
        reason: 'Probe fault',
        client_type: 'WEB',
        alarm_ids: [theirs.above.id],
      });
      expect(res.statusCode).toBe(404);
      expect(Object.keys(res.json().fields)).toEqual(['alarm_ids']);
      res = await operator.post(DISMISS, {
        reason: 'Probe fault',
        client_type: 'WEB',
        record_ids: [theirs.recordId],
      });
      expect(res.statusCode).toBe(404);
      expect((await record(stranger, theirs.recordId)).computed_status).toBe('Alarm');

      const ours = await shipment();
      res = await viewer.post(DISMISS, {
        reason: 'Probe fault',
        client_type: 'WEB',
        record_ids: [ours.recordId],
      });
      expect(res.statusCode).toBe(403);
      res = await operator.post(DISMISS, { reason: 'Probe fault', client_type: 'WEB' });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['record_ids']);
      res = await operator.post(DISMISS, {
        reason: 'Probe fault',
        client_type: 'PAGER',
        record_ids: [ours.recordId],
      });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['client_type']);
      // A dismissal for the organization is no lighter than an acknowledgement: it needs a reason.
      for (const reason of [undefined, '   ']) {
        res = await operator.post(DISMISS, {
          reason,
          client_type: 'WEB',
          record_ids: [ours.recordId],
        });
        expect(res.statusCode).toBe(400);
        expect(Object.keys(res.json().fields)).toEqual(['reason']);
      }
      // Dismissing one's own notifications needs none.
      res = await operator.post(DISMISS, {
        scope: 'NOTIFICATIONS',
        client_type: 'WEB',
        record_ids: [ours.recordId],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await record(operator, ours.recordId)).computed_status).toBe('Alarm');
    });

    it('needs the CSRF token with a session cookie', async () => {
      const s = await shipment();
      const res = await operator.request({
        method: 'POST',
        url: DISMISS,
        payload: { reason: 'Probe fault', client_type: 'WEB', record_ids: [s.recordId] },
        csrf: false,
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('CSRF_FAILED');
      expect((await record(operator, s.recordId)).computed_status).toBe('Alarm');
    });
  });
});
