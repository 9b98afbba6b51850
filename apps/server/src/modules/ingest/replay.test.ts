import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/helpers';
import {
  alarmsOf,
  countRows,
  createTravelLocation,
  deviceUser,
  epoch,
  iso,
  recordOf,
  recordSnapshot,
  serial,
  setGeoFence,
  shuffled,
  xt1Body,
  type DeviceUser,
} from '../../../test/shipment-factories';
import { alarms } from '../../db/schema-shipments';
import { reevaluateRecord } from '../../../test/recompute';

const XT1 = '/api/devices/xt1/';
const RT = '/api/devices/rt/';

interface Upload {
  path: string;
  body: Record<string, unknown>;
  /** Sent with the token (rt) or the session (xt1). */
  device?: boolean;
}

const ORIGIN = { latitude: 52.37, longitude: 4.9 };
const DESTINATION = { latitude: 50.85, longitude: 4.35 };
const INTERVAL = 300;
const POINTS_PER_SCAN = 24;
const SCANS = 12;

/** Temperature of point i: 5 °C with a wobble, a high excursion, a low one, and a short high one. */
function temperature(i: number): number {
  if (i >= 60 && i < 70) return 9.5;
  if (i >= 150 && i < 156) return 1;
  if (i >= 200 && i < 203) return 8.5;
  return Math.round((5 + Math.sin(i / 7)) * 10) / 10;
}

/** An xt1 shipment as the phone app uploads it: start, shipment, growing scans along a route, stop. */
function xt1Shipment(sn: string, start: number, shipper: string, receiver: string): Upload[] {
  const common = {
    start_time_seconds: start,
    measurement_interval: INTERVAL,
    cumulative_high_threshold: 7,
    cumulative_duration_high: '01:00:00',
  };
  const uploads: Upload[] = [
    {
      path: 'start-action/',
      body: xt1Body(sn, { ...common, timestamp: iso(start), ...ORIGIN }),
    },
    {
      path: 'create-shipment-action/',
      body: xt1Body(sn, {
        ...common,
        timestamp: iso(start + 60),
        primary_reference: `PO-${sn}`,
        shipper_name_address_id: shipper,
        receiver_name_address_id: receiver,
      }),
    },
  ];
  for (let k = 0; k < SCANS; k++) {
    const points = POINTS_PER_SCAN * (k + 1);
    const f = Math.min(1, k / (SCANS - 3));
    uploads.push({
      path: 'scans/',
      body: xt1Body(sn, {
        ...common,
        timestamp: iso(start + points * INTERVAL),
        temps: Array.from({ length: points }, (_, i) => temperature(i)),
        latitude: ORIGIN.latitude + f * (DESTINATION.latitude - ORIGIN.latitude),
        longitude: ORIGIN.longitude + f * (DESTINATION.longitude - ORIGIN.longitude),
      }),
    });
  }
  uploads.push({
    path: 'stop-action/',
    body: xt1Body(sn, {
      ...common,
      stop_time_seconds: start + SCANS * POINTS_PER_SCAN * INTERVAL,
      timestamp: iso(start + SCANS * POINTS_PER_SCAN * INTERVAL),
    }),
  });
  return uploads.map((u) => ({ ...u, path: XT1 + u.path }));
}

/** An rt run: start, packets of 8 points (some sent twice), stop. The configuration goes first. */
function rtRun(sn: string, start: number): { configure: Upload; rest: Upload[] } {
  const rest: Upload[] = [
    { path: `${RT}start-action/`, body: { tag_id: sn, start_time_seconds: start }, device: true },
  ];
  for (let offset = 0; offset < 240; offset += 8) {
    const packet: Upload = {
      path: `${RT}packets/`,
      body: {
        tag_id: sn,
        start_time_seconds: start,
        temperatures_offset_index: offset,
        temps: Array.from({ length: 8 }, (_, j) => temperature(offset + j)),
      },
      device: true,
    };
    rest.push(packet);
    if (offset % 24 === 0) rest.push(packet);
  }
  rest.push({
    path: `${RT}stop-action/`,
    body: { tag_id: sn, start_time_seconds: start, stop_time_seconds: start + 240 * INTERVAL },
    device: true,
  });
  return {
    configure: {
      path: `${RT}configure-action/`,
      body: {
        tag_id: sn,
        timestamp: iso(start - 600),
        measurement_interval: INTERVAL,
        high_threshold: 8,
        low_threshold: 2,
      },
      device: true,
    },
    rest,
  };
}

async function send(user: DeviceUser, upload: Upload): Promise<Record<string, unknown>> {
  const res = upload.device
    ? await user.device.post(upload.path, upload.body)
    : await user.client.post(upload.path, upload.body);
  expect(res.statusCode, `${upload.path}: ${res.body}`).toBe(200);
  return res.json();
}

