import type { TAuditEvent } from '@coldtrace/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../../test/helpers';
import { createTestApp, type TestApp } from '../../../test/helpers';
import {
  alarmsOf,
  deviceUser,
  epoch,
  iso,
  recordOf,
  recordSnapshot,
  serial,
  type TokenClient,
  xt1Body,
} from '../../../test/shipment-factories';
import type { RecordRow } from '../../db/schema-shipments';
import { scans } from '../../db/schema-shipments';
import { readSeries } from '../../kernel/series-store';
import { SET_ASIDE_ACTION, splitAtStop } from './after-stop';

/**
 * A record ends with its stop (issue 35, item 3): points timed after the
 * stop are not added to the stopped record and never evaluated; the upload
 * answers 200 with `set_aside` and the record's audit trail keeps them. Late
 * points before the stop still merge.
 */

const RT = '/api/devices/rt/';
const MINUTE = 60;
const STOP_MINUTE = 20;
const fill = (n: number, value: number) => Array.from({ length: n }, () => value);

/** The reply's `set_aside` for `count` points from `fromIndex` of a run (one a minute) started at `start`, stopped at minute 20. */
const setAsideOf = (start: number, count: number, fromIndex: number) => ({
  count,
  from_index: fromIndex,
  from_time: iso(start + fromIndex * MINUTE),
  stop_time: iso(start + STOP_MINUTE * MINUTE),
});

interface StoppedRun {
  device: TokenClient;
  client: TestClient;
  userId: string;
  sn: string;
  start: number;
  recordId: string;
}

