import { ZExcursionAlarm, type TExcursionAlarm } from '@coldtrace/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { auditEvents } from '../src/db/schema-audit';
import { ALARM_RAISED_JOB } from '../src/jobs/catalogue';
import { alarmSignatures } from '../src/db/schema-notifications';
import { alarms } from '../src/db/schema-shipments';
import { createTestApp, TEST_PASSWORD, type TestApp } from './helpers';
import {
  alarmsOf,
  createTravelLocation,
  deviceUser,
  epoch,
  iso,
  recordOf,
  serial,
  setGeoFence,
  xt1Body,
  type DeviceUser,
} from './shipment-factories';

/**
 * The alarm lifecycle (issue 11, docs/decisions/alarm-lifecycle.md): an alarm
 * once raised is never deleted; it closes with cause, reason, who and when;
 * a person's change that closes one needs a reason and a signature; the
 * record's status follows open alarms only; raising and closing are audited.
 */

const XT1 = '/api/devices/xt1/';
const ORIGIN = { latitude: 52.37, longitude: 4.9 };
const AWAY = { latitude: 51.5, longitude: 4.6 };
const DESTINATION = { latitude: 50.85, longitude: 4.35 };
const SIGN = { password: TEST_PASSWORD, meaning: 'APPROVED' };

