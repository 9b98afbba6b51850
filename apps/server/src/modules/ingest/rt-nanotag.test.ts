import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import {
  createTravelLocation,
  deviceUser,
  epoch,
  iso,
  recordOf,
  serial,
  setGeoFence,
  tagBySerial,
} from '../../../test/shipment-factories';
import { locationSamples, recordActions, records, tags } from '../../db/schema-shipments';
import { readSeries } from '../../kernel/series-store';

const RT = '/api/devices/rt/';
const NANOTAG = '/api/devices/nanotag/';
const HOUR = 3600;

const RT_CALLS = [
  'configure-action/',
  'start-action/',
  'stop-action/',
  'packets/',
  'configure-request/',
  'start-request/',
  'stop-request/',
];
const NANOTAG_CALLS = [
  'generalized-data/',
  'configure-action/',
  'first-sample-action/',
  'health-action/',
  'packets/',
  'status-action/',
  'transmit-interval/',
];

describe('rt and nanotag uploads [SPEC-7.4, SPEC-7.5, RULE-SERIES-3]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('rt: configure, requests, start, packets out of order and repeated, stop', async () => {
    const { device } = await deviceUser(t);
    const sn = serial('RT');
    const start = epoch(new Date()) - 2 * HOUR;

    // Unknown tag, nothing configured yet.
    expect((await device.post(`${RT}start-request/`, { tag_id: sn })).json()).toEqual({
      status: 'rejected',
      reject_reason: 'record-missing',
    });

    const configured = await device.post(`${RT}configure-action/`, {
      tag_id: sn,
      request_id: 'req-1',
      high_threshold: 8,
      low_threshold: 2,
      measurement_interval: 60,
      max_transmit_interval: 600,
    });
    expect(configured.statusCode, configured.body).toBe(200);
    const pendingId = configured.json().record_id;
    expect(await recordOf(t.db, pendingId)).toMatchObject({
      startTimeSeconds: null,
      transmitInterval: 600,
      tagType: 'XT1_RT',
    });
    expect((await tagBySerial(t.db, sn))!.tagType).toBe('XT1_RT');

    expect((await device.post(`${RT}stop-request/`, { tag_id: sn })).json()).toEqual({
      status: 'rejected',
      reject_reason: 'record-missing',
    });
    expect((await device.post(`${RT}configure-request/`, { tag_id: sn })).json()).toEqual({
      status: 'accepted',
      reject_reason: 'NA',
    });
    expect((await device.post(`${RT}start-request/`, { tag_id: sn })).json()).toEqual({
      status: 'accepted',
      reject_reason: 'NA',
    });
    expect((await tagBySerial(t.db, sn))!.pendingCommand).toMatchObject({ type: 'start' });

    const started = await device.post(`${RT}start-action/`, {
      tag_id: sn,
      request_id: 'req-2',
      start_time_seconds: start,
    });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().record_id).toBe(pendingId);
    expect((await tagBySerial(t.db, sn))!.pendingCommand).toBeNull();

    const packets = [
      { offset: 20, temps: [5, 5, 5, 5, 5, 5, 5, 5, 5, 5] },
      { offset: 0, temps: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4] },
      { offset: 20, temps: [5, 5, 5, 5, 5, 5, 5, 5, 5, 5] },
      { offset: 10, temps: [9, 9, 9, 4, 4, 4, 4, 4, 4, 4] },
      { offset: 0, temps: [4, 4, 4, 4, 4, 4, 4, 4, 4, 4] },
    ];
    for (const p of packets) {
      const res = await device.post(`${RT}packets/`, {
        tag_id: sn,
        start_time_seconds: start,
        temperatures_offset_index: p.offset,
        temps: p.temps,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().record_id).toBe(pendingId);
    }
    const series = await readSeries(t.db, Number(pendingId));
    expect(series).toHaveLength(30);
    expect(series.slice(10, 14)).toEqual([9, 9, 9, 4]);
    let record = await recordOf(t.db, pendingId);
    expect(record).toMatchObject({
      numberOfPoints: 30,
      highestRecordedTemperature: 9,
      status: 'Alarm',
    });
    expect(record.lastPoint?.toISOString()).toBe(iso(start + 29 * 60));

    // A packet without a start time goes to the run covering its end time.
    const late = await device.post(`${RT}packets/`, {
      tag_id: sn,
      packet_end_time_seconds: start + 31 * 60,
      temperatures_offset_index: 30,
      temps: [3, 3],
    });
    expect(late.json().record_id).toBe(pendingId);

    expect((await device.post(`${RT}stop-request/`, { tag_id: sn })).json().status).toBe(
      'accepted',
    );
    const stopped = await device.post(`${RT}stop-action/`, {
      tag_id: sn,
      start_time_seconds: start,
      stop_time_seconds: start + 40 * 60,
    });
    expect(stopped.statusCode, stopped.body).toBe(200);
    record = await recordOf(t.db, pendingId);
    expect(record).toMatchObject({ active: false, numberOfPoints: 32, tagStatus: 'XT1_IDLE' });
    expect((await tagBySerial(t.db, sn))!).toMatchObject({ running: false, pendingCommand: null });
    const actions = await t.db
      .select({ type: recordActions.actionType })
      .from(recordActions)
      .where(eq(recordActions.recordId, record.id));
    expect(actions.map((a) => a.type).sort()).toEqual(['CONFIGURE', 'START', 'STOP']);
  });

  it('rt: a packet of a new run is created from the configuration; without one it answers 409', async () => {
    const { device, org } = await deviceUser(t);
    const sn = serial('RT');
    const start = epoch(new Date()) - HOUR;
    await device.post(`${RT}configure-action/`, { tag_id: sn, measurement_interval: 30 });
    await device.post(`${RT}start-action/`, { tag_id: sn, start_time_seconds: start - 600 });
    const packet = await device.post(`${RT}packets/`, {
      tag_id: sn,
      start_time_seconds: start,
      temps: [1, 2],
    });
    expect(packet.statusCode, packet.body).toBe(200);
    expect(await recordOf(t.db, packet.json().record_id)).toMatchObject({
      startTimeSeconds: start,
      measurementInterval: 30,
      active: true,
    });

    const unknown = await device.post(`${RT}packets/`, { tag_id: serial('RT'), temps: [1] });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().fields).toHaveProperty('tag_id');

    // A tag known (assigned) but never configured.
    const bare = serial('RT');
    await t.db
      .insert(tags)
      .values({ organizationId: org.id, serialNumber: bare, tagType: 'XT1_RT' });
    const result = (path: string) =>
      device.post(`${RT}${path}`, { tag_id: bare }).then((r) => r.json());
    expect(await result('configure-request/')).toEqual({
      status: 'rejected',
      reject_reason: 'empty-data',
    });
    expect(await result('start-request/')).toEqual({
      status: 'rejected',
      reject_reason: 'empty-data',
    });
    expect(await result('stop-request/')).toEqual({
      status: 'rejected',
      reject_reason: 'record-missing',
    });
    const conflict = await device.post(`${RT}packets/`, {
      tag_id: bare,
      start_time_seconds: start,
      temps: [1],
    });
    expect(conflict.statusCode).toBe(409);
    expect(conflict.json().fields).toHaveProperty('tag_id');
    const stop = await device.post(`${RT}stop-action/`, { tag_id: bare });
    expect(stop.statusCode).toBe(404);
  });

  it('nanotag: settings, configure, first sample, frames placed by time, positions, health, status', async () => {
    const { device, org } = await deviceUser(t);
    const sn = serial('NANO');
    const origin = await createTravelLocation(t.db, org.id, { latitude: 50, longitude: 8 });
    await setGeoFence(t.db, org.id, {
      arrivalMetres: 500,
      departureMetres: 500,
      toArrive: 1,
      toDepart: 1,
    });

    const settings = await device.post(`${NANOTAG}generalized-data/`, {
      tag_id: sn,
      high_threshold: 8,
      low_threshold: 2,
      measurement_interval: 300,
      start_delay: 60,
      num_consecutive_excursions: 2,
    });
    expect(settings.statusCode, settings.body).toBe(200);
    expect(settings.json().record_id).toBeUndefined();
    expect((await tagBySerial(t.db, sn))!.tagType).toBe('NanoTag');

    const configured = await device.post(`${NANOTAG}configure-action/`, {
      tag_id: sn,
      record_period_seconds: 120,
      report_period_seconds: 900,
    });
    expect(configured.statusCode, configured.body).toBe(200);
    const recordId = configured.json().record_id;
    expect(await recordOf(t.db, recordId)).toMatchObject({
      measurementInterval: 120,
      transmitInterval: 900,
      highThreshold: 8,
      numConsecutiveExcursions: 2,
      startDelay: 60,
    });
    // The shipper is the origin of the trip.
    await t.db
      .update(records)
      .set({ shipperLocationId: Number(origin) })
      .where(eq(records.id, Number(recordId)));

    const firstSample = epoch(new Date()) - HOUR;
    const first = await device.post(`${NANOTAG}first-sample-action/`, {
      tag_id: sn,
      first_sample_timestamp: iso(firstSample),
    });
    expect(first.json().record_id).toBe(recordId);
    expect((await recordOf(t.db, recordId)).startTimeSeconds).toBe(firstSample - 60);

    // Frame 2 (points 5..9) before frame 1 (points 0..4); frame 2 again.
    const frame = (lastIndex: number, temps: number[], location?: object) => ({
      tag_id: sn,
      temps,
      packet_end_time_seconds: firstSample + lastIndex * 120,
      frame_id: `f${lastIndex}`,
      ...(location ? { location } : {}),
    });
    const frame2 = frame(9, [9, 9, 9, 5, 5], { latitude: 50.1, longitude: 8 });
    for (const body of [
      frame2,
      frame(4, [5, 5, 5, 5, 5], { latitude: 50, longitude: 8 }),
      frame2,
      frame(12, [6, 6, 6], { latitude: -91, longitude: -181 }),
    ]) {
      const res = await device.post(`${NANOTAG}packets/`, body);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await readSeries(t.db, Number(recordId))).toEqual([
      5, 5, 5, 5, 5, 9, 9, 9, 5, 5, 6, 6, 6,
    ]);
    // Departure at the f9 frame (11 km from the origin): the excursion at points 5..7 happened
    // before the trip began, outside the evaluation window.
    let record = await recordOf(t.db, recordId);
    expect(record).toMatchObject({
      status: 'OK',
      highestRecordedTemperature: 9,
      tripStatus: 'IN_TRANSIT',
      lastLatitude: 50.1,
      lastLongitude: 8,
    });
    expect(record.tripBeginTime?.toISOString()).toBe(iso(firstSample + 9 * 120));
    const samples = await t.db
      .select()
      .from(locationSamples)
      .where(eq(locationSamples.recordId, record.id));
    expect(samples.map((s) => s.frameId).sort()).toEqual(['f4', 'f9']);

    const early = await device.post(`${NANOTAG}packets/`, frame(1, [1, 1, 1]));
    expect(early.statusCode).toBe(400);
    expect(early.json().fields).toHaveProperty('packet_end_time_seconds');

    expect(
      (await device.post(`${NANOTAG}health-action/`, { tag_id: sn, battery_health: 'CRITICAL' }))
        .statusCode,
    ).toBe(200);
    await device.post(`${NANOTAG}health-action/`, { tag_id: sn, battery_health: 'CRITICAL' });
    const status = await device.post(`${NANOTAG}status-action/`, {
      tag_id: sn,
      last_sample_number: 12,
      last_sample_timestamp: iso(firstSample + 12 * 120),
    });
    expect(status.statusCode, status.body).toBe(200);
    const interval = await device.post(`${NANOTAG}transmit-interval/`, {
      tag_id: sn,
      transmit_interval: 1800,
    });
    expect(interval.json().record_id).toBe(recordId);
    record = await recordOf(t.db, recordId);
    expect(record).toMatchObject({ batteryHealth: 'CRITICAL', transmitInterval: 1800 });
    const actions = await t.db
      .select({ type: recordActions.actionType })
      .from(recordActions)
      .where(eq(recordActions.recordId, record.id));
    expect(actions.map((a) => a.type).sort()).toEqual([
      'CONFIGURE',
      'FIRST_SAMPLE',
      'HEALTH',
      'STATUS',
    ]);
  });

  it('rt and nanotag calls need a token: a session cookie alone answers 401', async () => {
    const { client } = await deviceUser(t);
    for (const path of [...RT_CALLS.map((p) => RT + p), ...NANOTAG_CALLS.map((p) => NANOTAG + p)]) {
      const res = await client.post(path, { tag_id: 'x' });
      expect(res.statusCode, path).toBe(401);
      expect(res.json().code).toBe('UNAUTHENTICATED');
    }
  });

  it('bad input answers 400 naming the field', async () => {
    const { device } = await deviceUser(t);
    const sn = serial();
    const cases: [string, Record<string, unknown>, string][] = [
      [`${RT}configure-action/`, { tag_id: sn }, 'measurement_interval'],
      [
        `${RT}configure-action/`,
        { tag_id: sn, measurement_interval: 'fast' },
        'measurement_interval',
      ],
      [`${RT}start-action/`, { tag_id: sn }, 'start_time_seconds'],
      [`${RT}packets/`, { tag_id: sn, temps: [] }, 'temps'],
      [`${RT}packets/`, { tag_id: sn, temps: [1], temperatures_offset_index: 1e9 }, 'temps'],
      [
        `${RT}packets/`,
        { tag_id: sn, temps: [1], temperatures_offset_index: -1 },
        'temperatures_offset_index',
      ],
      [`${RT}packets/`, { temps: [1] }, 'tag_id'],
      [`${RT}start-request/`, {}, 'tag_id'],
      [
        `${NANOTAG}packets/`,
        {
          tag_id: sn,
          temps: [1],
          packet_end_time_seconds: 1.7e9,
          location: { latitude: 500, longitude: 0 },
        },
        'location.latitude',
      ],
      [`${NANOTAG}packets/`, { tag_id: sn, temps: [1] }, 'packet_end_time_seconds'],
      [`${NANOTAG}health-action/`, { tag_id: sn, battery_health: 'DEAD' }, 'battery_health'],
      [
        `${NANOTAG}configure-action/`,
        { tag_id: sn, record_period_seconds: 0 },
        'record_period_seconds',
      ],
      [
        `${NANOTAG}first-sample-action/`,
        { tag_id: sn, first_sample_timestamp: 12 },
        'first_sample_timestamp',
      ],
      [
        `${NANOTAG}status-action/`,
        { tag_id: sn, last_sample_timestamp: iso(1.7e9) },
        'last_sample_number',
      ],
      [`${NANOTAG}transmit-interval/`, { tag_id: sn, transmit_interval: 1e6 }, 'transmit_interval'],
      [`${NANOTAG}generalized-data/`, { tag_id: sn, high_threshold: 8 }, 'low_threshold'],
    ];
    for (const [path, payload, field] of cases) {
      const res = await device.post(path, payload);
      expect(res.statusCode, `${path} ${field}: ${res.body}`).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), `${path}`).toContain(field);
    }
  });

  it("another organization's tag is not seen (404, or a tag of one's own); a missing permission 403", async () => {
    const a = await deviceUser(t);
    const b = await deviceUser(t);
    const sn = serial('RT');
    await a.device.post(`${RT}configure-action/`, { tag_id: sn, measurement_interval: 60 });
    const started = await a.device.post(`${RT}start-action/`, {
      tag_id: sn,
      start_time_seconds: epoch(new Date()) - HOUR,
    });
    const aTag = await tagBySerial(t.db, sn, a.org.id);
    for (const [path, body] of [
      [`${RT}packets/`, { tag_id: sn, temps: [1] }],
      [`${RT}stop-action/`, { tag_id: sn }],
      [`${NANOTAG}health-action/`, { tag_id: sn, battery_health: 'OK' }],
      [`${RT}packets/`, { tag_id: String(aTag!.id), temps: [1] }],
    ] as const) {
      const res = await b.device.post(path, body);
      expect(res.statusCode, path).toBe(404);
    }
    expect((await b.device.post(`${RT}stop-request/`, { tag_id: sn })).json().reject_reason).toBe(
      'record-missing',
    );
    // A configuration in B makes B's own tag of that serial number; A's is untouched.
    const configured = await b.device.post(`${RT}configure-action/`, {
      tag_id: sn,
      measurement_interval: 120,
    });
    expect(configured.statusCode).toBe(200);
    expect(configured.json().tag_id).not.toBe(String(aTag!.id));
    expect((await tagBySerial(t.db, sn, b.org.id))!.configuration).toMatchObject({
      measurement_interval: 120,
    });
    expect(await tagBySerial(t.db, sn, a.org.id)).toEqual(aTag);
    expect(await recordOf(t.db, started.json().record_id)).toMatchObject({
      organizationId: a.org.id,
      measurementInterval: 60,
      active: true,
    });

    // Operators hold no awsPacketUpload.
    const operator = await deviceUser(t, { role: 'Operator', orgs: [a.org] });
    const denied = await operator.device.post(`${RT}packets/`, { tag_id: sn, temps: [1] });
    expect(denied.statusCode).toBe(403);
    const allowed = await operator.device.post(`${RT}stop-request/`, { tag_id: sn });
    expect(allowed.json().status).toBe('accepted');
  });
});
