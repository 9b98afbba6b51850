import { meanKineticTemperature } from '@coldtrace/domain';
import { eq } from 'drizzle-orm';
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
  serial,
  tagBySerial,
  xt1Body,
} from '../../../test/shipment-factories';
import { locationSamples, recordActions, scans } from '../../db/schema-shipments';
import { STORED_DECIMALS, readSeries } from '../../kernel/series-store';

const XT1 = '/api/devices/xt1/';
const HOUR = 3600;

describe('xt1 uploads and actions [SPEC-7.2, RULE-SERIES-2, RULE-SERIES-3, RULE-ALARM-4]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a shipment from start to stop: record, series, summary, alarms, shipment, trip', async () => {
    const { client, org, userId } = await deviceUser(t, { role: 'Operator' });
    const sn = serial();
    const start = epoch(new Date()) - 2 * HOUR;
    const origin = await createTravelLocation(t.db, org.id, { latitude: 52.37, longitude: 4.9 });
    const destination = await createTravelLocation(t.db, org.id, {
      latitude: 48.85,
      longitude: 2.35,
    });

    // Start.
    const started = await client.post(
      `${XT1}start-action/`,
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start) }),
    );
    expect(started.statusCode, started.body).toBe(200);
    const ref = started.json();
    const tag = await tagBySerial(t.db, sn);
    expect(ref).toEqual({
      record_id: expect.stringMatching(/^\d+$/),
      tag_id: String(tag!.id),
      tag_serial_number: sn,
    });
    expect(tag).toMatchObject({ organizationId: org.id, tagType: 'XT1_NFC_MU', running: true });
    expect(tag!.lastRecordId).toBe(Number(ref.record_id));
    let record = await recordOf(t.db, ref.record_id);
    expect(record).toMatchObject({
      startTimeSeconds: start,
      active: true,
      tagStatus: 'XT1_ACTIVE',
      highThreshold: 8,
      lowThreshold: 2,
      measurementInterval: 60,
      status: 'OK',
    });
    const [startAction] = await t.db
      .select()
      .from(recordActions)
      .where(eq(recordActions.recordId, record.id));
    expect(startAction).toMatchObject({
      actionType: 'START',
      latitude: -91,
      longitude: -181,
      createdByUserId: userId,
      mobileDeviceType: 'ANDROID',
    });

    // A scan with the log so far, by the numeric tag id this time.
    const temps = [5, 5, 9, 9, 9, 5, 1, 5];
    const scanned = await client.post(
      `${XT1}scans/`,
      xt1Body(sn, {
        tag_id: ref.tag_id,
        tag_serial_number: undefined,
        start_time_seconds: start,
        timestamp: iso(start + 8 * 60),
        temps,
        latitude: 52.37,
        longitude: 4.9,
        battery_health: 'LOW_BATTERY',
      }),
    );
    expect(scanned.statusCode, scanned.body).toBe(200);
    expect(scanned.json()).toEqual(ref);
    expect(await readSeries(t.db, record.id)).toEqual(temps);
    record = await recordOf(t.db, ref.record_id);
    expect(record).toMatchObject({
      highestRecordedTemperature: 9,
      lowestRecordedTemperature: 1,
      numberOfPoints: 8,
      seriesLength: 8,
      recordDuration: 7 * 60,
      latestTemp: 5,
      status: 'Alarm',
      computedStatus: 'Alarm',
      lastLatitude: 52.37,
      lastLongitude: 4.9,
      batteryHealth: 'LOW_BATTERY',
      lastScannedUserId: userId,
    });
    expect(record.meanKineticTemp).toBeCloseTo(meanKineticTemperature(temps)!, 10);
    // The record call answers the last point's temperature (lists show it for every tag type).
    const fetched = await client.get(`${XT1}record/?record_id=${ref.record_id}`);
    expect(fetched.statusCode, fetched.body).toBe(200);
    expect(fetched.json().latest_temp).toBe(5);
    expect(record.firstPoint?.toISOString()).toBe(iso(start));
    expect(record.lastPoint?.toISOString()).toBe(iso(start + 7 * 60));
    expect(record.lastScanned?.toISOString()).toBe(iso(start + 8 * 60));
    expect(record.lastActionTaken?.toISOString()).toBe(iso(start + 8 * 60));
    expect(record.tempsLastUpdated).not.toBeNull();

    let alarms = await alarmsOf(t.db, record.id);
    expect(alarms.map((a) => [a.aboveOrBelow, a.firstPointIdx, a.lastPointIdx])).toEqual([
      ['ABOVE', 2, 4],
      ['BELOW', 6, 6],
    ]);
    expect(alarms[0]).toMatchObject({
      kind: 'excursion',
      duration: 180,
      degreeMinutes: 3,
      highestRecordedTemperature: 9,
      numberOfPoints: 3,
      state: 'OPEN',
    });
    expect(alarms[0]!.startTime?.toISOString()).toBe(iso(start + 120));

    const [scan] = await t.db.select().from(scans).where(eq(scans.recordId, record.id));
    expect(scan).toMatchObject({
      highestRecordedTemp: 9,
      lowestRecordedTemp: 1,
      latestTemp: 5,
      numberOfPoints: 8,
      excursionDurationAbove: 180,
      excursionDurationBelow: 60,
      status: 'Alarm',
      tempsOffsetIndex: 0,
      tempsLength: 8,
      createdByUserId: userId,
    });
    const samples = await t.db
      .select()
      .from(locationSamples)
      .where(eq(locationSamples.recordId, record.id));
    expect(samples).toHaveLength(1);

    // Shipment details.
    const shipment = await client.post(
      `${XT1}create-shipment-action/`,
      xt1Body(sn, {
        start_time_seconds: start,
        timestamp: iso(start + 9 * 60),
        primary_reference: 'PO-1',
        program_name: 'Vaccines',
        carrier: 'Cold Carrier',
        shipper_name_address_id: origin,
        receiver_name_address_id: destination,
      }),
    );
    expect(shipment.statusCode, shipment.body).toBe(200);
    record = await recordOf(t.db, ref.record_id);
    expect(record).toMatchObject({
      primaryReference: 'PO-1',
      programName: 'Vaccines',
      carrier: 'Cold Carrier',
      shipperLocationId: Number(origin),
      receiverLocationId: Number(destination),
    });

    // A threshold edit: the high alarm no longer holds (kept, closed; reason and signature).
    const updated = await client.post(`${XT1}update-shipment-action/`, {
      record_id: ref.record_id,
      high_threshold: 9.5,
      secondary_reference: 'LOT-7',
      timestamp: iso(start + 10 * 60),
      reason: 'Stability data allows 9.5 °C',
      password: TEST_PASSWORD,
      meaning: 'APPROVED',
    });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toEqual(ref);
    alarms = await alarmsOf(t.db, record.id);
    expect(alarms.map((a) => [a.aboveOrBelow, a.firstPointIdx, a.state])).toEqual([
      ['ABOVE', 2, 'CLOSED'],
      ['BELOW', 6, 'OPEN'],
    ]);
    const [update] = await t.db
      .select()
      .from(recordActions)
      .where(eq(recordActions.actionType, 'UPDATE_SHIPMENT'))
      .then((rows) => rows.filter((r) => r.recordId === record.id));
    expect(update!.changes).toEqual({
      secondary_reference: { old: '', new: 'LOT-7' },
      high_threshold: { old: 8, new: 9.5 },
    });

    // A trip edit narrows the evaluation window: the low alarm at point 6 falls outside.
    const trip = await client.post(`${XT1}records/trips/`, {
      record_id: ref.record_id,
      begin_time: iso(start),
      end_time: iso(start + 3 * 60),
      timestamp: iso(start + 11 * 60),
      reason: 'Loaded at 0:00, delivered at 0:03',
      password: TEST_PASSWORD,
      meaning: 'APPROVED',
    });
    expect(trip.statusCode, trip.body).toBe(200);
    expect(trip.json()).toEqual({
      record_id: ref.record_id,
      begin_time: iso(start),
      end_time: iso(start + 3 * 60),
      trip_status: 'ARRIVED',
    });
    record = await recordOf(t.db, ref.record_id);
    expect(record).toMatchObject({ tripManual: true, tripStatus: 'ARRIVED', status: 'OK' });
    alarms = await alarmsOf(t.db, record.id);
    expect(alarms.every((a) => a.state === 'CLOSED')).toBe(true);

    // Clearing the end: in transit again, the window runs to the last point. The record has
    // alarms: without a reason for change nothing is stored.
    const unreasoned = await client.post(`${XT1}records/trips/`, {
      record_id: ref.record_id,
      end_time: null,
    });
    expect(unreasoned.statusCode).toBe(400);
    expect(unreasoned.json()).toMatchObject({
      code: 'REASON_REQUIRED',
      fields: { reason: expect.any(String) },
    });
    expect((await recordOf(t.db, ref.record_id)).tripStatus).toBe('ARRIVED');
    const reopened = await client.post(`${XT1}records/trips/`, {
      record_id: ref.record_id,
      end_time: null,
      reason: 'Delivery not confirmed yet',
    });
    expect(reopened.json().trip_status).toBe('IN_TRANSIT');
    expect((await recordOf(t.db, ref.record_id)).status).toBe('Alarm');
    // The low excursion holds again: a new alarm beside the closed one, which stays closed.
    alarms = await alarmsOf(t.db, record.id);
    expect(alarms.map((a) => [a.aboveOrBelow, a.firstPointIdx, a.state])).toEqual([
      ['ABOVE', 2, 'CLOSED'],
      ['BELOW', 6, 'CLOSED'],
      ['BELOW', 6, 'OPEN'],
    ]);

    // Stop.
    const stopped = await client.post(
      `${XT1}stop-action/`,
      xt1Body(sn, {
        start_time_seconds: start,
        stop_time_seconds: start + 12 * 60,
        timestamp: iso(start + 12 * 60),
      }),
    );
    expect(stopped.statusCode, stopped.body).toBe(200);
    record = await recordOf(t.db, ref.record_id);
    expect(record).toMatchObject({ active: false, tagStatus: 'XT1_IDLE' });
    expect(record.stopTime?.toISOString()).toBe(iso(start + 12 * 60));
    expect((await tagBySerial(t.db, sn))!.running).toBe(false);
    expect(await countRows(t.db, record.id)).toEqual({ scans: 1, actions: 6 });
  });

  it('configure and create-shipment before the start make a pending record that the start takes', async () => {
    const { client } = await deviceUser(t, { role: 'Operator' });
    const sn = serial();
    const configured = await client.post(
      `${XT1}configure-action/`,
      xt1Body(sn, { high_threshold: 6, low_threshold: 1, measurement_interval: 300 }),
    );
    expect(configured.statusCode, configured.body).toBe(200);
    const pendingId = configured.json().record_id;
    let record = await recordOf(t.db, pendingId);
    expect(record).toMatchObject({
      startTimeSeconds: null,
      tagStatus: 'XT1_PENDING',
      highThreshold: 6,
      measurementInterval: 300,
    });
    expect((await tagBySerial(t.db, sn))!.configuration).toMatchObject({
      high_threshold: 6,
      measurement_interval: 300,
    });

    const shipment = await client.post(
      `${XT1}create-shipment-action/`,
      xt1Body(sn, { primary_reference: 'REF-9', high_threshold: 6, low_threshold: 1 }),
    );
    expect(shipment.json().record_id).toBe(pendingId);

    const start = epoch(new Date()) - HOUR;
    const started = await client.post(
      `${XT1}start-action/`,
      xt1Body(sn, { start_time_seconds: start, high_threshold: 7, measurement_interval: 300 }),
    );
    expect(started.json().record_id).toBe(pendingId);
    record = await recordOf(t.db, pendingId);
    expect(record).toMatchObject({
      startTimeSeconds: start,
      tagStatus: 'XT1_ACTIVE',
      primaryReference: 'REF-9',
      highThreshold: 7,
    });

    // A new start time is a new run: the earlier record ends.
    const restarted = await client.post(
      `${XT1}start-action/`,
      xt1Body(sn, { start_time_seconds: start + 600 }),
    );
    expect(restarted.json().record_id).not.toBe(pendingId);
    expect((await recordOf(t.db, pendingId)).active).toBe(false);
    expect((await tagBySerial(t.db, sn))!.lastRecordId).toBe(Number(restarted.json().record_id));
  });

  it('a replayed scan answers the same and changes nothing; merge keeps the first value', async () => {
    const { client } = await deviceUser(t, { role: 'Operator' });
    const sn = serial();
    const start = epoch(new Date()) - HOUR;
    const body = xt1Body(sn, { start_time_seconds: start, temps: [4, 4, 4] });
    const first = await client.post(`${XT1}scans/`, body);
    expect(first.statusCode).toBe(200);
    const before = await recordOf(t.db, first.json().record_id);
    const again = await client.post(`${XT1}scans/`, { ...body });
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    const after = await recordOf(t.db, first.json().record_id);
    expect(after).toEqual(before);
    expect(await countRows(t.db, before.id)).toEqual({ scans: 1, actions: 0 });

    // A later scan with one conflicting point: the stored value stays, new points are added.
    const later = await client.post(
      `${XT1}scans/`,
      xt1Body(sn, { start_time_seconds: start, temps: [4, 7, 4, 5] }),
    );
    expect(later.statusCode).toBe(200);
    expect(await readSeries(t.db, before.id)).toEqual([4, 4, 4, 5]);
  });

  it('takes 100,000 points in one upload (a body above the default 1 MiB limit)', async () => {
    const { client } = await deviceUser(t, { role: 'Operator' });
    const sn = serial();
    const temps = Array.from(
      { length: 100_000 },
      (_, i) => Math.round((5 + 3 * Math.sin(i / 500) + i / 1e7) * 1e9) / 1e9,
    );
    const body = xt1Body(sn, {
      start_time_seconds: epoch(new Date()) - 100_000 * 60,
      temps,
    });
    expect(JSON.stringify(body).length).toBeGreaterThan(1024 * 1024);
    const res = await client.post(`${XT1}scans/`, body);
    expect(res.statusCode, res.body).toBe(200);
    const record = await recordOf(t.db, res.json().record_id);
    expect(record.numberOfPoints).toBe(100_000);
    // Kept at the series' 4 decimals.
    expect(record.highestRecordedTemperature).toBeCloseTo(Math.max(...temps), STORED_DECIMALS);
    expect(record.status).toBe('Alarm');

    const tooLarge = await client.post(`${XT1}scans/`, {
      ...body,
      header_data: 'x'.repeat(9 * 1024 * 1024),
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().fields).toHaveProperty('body');
  });
});
