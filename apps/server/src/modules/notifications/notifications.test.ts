import { ZAuditEvent, ZExcursionAlarm, ZNotification } from '@coldtrace/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createTestApp,
  TEST_PASSWORD,
  type TestApp,
  type TestClient,
  type TestOrg,
} from '../../../test/helpers';
import { iso, scannedShipment, xt1Body } from '../../../test/shipment-factories';
import { ALARM_RAISED_JOB } from '../../jobs/catalogue';

const XT1 = '/api/devices/xt1';
const NOTIFICATIONS = `${XT1}/notifications/`;
const ACK = `${XT1}/alarm-acknowledge/`;
const DISMISS = `${XT1}/alarm-dismiss/`;
/** High 8, low 2: one excursion above (points 2-3), one below (points 6-7). */
const TEMPS = [5, 5, 9, 9.5, 5, 5, 1, 1.5, 5];

describe('notifications, signatures and the audit trail [RULE-NOTIFY-1, SPEC-2.6, RULE-ORG-1]', () => {
  let t: TestApp;
  let org: TestOrg;
  let operator: TestClient;
  let operatorId: string;
  let viewer: TestClient;
  let viewerId: string;
  let stranger: TestClient;
  let strangerId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const op = await t.signIn({ role: 'Operator', firstName: 'Olga', lastName: 'Operator' });
    org = op.orgs[0]!;
    operator = op.client;
    operatorId = op.user.id;
    const v = await t.signIn({ role: 'Viewer', orgs: [org] });
    viewer = v.client;
    viewerId = v.user.id;
    const s = await t.signIn({ role: 'Administrator' });
    stranger = s.client;
    strangerId = s.user.id;
  });
  afterAll(() => t.close());

  /** Uploads a shipment with two excursions as `client`, waits for the fan-out; answers the record id. */
  async function shipment(client: TestClient = operator, temps = TEMPS) {
    const shipped = await scannedShipment(client, temps, 'NTF');
    await t.app.jobs.waitForIdle([ALARM_RAISED_JOB]);
    return shipped;
  }

  /** Like `shipment`, its series starting `secondsLater` after the usual hour ago. */
  async function laterShipment(secondsLater: number) {
    const sn = `NTF-LATER-${Date.now()}`;
    const start = Math.floor(Date.now() / 1000) - 3600 + secondsLater;
    for (const [path, body] of [
      ['start-action/', { start_time_seconds: start, timestamp: iso(start) }],
      ['scans/', { start_time_seconds: start, timestamp: iso(start + 600), temps: TEMPS }],
    ] as const) {
      const res = await operator.post(`${XT1}/${path}`, xt1Body(sn, body));
      expect(res.statusCode, res.body).toBe(200);
    }
    await t.app.jobs.waitForIdle([ALARM_RAISED_JOB]);
    const [{ id }] = (
      await t.db.execute<{ id: string }>(
        sql`select id::text from records where tag_serial_number = ${sn}`,
      )
    ).rows as [{ id: string }];
    return { recordId: id };
  }

  async function bell(client: TestClient, query = '') {
    const res = await client.get(`${NOTIFICATIONS}?page_size=100${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return { items: z.array(ZNotification).parse(res.json()), total: res.headers['x-total-count'] };
  }

  async function countNotifications(userId: string, recordId: string): Promise<number> {
    const { rows } = await t.db.execute<{ n: number }>(
      sql`select count(*)::int as n from notifications where user_id = ${userId} and record_id = ${Number(recordId)}`,
    );
    return rows[0]!.n;
  }

  /** The audit entries people made (the system's `alarm.raise` entries of the shipment left out). */
  async function audit(client: TestClient, query: string) {
    const res = await client.get(`/api/audit/?page_size=100&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return z
      .array(ZAuditEvent)
      .parse(res.json())
      .filter((e) => e.action !== 'alarm.raise');
  }

  describe('alarm fan-out and GET notifications/', () => {
    it("notifies every member of the alarm's organization once, nobody else", async () => {
      const { recordId } = await shipment();
      const mine = await bell(operator, `&record_id=${recordId}`);
      expect(mine.items).toHaveLength(2);
      expect(mine.total).toBe('2');
      expect(mine.items.every((n) => n.record_id === recordId)).toBe(true);
      expect(new Set(mine.items.map((n) => n.above_or_below))).toEqual(new Set(['ABOVE', 'BELOW']));
      expect((await bell(viewer, `&record_id=${recordId}`)).items).toHaveLength(2);
      expect(await countNotifications(strangerId, recordId)).toBe(0);
      // The stranger's own bell holds nothing of ours (and its record_id filter answers nothing).
      const theirs = await bell(stranger);
      expect(theirs.items.some((n) => n.record_id === recordId)).toBe(false);
    });

    it('makes no second notification when the record is re-evaluated or the job runs again', async () => {
      const { recordId, sn, start } = await shipment();
      // The same points again, then more points extending the same excursions.
      for (const temps of [TEMPS, [...TEMPS, 5, 5]]) {
        const res = await operator.post(
          `${XT1}/scans/`,
          xt1Body(sn, { start_time_seconds: start, timestamp: iso(start + 1200), temps }),
        );
        expect(res.statusCode, res.body).toBe(200);
      }
      await t.app.jobs.waitForIdle([ALARM_RAISED_JOB]);
      const alarmIds = (await bell(operator, `&record_id=${recordId}`)).items.map((n) =>
        Number(n.id),
      );
      // A crash re-runs a job: the same event again changes nothing.
      await t.app.jobs.send(ALARM_RAISED_JOB, {
        organizationId: org.id,
        recordId: Number(recordId),
        alarmIds,
      });
      await t.app.jobs.waitForIdle([ALARM_RAISED_JOB]);
      expect(await countNotifications(operatorId, recordId)).toBe(2);
      expect(await countNotifications(viewerId, recordId)).toBe(2);
    });

    it('pages newest first with the total in x-total-count', async () => {
      // Newest by when the alarms happened (issue 14): a's series starts after those of the
      // tests before (one of them re-timed by a later scan), b's a quarter of an hour after a's.
      const a = await laterShipment(900);
      const b = await laterShipment(1800);
      const page1 = await operator.get(`${NOTIFICATIONS}?page_size=2&page_number=1`);
      expect(page1.statusCode).toBe(200);
      const items = z.array(ZNotification).parse(page1.json());
      expect(items.map((n) => n.record_id)).toEqual([b.recordId, b.recordId]);
      expect(Number(page1.headers['x-total-count'])).toBeGreaterThanOrEqual(4);
      const page2 = z
        .array(ZNotification)
        .parse((await operator.get(`${NOTIFICATIONS}?page_size=2&page_number=2`)).json());
      expect(page2.map((n) => n.record_id)).toEqual([a.recordId, a.recordId]);
    });

    it("answers 404 naming record_id for another organization's record or no record, never 200 []", async () => {
      const { recordId } = await shipment();
      for (const id of [recordId, '999999999999']) {
        const res = await stranger.get(`${NOTIFICATIONS}?record_id=${id}`);
        expect(res.statusCode, res.body).toBe(404);
        expect(Object.keys(res.json().fields)).toEqual(['record_id']);
        expect(res.body).not.toContain(org.id);
      }
      // The stranger's own record with no notification is still an empty page.
      const own = await scannedShipment(stranger, [5, 5, 5], 'OWN');
      expect((await bell(stranger, `&record_id=${own.recordId}`)).items).toEqual([]);
    });

    it('answers 400 naming a bad parameter and 401 without a session', async () => {
      let res = await operator.get(`${NOTIFICATIONS}?page_size=0`);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['page_size']);
      res = await operator.get(`${NOTIFICATIONS}?record_id=abc`);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['record_id']);
      expect((await t.client().get(NOTIFICATIONS)).statusCode).toBe(401);
    });

    it('scope NOTIFICATIONS dismisses only the caller’s notifications; the alarm stays', async () => {
      const { recordId } = await shipment();
      const [first] = (await bell(viewer, `&record_id=${recordId}`)).items;
      // A Viewer may clear the bell, one item...
      let res = await viewer.post(DISMISS, {
        reason: 'Probe fault',
        client_type: 'WEB',
        alarm_ids: [first!.id],
        scope: 'NOTIFICATIONS',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(
        z
          .array(ZExcursionAlarm)
          .parse(res.json())
          .map((a) => a.id),
      ).toEqual([first!.id]);
      expect((await bell(viewer, `&record_id=${recordId}`)).items).toHaveLength(1);
      // ... then all of the record's.
      res = await viewer.post(DISMISS, {
        reason: 'Probe fault',
        client_type: 'WEB',
        record_ids: [recordId],
        scope: 'NOTIFICATIONS',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await bell(viewer, `&record_id=${recordId}`)).items).toEqual([]);
      // Nobody else's bell, no alarm changed.
      expect((await bell(operator, `&record_id=${recordId}`)).items).toHaveLength(2);
      const alarms = await operator.get(`${XT1}/alarms/?record_id=${recordId}`);
      expect(alarms.json()).toHaveLength(2);
      // A Viewer still may not dismiss alarms for the organization.
      res = await viewer.post(DISMISS, {
        reason: 'Probe fault',
        client_type: 'WEB',
        record_ids: [recordId],
      });
      expect(res.statusCode).toBe(403);
      // Another organization's record: 404, nothing dismissed.
      res = await stranger.post(DISMISS, {
        reason: 'Probe fault',
        client_type: 'WEB',
        record_ids: [recordId],
        scope: 'NOTIFICATIONS',
      });
      expect(res.statusCode).toBe(404);
      expect(await countNotifications(operatorId, recordId)).toBe(2);
    });

    it('an organization dismissal also clears the caller’s notifications and is audited', async () => {
      const { recordId } = await shipment();
      const res = await operator.post(DISMISS, {
        reason: 'Probe fault',
        client_type: 'WEB',
        record_ids: [recordId],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await bell(operator, `&record_id=${recordId}`)).items).toEqual([]);
      expect((await bell(viewer, `&record_id=${recordId}`)).items).toHaveLength(2);
      const entries = await audit(viewer, `record_id=${recordId}`);
      expect(entries).toHaveLength(2);
      for (const e of entries) {
        expect(e).toMatchObject({
          action: 'alarm.dismiss',
          entity_type: 'alarm',
          record_id: recordId,
          field: 'dismissed',
          old_value: false,
          new_value: true,
          actor_name: 'Olga Operator',
          actor_user_id: operatorId,
          client_type: 'WEB',
        });
      }
    });
  });

  describe('acknowledgement as an electronic signature', () => {
    it('refuses a wrong or missing password (400 naming password) and signs nothing [FEAT-E-SIGNATURE]', async () => {
      const { recordId } = await shipment();
      const body = { record_ids: [recordId], comment: 'Checked', client_type: 'WEB' };
      let res = await operator.post(ACK, { ...body, password: 'wrong', meaning: 'REVIEWED' });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('INVALID_CREDENTIALS');
      expect(Object.keys(res.json().fields)).toEqual(['password']);
      res = await operator.post(ACK, { ...body, meaning: 'REVIEWED' });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['password']);
      res = await operator.post(ACK, { ...body, password: TEST_PASSWORD, meaning: 'LIKED' });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['meaning']);
      const alarms = await operator.get(`${XT1}/alarms/?record_id=${recordId}`);
      expect(alarms.json()).toHaveLength(2);
      expect(await audit(operator, `record_id=${recordId}&entity=alarm`)).toEqual([]);
    });

    it('throttles repeated wrong passwords like sign-in (429) [FEAT-E-SIGNATURE, FEAT-ACCOUNT-SECURITY]', async () => {
      const { client } = await t.signIn({ role: 'Operator', orgs: [org] });
      const { recordId } = await shipment();
      const body = {
        record_ids: [recordId],
        comment: 'x',
        client_type: 'WEB',
        meaning: 'REVIEWED',
      };
      let last = 0;
      // The signed-in browser is a known device: its own failures first, then the account's.
      for (let i = 0; i < 2 * t.config.loginThrottle.maxPerAccount + 1; i++) {
        last = (await client.post(ACK, { ...body, password: `wrong-${i}` })).statusCode;
      }
      expect(last).toBe(429);
      // Even the right password waits now.
      const res = await client.post(ACK, { ...body, password: TEST_PASSWORD });
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBeDefined();
    });

    it('stores one signature per alarm, answers it, keeps it, and audits it [FEAT-E-SIGNATURE, RULE-AUDIT-1, RULE-AUDIT-2]', async () => {
      const { recordId } = await shipment();
      const before = Date.now();
      const res = await operator.post(ACK, {
        record_ids: [recordId],
        comment: 'Product within its stability budget',
        client_type: 'WEB',
        password: TEST_PASSWORD,
        meaning: 'APPROVED',
      });
      expect(res.statusCode, res.body).toBe(200);
      const signed = z.array(ZExcursionAlarm).parse(res.json());
      expect(signed).toHaveLength(2);
      for (const alarm of signed) {
        expect(alarm.acknowledged).toBe(true);
        expect(alarm.signature).toMatchObject({
          user_id: operatorId,
          printed_name: 'Olga Operator',
          meaning: 'APPROVED',
          comment: 'Product within its stability budget',
          client_type: 'WEB',
        });
        const at = Date.parse(alarm.signature!.signed_at);
        expect(alarm.signature!.signed_at).toMatch(/Z$/);
        expect(at).toBeGreaterThanOrEqual(before - 1000);
      }
      // GET alarms/ answers the same signature; a second acknowledgement keeps the first.
      const again = await operator.post(ACK, {
        record_ids: [recordId],
        alarm_ids: signed.map((a) => a.id!),
        comment: 'Changed my mind',
        client_type: 'WEB',
        password: TEST_PASSWORD,
        meaning: 'REJECTED',
      });
      expect(again.statusCode).toBe(200);
      const listed = await viewer.get(
        `${XT1}/alarms/?record_id=${recordId}&include_acknowledged=true`,
      );
      const byId = new Map(
        z
          .array(ZExcursionAlarm)
          .parse(listed.json())
          .map((a) => [a.id, a]),
      );
      for (const alarm of signed) expect(byId.get(alarm.id)!.signature).toEqual(alarm.signature);
      const { rows } = await t.db.execute<{ n: number }>(
        sql`select count(*)::int as n from alarm_signatures where record_id = ${Number(recordId)}`,
      );
      expect(rows[0]!.n).toBe(2);
      // Append-only: the database refuses to change a signature, even to its owner.
      const refused = await t.ownerDb
        .execute(sql`delete from alarm_signatures where record_id = ${Number(recordId)}`)
        .then(
          () => 'changed',
          (err: { cause?: { message?: string } }) => err.cause?.message ?? String(err),
        );
      expect(refused).toMatch(/append-only: DELETE/);

      const entries = await audit(operator, `record_id=${recordId}&entity=alarm`);
      expect(entries).toHaveLength(2);
      expect(new Set(entries.map((e) => e.entity_id))).toEqual(new Set(signed.map((a) => a.id)));
      for (const e of entries) {
        expect(e).toMatchObject({
          action: 'alarm.acknowledge',
          field: 'acknowledged',
          old_value: false,
          new_value: true,
          reason: 'Approved: Product within its stability budget',
          actor_name: 'Olga Operator',
        });
      }
    });

    it("answers 404 for another organization's alarms with a right password", async () => {
      const { recordId } = await shipment();
      const res = await stranger.post(ACK, {
        record_ids: [recordId],
        comment: 'Not mine',
        client_type: 'WEB',
        password: TEST_PASSWORD,
        meaning: 'REVIEWED',
      });
      expect(res.statusCode).toBe(404);
      expect(Object.keys(res.json().fields)).toEqual(['record_ids']);
      const alarms = await operator.get(`${XT1}/alarms/?record_id=${recordId}`);
      expect(alarms.json()).toHaveLength(2);
    });
  });

  describe('GET /api/audit/ and its CSV', () => {
    it("is scoped to the organization: another organization's record answers 404", async () => {
      const { recordId } = await shipment();
      const res = await stranger.get(`/api/audit/?record_id=${recordId}`);
      expect(res.statusCode).toBe(404);
      expect(Object.keys(res.json().fields)).toEqual(['record_id']);
      expect((await stranger.get(`/api/audit/csv/?record_id=${recordId}`)).statusCode).toBe(404);
      const theirs = await audit(stranger, '');
      expect(theirs.some((e) => e.record_id === recordId)).toBe(false);
      expect((await t.client().get('/api/audit/')).statusCode).toBe(401);
    });

    it('exports CSV with formula cells neutralised [FEAT-AUDIT-DISPLAY]', async () => {
      const { client } = await t.signIn({
        role: 'Operator',
        orgs: [org],
        firstName: '=cmd|',
        lastName: 'Evil',
      });
      const { recordId } = await shipment();
      const res = await client.post(ACK, {
        record_ids: [recordId],
        comment: 'Checked "twice", fine',
        client_type: 'WEB',
        password: TEST_PASSWORD,
        meaning: 'REVIEWED',
      });
      expect(res.statusCode, res.body).toBe(200);
      const csv = await operator.get(`/api/audit/csv/?record_id=${recordId}`);
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      expect(csv.headers['content-disposition']).toContain(`audit-trail-record-${recordId}.csv`);
      const lines = csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\n')
        .filter((line) => !line.includes(',alarm.raise,'));
      // The stored values, then the entry in the reader's zone, unit and words.
      expect(lines[0]).toBe(
        'When (UTC),Who,Client,Action,Entity,Entity id,Record id,Field,Old value,New value,Reason,When (UTC),What,Change (°C)',
      );
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain(",'=cmd| Evil,WEB,alarm.acknowledge,alarm,");
      expect(lines[1]).toContain(',acknowledged,false,true,"Reviewed: Checked ""twice"", fine"');
      expect(lines[1]).toMatch(
        /,"\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}",Alarm acknowledged #\d+,Acknowledged: No → Yes$/,
      );
    });
  });
});