describe('alarm lifecycle [RULE-ALARM-2, RULE-ALARM-1, RULE-AUDIT-2]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function listAlarms(user: DeviceUser, recordId: string): Promise<TExcursionAlarm[]> {
    const res = await user.client.get(
      `${XT1}alarms/?record_id=${recordId}&include_acknowledged=true&include_dismissed=true`,
    );
    expect(res.statusCode, res.body).toBe(200);
    return z.array(ZExcursionAlarm).parse(res.json());
  }

  async function auditOf(recordId: string) {
    return t.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.recordId, Number(recordId)))
      .orderBy(auditEvents.id);
  }

  /**
   * A shipment whose first 6 points (30 min at 5-minute intervals) are 15 °C on
   * the origin dock, then 5 °C on the road: scanned on the dock, then away twice
   * (the trip departs), then at the destination twice (it arrives).
   */
  async function dockExcursion(user: DeviceUser, shipper: string, receiver: string) {
    const sn = serial();
    const start = epoch(new Date()) - 6 * 3600;
    const temps = Array.from({ length: 60 }, (_, i) => (i < 6 ? 15 : 5));
    const common = { start_time_seconds: start, measurement_interval: 300 };
    const post = async (path: string, body: Record<string, unknown>) => {
      const res = await user.client.post(`${XT1}${path}`, xt1Body(sn, { ...common, ...body }));
      expect(res.statusCode, res.body).toBe(200);
      return String(res.json().record_id);
    };
    const recordId = await post('create-shipment-action/', {
      timestamp: iso(start),
      shipper_name_address_id: shipper,
      receiver_name_address_id: receiver,
      ...ORIGIN,
    });
    await post('scans/', { timestamp: iso(start + 35 * 60), temps: temps.slice(0, 8), ...ORIGIN });
    return { sn, start, temps, recordId, post };
  }

  async function shipperOrg() {
    const user = await deviceUser(t, { role: 'Administrator' });
    const shipper = await createTravelLocation(t.db, user.org.id, ORIGIN);
    const receiver = await createTravelLocation(t.db, user.org.id, DESTINATION);
    await setGeoFence(t.db, user.org.id, {
      arrivalMetres: 2000,
      departureMetres: 2000,
      toArrive: 2,
      toDepart: 2,
    });
    return { user, shipper, receiver };
  }

  it('a pre-departure excursion closes when the trip departs: listed, closed by the system, audited; the bell still opens it', async () => {
    const { user, shipper, receiver } = await shipperOrg();
    const { recordId, start, temps, post } = await dockExcursion(user, shipper, receiver);
    let [alarm] = await listAlarms(user, recordId);
    expect(alarm).toMatchObject({ state: 'OPEN', above_or_below: 'ABOVE', first_point_idx: 0 });
    expect((await recordOf(t.db, recordId)).status).toBe('Alarm');
    await t.app.jobs.waitForIdle([ALARM_RAISED_JOB]);
    const bell = await user.client.get(`${XT1}notifications/`);
    expect(bell.json()).toEqual([expect.objectContaining({ id: alarm!.id, record_id: recordId })]);

    // Two scans away from the origin: departed at the first; the dock points fall outside.
    await post('scans/', { timestamp: iso(start + 3600), temps: temps.slice(0, 12), ...AWAY });
    await post('scans/', { timestamp: iso(start + 7200), temps: temps.slice(0, 24), ...AWAY });
    const record = await recordOf(t.db, recordId);
    expect(record).toMatchObject({ tripStatus: 'IN_TRANSIT', status: 'OK' });

    [alarm] = await listAlarms(user, recordId);
    expect(alarm).toMatchObject({
      state: 'CLOSED',
      resolved: true,
      closed_by: null,
      close_cause: 'TRIP_WINDOW',
      close_reason: expect.stringContaining('outside the trip window'),
      closed_at: expect.stringMatching(/Z$/),
    });
    // The default list (no include flags) still has it; the bell's item still names it.
    const plain = await user.client.get(`${XT1}alarms/?record_id=${recordId}`);
    expect(plain.json().map((a: TExcursionAlarm) => a.id)).toEqual([alarm!.id]);
    const bellAfter = await user.client.get(`${XT1}notifications/`);
    expect(bellAfter.json()).toEqual([
      expect.objectContaining({ id: alarm!.id, record_id: recordId, state: 'CLOSED' }),
    ]);
    const audit = await auditOf(recordId);
    expect(audit.filter((e) => e.entityType === 'alarm').map((e) => e.action)).toEqual([
      'alarm.raise',
      'alarm.close',
    ]);
    expect(audit.find((e) => e.action === 'alarm.close')).toMatchObject({
      actorName: 'System',
      oldValue: 'OPEN',
      newValue: 'CLOSED',
      reason: expect.stringMatching(/^Outside the trip window: /),
    });
  });

  it('a threshold raise needs a reason, then a signature; nothing is stored without them', async () => {
    const { user, shipper, receiver } = await shipperOrg();
    const { recordId } = await dockExcursion(user, shipper, receiver);
    const [before] = await listAlarms(user, recordId);
    const edit = (extra: Record<string, unknown>) =>
      user.client.post(`${XT1}update-shipment-action/`, {
        record_id: recordId,
        high_threshold: 20,
        ...extra,
      });

    let res = await edit({});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'REASON_REQUIRED',
      fields: { reason: expect.any(String) },
    });
    res = await edit({ reason: 'Product allows 20 °C' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'SIGNATURE_REQUIRED',
      fields: {
        password: 'This change closes 1 alarm: sign it with your password and its meaning',
      },
    });
    res = await edit({ reason: 'Product allows 20 °C', password: 'wrong', meaning: 'APPROVED' });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields)).toEqual(['password']);
    res = await edit({ reason: 'Product allows 20 °C', password: TEST_PASSWORD });
    expect(Object.keys(res.json().fields)).toEqual(['meaning']);
    // Nothing changed on the way.
    expect((await recordOf(t.db, recordId)).highThreshold).toBe(8);
    expect(await listAlarms(user, recordId)).toEqual([before]);

    res = await edit({ reason: 'Product allows 20 °C', ...SIGN });
    expect(res.statusCode, res.body).toBe(200);
    const [closed] = await listAlarms(user, recordId);
    expect(closed).toMatchObject({
      id: before!.id,
      state: 'CLOSED',
      close_cause: 'THRESHOLD_CHANGE',
      close_reason: 'Product allows 20 °C',
      closed_by: expect.any(String),
      high_threshold: 8,
      close_signature: {
        purpose: 'CLOSE',
        meaning: 'APPROVED',
        comment: 'Product allows 20 °C',
        user_id: user.userId,
      },
    });
    expect((await recordOf(t.db, recordId)).status).toBe('OK');
    const audit = await auditOf(recordId);
    expect(audit.find((e) => e.action === 'record.shipment.update')).toMatchObject({
      field: 'high_threshold',
      oldValue: 8,
      newValue: 20,
      reason: 'Product allows 20 °C',
    });
    expect(audit.find((e) => e.action === 'alarm.close')).toMatchObject({
      actorUserId: user.userId,
      reason: 'Thresholds changed: Product allows 20 °C',
    });
    // The acknowledgement stays possible on a closed alarm (a review of the evidence).
    res = await user.client.post(`${XT1}alarm-acknowledge/`, {
      alarm_ids: [closed!.id],
      comment: 'Reviewed after the threshold change',
      client_type: 'WEB',
      password: TEST_PASSWORD,
      meaning: 'REVIEWED',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()[0]).toMatchObject({
      state: 'CLOSED',
      acknowledged: true,
      signature: { purpose: 'ACKNOWLEDGE', meaning: 'REVIEWED' },
      close_signature: { purpose: 'CLOSE', meaning: 'APPROVED' },
    });
  });

  it('a trip edit that moves the window closes the alarm with its reason, signed', async () => {
    const { user, shipper, receiver } = await shipperOrg();
    const { recordId, start } = await dockExcursion(user, shipper, receiver);
    const [alarm] = await listAlarms(user, recordId);
    const res = await user.client.post(`${XT1}records/trips/`, {
      record_id: recordId,
      begin_time: iso(start + 40 * 60),
      reason: 'Left the dock at 0:40 (driver log)',
      ...SIGN,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await listAlarms(user, recordId)).toEqual([
      expect.objectContaining({
        id: alarm!.id,
        state: 'CLOSED',
        close_cause: 'TRIP_EDIT',
        close_reason: 'Left the dock at 0:40 (driver log)',
      }),
    ]);
    const audit = await auditOf(recordId);
    expect(audit.find((e) => e.action === 'record.trip.update')).toMatchObject({
      field: 'begin_time',
      reason: 'Left the dock at 0:40 (driver log)',
    });
  });

  it('a geo-fence change re-evaluates active records when it is made, audited; never later as a side effect', async () => {
    const { user, shipper, receiver } = await shipperOrg();
    const { recordId, start, temps, post } = await dockExcursion(user, shipper, receiver);
    // At the destination twice: arrived.
    await post('scans/', { timestamp: iso(start + 3600), temps: temps.slice(0, 12), ...AWAY });
    await post('scans/', {
      timestamp: iso(start + 2 * 3600),
      temps: temps.slice(0, 24),
      ...DESTINATION,
    });
    await post('scans/', {
      timestamp: iso(start + 3 * 3600),
      temps: temps.slice(0, 36),
      ...DESTINATION,
    });
    expect((await recordOf(t.db, recordId)).tripStatus).toBe('ARRIVED');
    // A stopped record of the same route keeps its trip whatever the geo-fence becomes.
    const other = await dockExcursion(user, shipper, receiver);
    await other.post('scans/', {
      timestamp: iso(other.start + 3600),
      temps: other.temps.slice(0, 12),
      ...AWAY,
    });
    await other.post('scans/', {
      timestamp: iso(other.start + 2 * 3600),
      temps: other.temps.slice(0, 24),
      ...AWAY,
    });
    await other.post('stop-action/', {
      timestamp: iso(other.start + 2 * 3600 + 60),
      stop_time_seconds: other.start + 2 * 3600 + 60,
    });
    const stoppedBefore = await recordOf(t.db, other.recordId);
    expect(stoppedBefore.tripStatus).toBe('IN_TRANSIT');

    // 200 km radii: nothing ever departs. The record has alarms: a reason is needed.
    const patch = (extra: Record<string, unknown>) =>
      user.client.request({
        method: 'PATCH',
        url: '/api/auth/org-settings/',
        payload: {
          geo_fence_settings: { arrival_radius_meters: 200_000, departure_radius_meters: 200_000 },
          ...extra,
        },
      });
    let res = await patch({});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'REASON_REQUIRED',
      fields: { reason: expect.any(String) },
    });
    res = await patch({ reason: 'Regional hub geo-fence' });
    expect(res.statusCode, res.body).toBe(200);
    const after = await recordOf(t.db, recordId);
    expect(after.tripStatus).toBe('NOT_DEPARTED');
    const audit = await auditOf(recordId);
    expect(audit.filter((e) => e.action === 'record.trip.update')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          field: 'trip_status',
          oldValue: 'ARRIVED',
          newValue: 'NOT_DEPARTED',
          reason: 'Regional hub geo-fence',
          actorUserId: user.userId,
        }),
      ]),
    );
    expect(await recordOf(t.db, other.recordId)).toEqual(stoppedBefore);

    // Setting the geo-fence back directly in the table (not through the call) reaches no
    // record: a dismissal re-evaluates the record but keeps the trip it was evaluated with.
    await setGeoFence(t.db, user.org.id, {
      arrivalMetres: 2000,
      departureMetres: 2000,
      toArrive: 2,
      toDepart: 2,
    });
    const [open] = (await listAlarms(user, recordId)).filter((a) => a.state === 'OPEN');
    res = await user.client.post(`${XT1}alarm-dismiss/`, {
      alarm_ids: [open!.id],
      client_type: 'WEB',
      reason: 'Known dock issue',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await recordOf(t.db, recordId)).tripStatus).toBe('NOT_DEPARTED');
    expect(await recordOf(t.db, other.recordId)).toEqual(stoppedBefore);
  });

  it('after a long simulated life of records, no alarm row was ever deleted', async () => {
    const { user, shipper, receiver } = await shipperOrg();
    const seen = new Map<number, string>();
    const remember = async (recordId: string) => {
      for (const row of await alarmsOf(t.db, recordId)) {
        const was = seen.get(row.id);
        // Never deleted; once closed, never changed again.
        if (was === 'CLOSED') expect(row.state).toBe('CLOSED');
        seen.set(row.id, row.state);
      }
    };
    const records: string[] = [];
    for (let r = 0; r < 4; r++) {
      const life = await dockExcursion(user, shipper, receiver);
      records.push(life.recordId);
      await remember(life.recordId);
      for (let step = 1; step <= 5; step++) {
        const at = life.start + step * 1800;
        const place = step < 3 ? AWAY : DESTINATION;
        await life.post('scans/', {
          timestamp: iso(at),
          temps: life.temps.slice(0, 8 + step * 6).map((v, i) => (i === 7 + step * 6 ? 12 : v)),
          ...place,
        });
        await remember(life.recordId);
        const threshold = step % 2 === 0 ? 13 : 8;
        const res = await user.client.post(`${XT1}update-shipment-action/`, {
          record_id: life.recordId,
          high_threshold: threshold,
          reason: `Step ${step}`,
          ...SIGN,
        });
        expect(res.statusCode, res.body).toBe(200);
        await remember(life.recordId);
      }
    }
    const stored = await t.db
      .select({ id: alarms.id })
      .from(alarms)
      .where(and(eq(alarms.organizationId, user.org.id)));
    expect(new Set(stored.map((a) => a.id))).toEqual(new Set(seen.keys()));
    expect([...seen.values()]).toContain('CLOSED');
    // Every closed alarm carries its cause and reason; each signed closing has its signature.
    const closed = await t.db
      .select()
      .from(alarms)
      .where(and(eq(alarms.organizationId, user.org.id), eq(alarms.state, 'CLOSED')));
    for (const a of closed) {
      expect(a.closeCause).not.toBeNull();
      expect(a.closeReason).not.toBeNull();
      expect(a.closedAt).not.toBeNull();
    }
    const signatures = await t.db
      .select()
      .from(alarmSignatures)
      .where(eq(alarmSignatures.organizationId, user.org.id));
    expect(
      signatures
        .filter((s) => s.purpose === 'CLOSE')
        .map((s) => s.alarmId)
        .sort(),
    ).toEqual(
      closed
        .filter((a) => a.closedByUserId !== null)
        .map((a) => a.id)
        .sort(),
    );
  });
});
