import { ZNotification } from '@coldtrace/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/helpers';
import {
  alarmsOf,
  deviceUser,
  recordOf,
  scannedShipment,
  serial,
  type DeviceUser,
} from '../../../test/shipment-factories';
import { startedRtRecord } from '../../../test/rt-factories';
import { auditEvents } from '../../db/schema-audit';
import { ALARM_RAISED_JOB, NO_DATA_JOB, WEBHOOK_EVENT_JOB } from '../../jobs/catalogue';
import { raiseNoDataAlarms } from './no-data';

const RT = '/api/devices/rt/';
const MINUTE = 60_000;
/** Transmit interval of the test tags: 10 minutes, so the default silence is 30 minutes. */
const TRANSMIT = 600;

describe('the no-data alarm (issue 14 item 4) [FEAT-NO-DATA-ALARM]', () => {
  let t: TestApp;
  let a: DeviceUser;
  let b: DeviceUser;
  beforeAll(async () => {
    t = await createTestApp();
    a = await deviceUser(t);
    b = await deviceUser(t);
  });
  afterAll(() => t.close());

  /** A running rt record with `points` points of 5 °C: answers its id. */
  async function rtRecord(user: DeviceUser, points = 10): Promise<number> {
    const { sn, start, recordId } = await startedRtRecord(user, 'ND', TRANSMIT);
    await packet(user, sn, start, 0, points);
    return recordId;
  }

  async function packet(user: DeviceUser, sn: string, start: number, offset: number, n: number) {
    const res = await user.device.post(`${RT}packets/`, {
      tag_id: sn,
      start_time_seconds: start,
      temperatures_offset_index: offset,
      temps: Array.from({ length: n }, () => 5),
    });
    expect(res.statusCode, res.body).toBe(200);
  }

  const noData = async (recordId: number) =>
    (await alarmsOf(t.db, recordId)).filter((row) => row.kind === 'no_data');
  const later = (minutes: number) => new Date(Date.now() + minutes * MINUTE);

  it('is scheduled every minute in the job queue', async () => {
    const { rows } = await t.db.execute<{ cron: string }>(
      sql`SELECT cron FROM pgboss.schedule WHERE name = ${NO_DATA_JOB}`,
    );
    expect(rows).toEqual([{ cron: '* * * * *' }]);
  });

  it('refuses a factor out of bounds (400 naming no_data_factor) and keeps one per organization', async () => {
    for (const bad of [1, 101, 'three']) {
      const res = await b.client.patch('/api/auth/org-settings/', { no_data_factor: bad });
      expect(res.statusCode, res.body).toBe(400);
      expect(Object.keys(res.json().fields)).toContain('no_data_factor');
    }
    const res = await b.client.patch('/api/auth/org-settings/', { no_data_factor: 10 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().no_data_factor).toBe(10);
    expect((await a.client.get('/api/auth/org-settings/')).json().no_data_factor).toBe(3);
  });

  it('raises one alarm per silence, for running rt records only, and closes it when data resumes', async () => {
    const recordId = await rtRecord(a);
    const sn = (await recordOf(t.db, recordId)).tagSerialNumber;
    const start = (await recordOf(t.db, recordId)).startTimeSeconds!;
    // Not raised: an xt1 record, a stopped rt record, and organization B's record (factor 10).
    const xt1 = await scannedShipment(a.client, [5, 5, 5], 'NDX');
    const stoppedId = await rtRecord(a);
    const stopped = await recordOf(t.db, stoppedId);
    const stop = await a.device.post(`${RT}stop-action/`, {
      tag_id: stopped.tagSerialNumber,
      start_time_seconds: stopped.startTimeSeconds,
      stop_time_seconds: stopped.startTimeSeconds! + 3600,
    });
    expect(stop.statusCode, stop.body).toBe(200);
    const otherId = await rtRecord(b);
    // Configured, never started: not running, nothing is expected of it yet.
    const pending = await a.device.post(`${RT}configure-action/`, {
      tag_id: serial('ND'),
      request_id: 'pending-1',
      measurement_interval: 60,
      max_transmit_interval: TRANSMIT,
    });
    expect(pending.statusCode, pending.body).toBe(200);
    const pendingId = Number(pending.json().record_id);

    // 29 minutes of silence: under 3 × 10 minutes, nothing.
    expect(await raiseNoDataAlarms(t.db, t.app.jobs, later(29))).toEqual([]);
    expect(await noData(recordId)).toEqual([]);

    // 31 minutes: exactly one, for the running rt record of organization A.
    const raised = await raiseNoDataAlarms(t.db, t.app.jobs, later(31));
    expect(raised).toHaveLength(1);
    const [alarm] = await noData(recordId);
    expect(alarm).toMatchObject({
      id: raised[0],
      organizationId: a.org.id,
      state: 'OPEN',
      firstPointIdx: 10,
      lastPointIdx: 10,
      acknowledged: false,
    });
    expect(alarm!.duration).toBeGreaterThanOrEqual(31 * 60 - 5);
    expect(await recordOf(t.db, recordId)).toMatchObject({ status: 'Alarm' });
    for (const id of [Number(xt1.recordId), stoppedId, otherId, pendingId]) {
      expect(await noData(id)).toEqual([]);
    }
    // The same silence again: nothing new.
    expect(await raiseNoDataAlarms(t.db, t.app.jobs, later(45))).toEqual([]);
    expect(await noData(recordId)).toHaveLength(1);
    // Organization B's factor of 10: raised after 100 minutes, not before.
    expect(await raiseNoDataAlarms(t.db, t.app.jobs, later(99))).toEqual([]);
    const [theirs] = await raiseNoDataAlarms(t.db, t.app.jobs, later(101));
    expect(await noData(otherId)).toMatchObject([
      { id: theirs, organizationId: b.org.id, state: 'OPEN' },
    ]);

    // Audited as a system raise; the bell tells organization A's user, kind no_data.
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.action, 'alarm.raise'), eq(auditEvents.entityId, String(alarm!.id))),
      );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ organizationId: a.org.id, actorName: 'System' });
    await t.app.jobs.waitForIdle([ALARM_RAISED_JOB]);
    const bell = await a.client.get(
      `/api/devices/xt1/notifications/?page_size=100&record_id=${recordId}`,
    );
    expect(bell.statusCode, bell.body).toBe(200);
    const items = z.array(ZNotification).parse(bell.json());
    expect(items.map((n) => n.kind)).toEqual(['no_data']);
    // The webhook events of the raise: alarm.raised and alarm.no_data.
    const { rows: events } = await t.db.execute<{ event: string }>(
      sql`select data->>'event' as event from pgboss.job where name = ${WEBHOOK_EVENT_JOB}
           and data->'alarmIds' @> ${JSON.stringify([alarm!.id])}::jsonb order by event`,
    );
    expect(events.map((e) => e.event)).toEqual(['alarm.no_data', 'alarm.raised']);

    // Acknowledged like an excursion (a signature).
    const ack = await a.client.post('/api/devices/xt1/alarm-acknowledge/', {
      record_ids: [String(recordId)],
      comment: 'Gateway offline, checked',
      client_type: 'WEB',
      password: TEST_PASSWORD,
      meaning: 'REVIEWED',
    });
    expect(ack.statusCode, ack.body).toBe(200);
    expect((await noData(recordId))[0]).toMatchObject({ acknowledged: true, state: 'OPEN' });

    // Data arrives again: closed by the system, cause DATA_RESUMED; kept.
    await packet(a, sn, start, 10, 5);
    const [closed] = await noData(recordId);
    expect(closed).toMatchObject({
      id: alarm!.id,
      state: 'CLOSED',
      closeCause: 'DATA_RESUMED',
      closedByUserId: null,
      acknowledged: true,
    });
    expect(await recordOf(t.db, recordId)).toMatchObject({ status: 'OK' });

    // A second silence: a new alarm, from the new end of the series.
    expect(await raiseNoDataAlarms(t.db, t.app.jobs, later(20))).toEqual([]);
    const again = await raiseNoDataAlarms(t.db, t.app.jobs, later(31));
    expect(again).toHaveLength(1);
    expect(again[0]).not.toBe(alarm!.id);
    const rows = await noData(recordId);
    expect(rows.map((r) => [r.state, r.firstPointIdx])).toEqual([
      ['CLOSED', 10],
      ['OPEN', 15],
    ]);
  });
});
