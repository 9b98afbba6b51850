import { ZNotification } from '@coldtrace/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, TEST_PASSWORD, type TestApp, type TestClient } from '../../../test/helpers';
import { epoch, iso, serial, xt1Body } from '../../../test/shipment-factories';
import { ALARM_RAISED_JOB } from '../../jobs/catalogue';

/**
 * Issue 14 item 1: acknowledging clears the bell for everyone; each item
 * carries when the alarm happened and the shipment's reference, newest first
 * by that time (docs/decisions/notifications.md).
 */

const XT1 = '/api/devices/xt1';
const NOTIFICATIONS = `${XT1}/notifications/`;
const ACK = `${XT1}/alarm-acknowledge/`;
/** High 8, low 2: one excursion above (points 2-3), one below (points 6-7). */
const TEMPS = [5, 5, 9, 9.5, 5, 5, 1, 1.5, 5];

describe('the bell for review (issue 14) [RULE-NOTIFY-1, SPEC-2.6]', () => {
  let t: TestApp;
  let operator: TestClient;
  let viewer: TestClient;

  beforeAll(async () => {
    t = await createTestApp();
    const op = await t.signIn({ role: 'Operator' });
    operator = op.client;
    viewer = (await t.signIn({ role: 'Viewer', orgs: [op.orgs[0]!] })).client;
  });
  afterAll(() => t.close());

  /** A shipment started `hoursAgo` hours ago with two excursions; answers its record id. */
  async function shipment(opts: { hoursAgo?: number; reference?: string } = {}) {
    const sn = serial('BELL');
    const start = epoch(new Date()) - (opts.hoursAgo ?? 1) * 3600;
    const upload = async (path: string, body: Record<string, unknown>) => {
      const res = await operator.post(`${XT1}/${path}`, xt1Body(sn, body));
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { record_id: string };
    };
    const { record_id } = await upload('start-action/', {
      start_time_seconds: start,
      timestamp: iso(start),
      ...(opts.reference === undefined ? {} : { primary_reference: opts.reference }),
    });
    await upload('scans/', {
      start_time_seconds: start,
      timestamp: iso(start + 600),
      temps: TEMPS,
    });
    await t.app.jobs.waitForIdle([ALARM_RAISED_JOB]);
    return { recordId: record_id, start };
  }

  async function bell(client: TestClient, query = '') {
    const res = await client.get(`${NOTIFICATIONS}?page_size=100${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return z.array(ZNotification).parse(res.json());
  }

  it('answers when the alarm happened and the reference (primary, else the record id)', async () => {
    const withRef = await shipment({ reference: `PO-${Date.now()}` });
    const items = await bell(viewer, `&record_id=${withRef.recordId}`);
    expect(items).toHaveLength(2);
    const above = items.find((n) => n.above_or_below === 'ABOVE')!;
    const below = items.find((n) => n.above_or_below === 'BELOW')!;
    expect(above.kind).toBe('excursion');
    // The excursions' first points: index 2 and 6 of a 60 s series starting at `start`.
    expect(above.occurred_at).toBe(above.start_time);
    expect(Date.parse(above.occurred_at!)).toBe((withRef.start + 2 * 60) * 1000);
    expect(Date.parse(below.occurred_at!)).toBe((withRef.start + 6 * 60) * 1000);
    expect(above.primary_reference).toMatch(/^PO-/);
    expect(above.reference).toBe(above.primary_reference);

    const noRef = await shipment();
    const [item] = await bell(viewer, `&record_id=${noRef.recordId}`);
    expect(item!.primary_reference).toBeNull();
    expect(item!.reference).toBe(noRef.recordId);
  });

  it('lists newest first by when the alarm happened, not when the notification was made', async () => {
    const recent = await shipment({ hoursAgo: 1 });
    // Notified later, but its excursions happened a day earlier.
    const older = await shipment({ hoursAgo: 25 });
    const items = (await bell(viewer)).filter((n) =>
      [recent.recordId, older.recordId].includes(n.record_id!),
    );
    expect(items.map((n) => [n.record_id, n.above_or_below])).toEqual([
      [recent.recordId, 'BELOW'],
      [recent.recordId, 'ABOVE'],
      [older.recordId, 'BELOW'],
      [older.recordId, 'ABOVE'],
    ]);
    const times = items.map((n) => Date.parse(n.occurred_at!));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it("acknowledging clears the alarm from every user's bell, in its transaction", async () => {
    const { recordId } = await shipment();
    expect(await bell(viewer, `&record_id=${recordId}`)).toHaveLength(2);
    const [first] = await bell(operator, `&record_id=${recordId}`);
    // One alarm acknowledged: it leaves both bells, the other stays in both.
    let res = await operator.post(ACK, {
      record_ids: [recordId],
      alarm_ids: [first!.id],
      comment: 'Checked',
      client_type: 'WEB',
      password: TEST_PASSWORD,
      meaning: 'REVIEWED',
    });
    expect(res.statusCode, res.body).toBe(200);
    for (const client of [operator, viewer]) {
      const left = await bell(client, `&record_id=${recordId}`);
      expect(left.map((n) => n.id)).toEqual(
        (await bell(operator, `&record_id=${recordId}`)).map((n) => n.id),
      );
      expect(left).toHaveLength(1);
      expect(left[0]!.id).not.toBe(first!.id);
    }
    // A refused acknowledgement (wrong password) clears nothing.
    res = await operator.post(ACK, {
      record_ids: [recordId],
      comment: 'Checked',
      client_type: 'WEB',
      password: 'wrong',
      meaning: 'REVIEWED',
    });
    expect(res.statusCode).toBe(400);
    expect(await bell(viewer, `&record_id=${recordId}`)).toHaveLength(1);
    // The whole record: both bells empty; the rows stay (evidence), marked dismissed.
    res = await viewer.post(ACK, {
      record_ids: [recordId],
      comment: 'Checked',
      client_type: 'WEB',
      password: TEST_PASSWORD,
      meaning: 'REVIEWED',
    });
    // A Viewer may not acknowledge; the operator does.
    expect(res.statusCode).toBe(403);
    res = await operator.post(ACK, {
      record_ids: [recordId],
      comment: 'Checked',
      client_type: 'WEB',
      password: TEST_PASSWORD,
      meaning: 'REVIEWED',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await bell(viewer, `&record_id=${recordId}`)).toEqual([]);
    expect(await bell(operator, `&record_id=${recordId}`)).toEqual([]);
    const { rows } = await t.db.execute<{ n: number; open: number }>(
      sql`select count(*)::int as n, count(*) filter (where dismissed_at is null)::int as open
            from notifications where record_id = ${Number(recordId)}`,
    );
    expect(rows[0]).toEqual({ n: 4, open: 0 });
  });

  it('a fan-out that runs after the acknowledgement does not bring the bell back', async () => {
    const { recordId } = await shipment();
    const alarmIds = (await bell(viewer, `&record_id=${recordId}`)).map((n) => Number(n.id));
    const res = await operator.post(ACK, {
      record_ids: [recordId],
      comment: 'Checked',
      client_type: 'WEB',
      password: TEST_PASSWORD,
      meaning: 'REVIEWED',
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.db.execute(sql`delete from notifications where record_id = ${Number(recordId)}`);
    const [row] = (
      await t.db.execute<{ organization_id: string }>(
        sql`select organization_id from records where id = ${Number(recordId)}`,
      )
    ).rows;
    await t.app.jobs.send(ALARM_RAISED_JOB, {
      organizationId: row!.organization_id,
      recordId: Number(recordId),
      alarmIds,
    });
    await t.app.jobs.waitForIdle([ALARM_RAISED_JOB]);
    expect(await bell(viewer, `&record_id=${recordId}`)).toEqual([]);
  });
});