describe('a record ends with its stop [RULE-SERIES-1]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** An rt run (one point a minute, thresholds 8 / 2) with `stored` packets, stopped at minute 20. */
  async function stoppedRtRun(stored: { offset: number; temps: number[] }[]): Promise<StoppedRun> {
    const { device, client, userId } = await deviceUser(t);
    const sn = serial('RT');
    const start = epoch(new Date()) - 2 * 3600;
    const ok = async (path: string, body: object) => {
      const res = await device.post(`${RT}${path}`, { tag_id: sn, ...body });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
      return res.json() as { record_id: string };
    };
    await ok('configure-action/', {
      measurement_interval: 60,
      high_threshold: 8,
      low_threshold: 2,
    });
    const { record_id: recordId } = await ok('start-action/', { start_time_seconds: start });
    for (const p of stored) {
      await ok('packets/', {
        start_time_seconds: start,
        temperatures_offset_index: p.offset,
        temps: p.temps,
      });
    }
    await ok('stop-action/', {
      start_time_seconds: start,
      stop_time_seconds: start + STOP_MINUTE * MINUTE,
    });
    expect(await recordOf(t.db, recordId)).toMatchObject({ active: false });
    return { device, client, userId, sn, start, recordId };
  }

  const packet = (run: StoppedRun, offset: number, temps: number[]) =>
    run.device.post(`${RT}packets/`, {
      tag_id: run.sn,
      start_time_seconds: run.start,
      temperatures_offset_index: offset,
      temps,
    });

  /** The record's set-aside entries, as the audit trail API shows them. */
  async function setAsideEntries(run: StoppedRun) {
    const res = await run.client.get(`/api/audit/?record_id=${run.recordId}&entity=record`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as TAuditEvent[]).filter((e) => e.action === SET_ASIDE_ACTION);
  }

  it('points after the stop (minutes 40-44 of a run stopped at 20) change nothing and are kept in the audit trail', async () => {
    const run = await stoppedRtRun([{ offset: 0, temps: fill(21, 5) }]);
    const before = await recordSnapshot(t.db, run.recordId);
    expect(before.summary).toMatchObject({
      numberOfPoints: 21,
      lastPoint: iso(run.start + STOP_MINUTE * MINUTE),
    });

    // Warm enough to raise an alarm, were they merged.
    const res = await packet(run, 40, fill(5, 12));
    expect(res.statusCode, res.body).toBe(200);
    const setAside = setAsideOf(run.start, 5, 40);
    expect(res.json()).toEqual({
      record_id: run.recordId,
      tag_id: expect.any(String),
      tag_serial_number: run.sn,
      set_aside: setAside,
    });

    const after = await recordSnapshot(t.db, run.recordId);
    expect(after.summary.numberOfPoints).toBe(before.summary.numberOfPoints);
    expect(after.summary.lastPoint).toBe(before.summary.lastPoint);
    expect(after.summary.recordDuration).toBe(before.summary.recordDuration);
    expect(after).toEqual(before);
    expect(await alarmsOf(t.db, run.recordId)).toEqual([]);

    const entries = await setAsideEntries(run);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor_user_id: run.userId,
      client_type: 'API',
      entity_type: 'record',
      entity_id: run.recordId,
      record_id: run.recordId,
      new_value: { upload: 'rt.packet', ...setAside, temps: fill(5, 12) },
      reason: expect.stringContaining("after the record's stop"),
    });

    // The device's retry: the same answer, nothing stored twice.
    const again = await packet(run, 40, fill(5, 12));
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(res.json());
    expect(await setAsideEntries(run)).toHaveLength(1);
    expect(await recordSnapshot(t.db, run.recordId)).toEqual(before);
  });

  it('a packet across the stop (minutes 15-25): 15-20 merge, 21-25 are set aside', async () => {
    const run = await stoppedRtRun([{ offset: 0, temps: fill(15, 5) }]);
    const res = await packet(run, 15, [...fill(6, 6), ...fill(5, 12)]);
    expect(res.statusCode, res.body).toBe(200);
    const setAside = setAsideOf(run.start, 5, 21);
    expect(res.json().set_aside).toEqual(setAside);

    expect(await readSeries(t.db, Number(run.recordId))).toEqual([...fill(15, 5), ...fill(6, 6)]);
    const record = await recordOf(t.db, run.recordId);
    expect(record).toMatchObject({
      numberOfPoints: 21,
      highestRecordedTemperature: 6,
      status: 'OK',
    });
    expect(record.lastPoint?.toISOString()).toBe(iso(run.start + STOP_MINUTE * MINUTE));
    expect(await alarmsOf(t.db, run.recordId)).toEqual([]);
    const entries = await setAsideEntries(run);
    expect(entries.map((e) => e.new_value)).toEqual([
      { upload: 'rt.packet', ...setAside, temps: fill(5, 12) },
    ]);
  });

  it('late points before the stop still merge, and nothing is set aside', async () => {
    const run = await stoppedRtRun([
      { offset: 0, temps: fill(5, 5) },
      { offset: 10, temps: fill(11, 5) },
    ]);
    expect((await recordOf(t.db, run.recordId)).numberOfPoints).toBe(16);
    const res = await packet(run, 5, fill(5, 9));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).not.toHaveProperty('set_aside');
    expect(await readSeries(t.db, Number(run.recordId))).toEqual([
      ...fill(5, 5),
      ...fill(5, 9),
      ...fill(11, 5),
    ]);
    expect(await recordOf(t.db, run.recordId)).toMatchObject({
      numberOfPoints: 21,
      status: 'Alarm',
    });
    expect(await alarmsOf(t.db, run.recordId)).toHaveLength(1);
    expect(await setAsideEntries(run)).toEqual([]);
  });

  it('nanotag: a frame across the stop merges up to the stop only', async () => {
    const { device, client, userId } = await deviceUser(t);
    const sn = serial('NANO');
    const firstSample = epoch(new Date()) - 2 * 3600;
    for (const [path, body] of [
      [
        '/api/devices/nanotag/generalized-data/',
        {
          high_threshold: 8,
          low_threshold: 2,
          measurement_interval: 60,
          start_delay: 0,
          num_consecutive_excursions: 1,
        },
      ],
      ['/api/devices/nanotag/first-sample-action/', { first_sample_timestamp: iso(firstSample) }],
      ['/api/devices/rt/stop-action/', { stop_time_seconds: firstSample + STOP_MINUTE * MINUTE }],
    ] as const) {
      const res = await device.post(path, { tag_id: sn, ...body });
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    }
    const frame = await device.post('/api/devices/nanotag/packets/', {
      tag_id: sn,
      temps: [...fill(21, 5), ...fill(5, 12)],
      packet_end_time_seconds: firstSample + 25 * MINUTE,
      frame_id: 'f25',
    });
    expect(frame.statusCode, frame.body).toBe(200);
    const recordId = frame.json().record_id as string;
    expect(frame.json().set_aside).toMatchObject({ count: 5, from_index: 21 });
    expect(await readSeries(t.db, Number(recordId))).toEqual(fill(21, 5));
    expect(await recordOf(t.db, recordId)).toMatchObject({ numberOfPoints: 21, status: 'OK' });
    const run = { client, recordId } as StoppedRun;
    const entries = await setAsideEntries(run);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor_user_id: userId,
      new_value: { upload: 'nanotag.packet', count: 5, from_index: 21, temps: fill(5, 12) },
    });
  });

  it('xt1: a stop carrying points past it, and a later scan of the whole log, keep the points up to the stop', async () => {
    const { client } = await deviceUser(t);
    const sn = serial('XT1');
    const start = epoch(new Date()) - 2 * 3600;
    const stopAt = start + STOP_MINUTE * MINUTE;
    const upload = (path: string, body: object) =>
      client.post(`/api/devices/xt1/${path}`, xt1Body(sn, { start_time_seconds: start, ...body }));
    const started = await upload('start-action/', { timestamp: iso(start) });
    expect(started.statusCode, started.body).toBe(200);
    const recordId = started.json().record_id as string;

    const stopBody = {
      timestamp: iso(stopAt + 30),
      stop_time_seconds: stopAt,
      temps: [...fill(21, 5), ...fill(5, 12)],
    };
    const stopped = await upload('stop-action/', stopBody);
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json().set_aside).toEqual(setAsideOf(start, 5, 21));
    // A replay of the action answers what the first one answered.
    expect((await upload('stop-action/', stopBody)).json()).toEqual(stopped.json());

    const scanned = await upload('scans/', {
      timestamp: iso(stopAt + 3600),
      stop_time_seconds: stopAt,
      temps: [...fill(21, 5), ...fill(10, 12)],
    });
    expect(scanned.statusCode, scanned.body).toBe(200);
    expect(scanned.json().set_aside).toMatchObject({ count: 10, from_index: 21 });

    expect(await readSeries(t.db, Number(recordId))).toEqual(fill(21, 5));
    expect(await recordOf(t.db, recordId)).toMatchObject({
      numberOfPoints: 21,
      highestRecordedTemperature: 5,
      status: 'OK',
    });
    expect(await alarmsOf(t.db, recordId)).toEqual([]);
    // The scan row describes the points of the record it carried.
    const [scan] = await t.db
      .select()
      .from(scans)
      .where(eq(scans.recordId, Number(recordId)));
    expect(scan).toMatchObject({
      tempsOffsetIndex: 0,
      tempsLength: 21,
      numberOfPoints: 21,
      highestRecordedTemp: 5,
    });
    const entries = await setAsideEntries({ client, recordId } as StoppedRun);
    expect(entries.map((e) => (e.new_value as { upload: string }).upload).sort()).toEqual([
      'xt1.SCAN',
      'xt1.STOP',
    ]);
  });
});