describe('replays and re-evaluation [RULE-SERIES-3, RULE-ALARM-1]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  async function shipperOrg(): Promise<{
    user: DeviceUser;
    shipper: string;
    receiver: string;
  }> {
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

  it('every upload of a shipment sent twice, in shuffled order, leaves the same state as once', async () => {
    const start = epoch(new Date()) - 2 * 86_400;
    const once = await shipperOrg();
    const snOnce = serial();
    let recordOnce = '';
    for (const upload of xt1Shipment(snOnce, start, once.shipper, once.receiver)) {
      recordOnce = String((await send(once.user, upload)).record_id);
    }
    const expected = await recordSnapshot(t.db, recordOnce);
    // The shipment is a real one: both directions of excursion, a cumulative alarm, a trip.
    expect(expected.summary).toMatchObject({
      numberOfPoints: SCANS * POINTS_PER_SCAN,
      status: 'Alarm',
      tripStatus: 'ARRIVED',
      active: false,
      tagStatus: 'XT1_IDLE',
    });
    expect(new Set(expected.alarms.map((a) => `${a.kind}:${a.aboveOrBelow}`))).toEqual(
      new Set(['excursion:ABOVE', 'excursion:BELOW', 'cumulative:ABOVE']),
    );

    for (const seed of [1, 7]) {
      const twice = await shipperOrg();
      const sn = serial();
      const uploads = xt1Shipment(sn, start, twice.shipper, twice.receiver);
      const replies = new Set<string>();
      for (const upload of shuffled([...uploads, ...uploads], seed)) {
        replies.add(String((await send(twice.user, upload)).record_id));
      }
      expect(replies.size).toBe(1);
      const [recordId] = [...replies];
      const actual = await recordSnapshot(t.db, recordId!);
      expect(actual.series).toEqual(expected.series);
      expect(actual.alarms).toEqual(expected.alarms);
      expect(actual.summary).toEqual(expected.summary);
      expect(await countRows(t.db, recordId!)).toEqual(await countRows(t.db, recordOnce));
      // Out of order, the trip can be seen before some scans: an alarm outside the window
      // as it was then closes for good, and holds again as a new alarm of the same key
      // when the rest arrives (closed alarms are never reopened). Each closed one is the
      // same excursion as an alarm that holds.
      for (const closed of actual.resolvedAlarms) {
        expect(
          actual.alarms.some(
            (a) =>
              a.kind === closed.kind &&
              a.aboveOrBelow === closed.aboveOrBelow &&
              a.firstPointIdx <= closed.firstPointIdx &&
              a.lastPointIdx >= closed.lastPointIdx,
          ),
          JSON.stringify(closed),
        ).toBe(true);
      }
    }
  });

  it('rt packets out of order and repeated, start and stop shuffled: the same state', async () => {
    const start = epoch(new Date()) - 86_400;
    const a = await deviceUser(t);
    const runOnce = rtRun(serial('RT'), start);
    let recordOnce = '';
    for (const upload of [runOnce.configure, ...runOnce.rest]) {
      recordOnce = String((await send(a, upload)).record_id);
    }
    const expected = await recordSnapshot(t.db, recordOnce);
    expect(expected.summary.numberOfPoints).toBe(240);

    const b = await deviceUser(t);
    const run = rtRun(serial('RT'), start);
    await send(b, run.configure);
    let recordId = '';
    for (const upload of shuffled([...run.rest, ...run.rest], 3)) {
      recordId = String((await send(b, upload)).record_id);
    }
    const actual = await recordSnapshot(t.db, recordId);
    expect(actual.series).toEqual(expected.series);
    expect(actual.alarms).toEqual(expected.alarms);
    expect(actual.summary).toEqual(expected.summary);
    // Out-of-order packets can show part of an excursion first; when the earlier points arrive the
    // run starts sooner (a new key, domain rules §2): the partial alarm stays, resolved, and it
    // lies inside an alarm that holds.
    for (const partial of actual.resolvedAlarms) {
      expect(
        actual.alarms.some(
          (a) =>
            a.kind === partial.kind &&
            a.aboveOrBelow === partial.aboveOrBelow &&
            a.firstPointIdx < partial.firstPointIdx &&
            a.lastPointIdx >= partial.lastPointIdx,
        ),
        JSON.stringify(partial),
      ).toBe(true);
    }
  });

  it('an edit or message without a time or id is applied again; repeating it changes nothing', async () => {
    const user = await deviceUser(t);
    const sn = serial();
    const scan = await user.client.post(
      `${XT1}scans/`,
      xt1Body(sn, { start_time_seconds: epoch(new Date()) - 3600, temps: [5] }),
    );
    const recordId = scan.json().record_id;
    // X, Y, X again: the third is not mistaken for a replay of the first.
    for (const reference of ['X', 'Y', 'X', 'X']) {
      const res = await user.client.post(`${XT1}update-shipment-action/`, {
        record_id: recordId,
        primary_reference: reference,
      });
      expect(res.statusCode).toBe(200);
    }
    expect((await recordOf(t.db, recordId)).primaryReference).toBe('X');
    // Three changes, three rows; the repeated X wrote none.
    expect(await countRows(t.db, recordId)).toEqual({ scans: 1, actions: 3 });

    const nano = serial('NANO');
    const configured = new Set<string>();
    for (let i = 0; i < 2; i++) {
      const res = await user.device.post('/api/devices/nanotag/configure-action/', {
        tag_id: nano,
        record_period_seconds: 60,
      });
      expect(res.statusCode).toBe(200);
      configured.add(res.json().record_id);
    }
    expect(configured.size).toBe(1);
    expect(await countRows(t.db, [...configured][0]!)).toEqual({ scans: 0, actions: 1 });
    const rt = serial('RT');
    await user.device.post(`${RT}configure-action/`, { tag_id: rt, measurement_interval: 60 });
    const started = await user.device.post(`${RT}start-action/`, {
      tag_id: rt,
      start_time_seconds: epoch(new Date()) - 600,
    });
    for (let i = 0; i < 2; i++) {
      expect((await user.device.post(`${RT}stop-action/`, { tag_id: rt })).statusCode).toBe(200);
    }
    const rtRecord = started.json().record_id;
    expect(await countRows(t.db, rtRecord)).toEqual({ scans: 0, actions: 3 });
    expect((await recordOf(t.db, rtRecord)).active).toBe(false);
  });

  it('concurrent twins of one upload store it once', async () => {
    const user = await deviceUser(t);
    const sn = serial();
    const body = xt1Body(sn, {
      start_time_seconds: epoch(new Date()) - 3600,
      temps: [3, 4, 5, 6],
    });
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => user.device.post(`${XT1}scans/`, body)),
    );
    expect(replies.map((r) => r.statusCode)).toEqual(new Array(8).fill(200));
    expect(new Set(replies.map((r) => r.body)).size).toBe(1);
    const recordId = replies[0]!.json().record_id;
    expect(await countRows(t.db, recordId)).toEqual({ scans: 1, actions: 0 });
    expect((await recordOf(t.db, recordId)).numberOfPoints).toBe(4);
  });

  it('an acknowledgement survives re-evaluation; an alarm that no longer holds is closed, still acknowledged, and never reopened', async () => {
    const user = await deviceUser(t);
    const sn = serial();
    const start = epoch(new Date()) - 3600;
    const scan = await user.client.post(
      `${XT1}scans/`,
      xt1Body(sn, { start_time_seconds: start, temps: [5, 12, 12, 12, 5] }),
    );
    const recordId = scan.json().record_id;
    const [alarm] = await alarmsOf(t.db, recordId);
    expect(alarm).toMatchObject({ aboveOrBelow: 'ABOVE', firstPointIdx: 1, lastPointIdx: 3 });
    await t.db
      .update(alarms)
      .set({ acknowledged: true, acknowledgeComment: 'checked', acknowledgedAt: new Date() })
      .where(eq(alarms.id, alarm!.id));

    const edit = (high: number) =>
      user.client.post(`${XT1}update-shipment-action/`, {
        record_id: recordId,
        high_threshold: high,
        reason: `Product allows ${high} °C`,
        password: TEST_PASSWORD,
        meaning: 'APPROVED',
      });

    // Still holds (8 -> 10): updated in place, acknowledgement kept.
    expect((await edit(10)).statusCode).toBe(200);
    let rows = await alarmsOf(t.db, recordId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: alarm!.id,
      highThreshold: 10,
      degreeMinutes: 6,
      acknowledged: true,
      acknowledgeComment: 'checked',
      state: 'OPEN',
    });
    expect((await recordOf(t.db, recordId)).status).toBe('Alarm');

    // No longer holds (-> 15): closed, never deleted, still acknowledged.
    expect((await edit(15)).statusCode).toBe(200);
    rows = await alarmsOf(t.db, recordId);
    expect(rows).toEqual([
      expect.objectContaining({
        id: alarm!.id,
        state: 'CLOSED',
        closeCause: 'THRESHOLD_CHANGE',
        closeReason: 'Product allows 15 °C',
        closedByUserId: user.userId,
        acknowledged: true,
        highThreshold: 10,
      }),
    ]);
    expect((await recordOf(t.db, recordId)).status).toBe('OK');

    // Holds again (-> 8): the closed alarm stays closed; the excursion is a new alarm.
    expect((await edit(8)).statusCode).toBe(200);
    rows = await alarmsOf(t.db, recordId);
    expect(rows).toEqual([
      expect.objectContaining({ id: alarm!.id, state: 'CLOSED', acknowledged: true }),
      expect.objectContaining({ state: 'OPEN', acknowledged: false, firstPointIdx: 1 }),
    ]);
    const reopened = rows[1]!;

    // A dismissed alarm keeps status Alarm but not computed_status; re-evaluation leaves it.
    await t.db
      .update(alarms)
      .set({ dismissed: true })
      .where(and(eq(alarms.id, reopened.id)));
    await reevaluateRecord(t.db, user.org.id, Number(recordId), null);
    const record = await recordOf(t.db, recordId);
    expect(record).toMatchObject({ status: 'Alarm', computedStatus: 'OK' });
    expect((await alarmsOf(t.db, recordId))[1]).toMatchObject({ dismissed: true, state: 'OPEN' });
    await expect(
      reevaluateRecord(t.db, (await t.createOrg()).id, Number(recordId), null),
    ).rejects.toThrow('Record not found');
  });
});