describe('splitAtStop [RULE-SERIES-1]', () => {
  const record = (over: Partial<RecordRow>) =>
    ({
      startTimeSeconds: 1_000_000,
      startDelay: 0,
      measurementInterval: 60,
      calculatedMeasurementInterval: null,
      stopTime: null,
      ...over,
    }) as RecordRow;
  const at = (seconds: number) => new Date(seconds * 1000);

  it('keeps everything of a record not stopped, or not started', () => {
    expect(splitAtStop(record({}), 'rt.packet', 5, [1, 2])).toEqual({
      kept: [1, 2],
      setAside: null,
    });
    const pending = record({ startTimeSeconds: null, stopTime: at(0) });
    expect(splitAtStop(pending, 'rt.packet', 0, [1])).toEqual({ kept: [1], setAside: null });
  });

  it('keeps a point taken at the stop itself, with a fractional interval too', () => {
    const r = record({ calculatedMeasurementInterval: 59.97, stopTime: at(1_000_000 + 3 * 59.97) });
    const { kept, setAside } = splitAtStop(r, 'rt.packet', 0, [1, 2, 3, 4, 5]);
    expect(kept).toEqual([1, 2, 3, 4]);
    expect(setAside).toMatchObject({ fromIndex: 4, count: 1, temps: [5] });
  });

  it('sets aside everything when the stop came before the first point; trailing gaps are no points', () => {
    const early = record({ startDelay: 600, stopTime: at(1_000_300) });
    expect(splitAtStop(early, 'rt.packet', 0, [1, 2]).setAside).toMatchObject({
      fromIndex: 0,
      count: 2,
    });
    const r = record({ stopTime: at(1_000_000 + 60) });
    expect(splitAtStop(r, 'rt.packet', 0, [1, 2, null, null])).toEqual({
      kept: [1, 2],
      setAside: null,
    });
    expect(splitAtStop(r, 'rt.packet', 1, [2, null, 7]).setAside).toMatchObject({
      fromIndex: 3,
      count: 1,
      temps: [7],
    });
  });
});
