import { ZRecordSeries, type TRecordSeries } from '@coldtrace/contract';
import type { SeriesValue } from '@coldtrace/domain';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roles } from '../../db/schema';
import type { RecordRow } from '../../db/schema-shipments';
import {
  createTestApp,
  type RoleName,
  type TestApp,
  type TestClient,
  type TestOrg,
} from '../../../test/helpers';
import { recordFactories, type RecordFactories } from '../../../test/record-factories';

/**
 * GET /api/devices/aggregate/record-series/ (issue 13): the compact series the
 * chart reads, reduced to the pixel columns it can show, a zoom window at full
 * resolution, organization-scoped (docs/decisions/compact-series.md).
 */
const URL = '/api/devices/aggregate/record-series/';
/** 2025-03-05T09:00:00Z. */
const START = 1_741_165_200;

describe('GET aggregate/record-series/ [FEAT-COMPACT-SERIES]', () => {
  let t: TestApp;
  let f: RecordFactories;
  let orgA: TestOrg;
  let admin: TestClient;
  let viewer: TestClient;
  let bClient: TestClient;
  /** Short, with gaps; start delay 60 s and a calculated interval of 300 s (measurement interval 600 s). */
  let short: RecordRow;
  /** 10,000 points (one per minute), a sine between 4 and 6 °C, an excursion above 8 °C and a gap. */
  let long: RecordRow;
  let longTemps: SeriesValue[];
  /** No start time yet. */
  let unstarted: RecordRow;
  let other: RecordRow;

  beforeAll(async () => {
    t = await createTestApp();
    f = recordFactories(t.db);
    orgA = await t.createOrg('Series A');
    const orgB = await t.createOrg('Series B');
    ({ client: admin } = await t.signIn({ role: 'Administrator', orgs: [orgA] }));
    ({ client: viewer } = await t.signIn({ role: 'Viewer', orgs: [orgA] }));
    ({ client: bClient } = await t.signIn({ role: 'Administrator', orgs: [orgB] }));
    short = await f.record(orgA, undefined, {
      startTimeSeconds: START,
      startDelay: 60,
      measurementInterval: 600,
      calculatedMeasurementInterval: 300,
      highThreshold: 8,
      lowThreshold: 2,
      cumulativeHighThreshold: 10,
      tripBeginTime: new Date('2025-03-05T10:00:00Z'),
    });
    await f.series(short, 0, [4, 5.5, null, 9.25, null, null, 3.1234]);
    long = await f.record(orgA, undefined, {
      startTimeSeconds: START,
      measurementInterval: 60,
      highThreshold: 8,
      lowThreshold: 2,
    });
    longTemps = Array.from(
      { length: 10_000 },
      (_, i) => Math.round((5 + Math.sin(i / 300)) * 100) / 100,
    );
    for (let i = 5000; i < 5020; i++) longTemps[i] = 8.5 + (i % 3) / 10;
    longTemps[7000] = null;
    longTemps[7001] = null;
    longTemps[9999] = 1.5;
    await f.series(long, 0, longTemps);
    unstarted = await f.record(orgA, undefined, { startTimeSeconds: null });
    await f.series(unstarted, 0, [5, 6]);
    other = await f.record(orgB, undefined, {});
    await f.series(other, 0, [5, 6]);
  });
  afterAll(() => t.close());

  const series = async (query: string, client: TestClient = admin): Promise<TRecordSeries> => {
    const res = await client.get(`${URL}?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return ZRecordSeries.strict().parse(res.json());
  };

  it('answers the timing once and the temperatures as numbers, gaps as null', async () => {
    const body = await series(`record_id=${short.id}`, viewer);
    expect(body).toEqual({
      record_id: String(short.id),
      start_time: '2025-03-05T09:00:00.000Z',
      // Start time plus start delay; the calculated interval wins over the measurement interval.
      first_point_time: '2025-03-05T09:01:00.000Z',
      interval_seconds: 300,
      length: 7,
      point_count: 4,
      from_index: 0,
      to_index: 6,
      reduced: false,
      bucket_size: 1,
      temperatures: [4, 5.5, null, 9.25, null, null, 3.1234],
      high_threshold: 8,
      low_threshold: 2,
      cumulative_high_threshold: 10,
      cumulative_low_threshold: null,
      trip_begin_time: '2025-03-05T10:00:00.000Z',
      trip_end_time: null,
    });
    // A short series with a width is the same, unreduced.
    expect(await series(`record_id=${short.id}&width=100`)).toEqual(body);
  });

  it('answers no times for a record not started, and an empty series for one without points', async () => {
    const body = await series(`record_id=${unstarted.id}`);
    expect(body).toMatchObject({ start_time: null, first_point_time: null, temperatures: [5, 6] });
    const empty = await f.record(orgA);
    expect(await series(`record_id=${empty.id}&width=500`)).toMatchObject({
      length: 0,
      point_count: 0,
      temperatures: [],
      reduced: false,
    });
  });

  it('reduces a long series to min and max per column, excursions and gaps kept, each at its index', async () => {
    const body = await series(`record_id=${long.id}&width=400`);
    expect(body).toMatchObject({
      reduced: true,
      bucket_size: 25,
      length: 10_000,
      point_count: 9998,
    });
    const indices = body.indices!;
    expect(indices).toHaveLength(body.temperatures.length);
    // At most 2 per column, a gap marker and the excursion points (20 above, 1 below).
    expect(body.temperatures.length).toBeLessThanOrEqual(2 * 400 + 1 + 21);
    expect(body.temperatures.length).toBeGreaterThan(400);
    indices.forEach((at, k) => expect(body.temperatures[k]).toBe(longTemps[at]));
    for (let i = 5000; i < 5020; i++) expect(indices).toContain(i);
    expect(body.temperatures[indices.indexOf(7000)]).toBeNull();
    expect(body.temperatures[indices.indexOf(9999)]).toBe(1.5);
    const values = body.temperatures.filter((v): v is number => v !== null);
    const stored = longTemps.filter((v): v is number => v !== null);
    expect(Math.max(...values)).toBe(Math.max(...stored));
    expect(Math.min(...values)).toBe(Math.min(...stored));
    // Without width: every point.
    const full = await series(`record_id=${long.id}`);
    expect(full).toMatchObject({ reduced: false, bucket_size: 1, to_index: 9999 });
    expect(full.indices).toBeUndefined();
    expect(full.temperatures).toEqual(longTemps);
  });

  it('answers a zoom window at full resolution, with one neighbour either side', async () => {
    // Points 5000..5099 are at START + i * 60 s.
    const from = new Date((START + 5000 * 60) * 1000).toISOString();
    const to = new Date((START + 5099 * 60 + 30) * 1000).toISOString();
    const body = await series(`record_id=${long.id}&width=400&from=${from}&to=${to}`);
    expect(body).toMatchObject({
      reduced: false,
      bucket_size: 1,
      from_index: 4999,
      to_index: 5100,
      length: 10_000,
      first_point_time: '2025-03-05T09:00:00.000Z',
    });
    expect(body.temperatures).toEqual(longTemps.slice(4999, 5101));
    expect(body.point_count).toBe(102);
    // A wider window is reduced over its own points only.
    const wide = await series(
      `record_id=${long.id}&width=100&from=${new Date((START + 6000 * 60) * 1000).toISOString()}`,
    );
    expect(wide).toMatchObject({
      reduced: true,
      from_index: 5999,
      to_index: 9999,
      bucket_size: 41,
    });
    expect(wide.indices![0]).toBeGreaterThanOrEqual(5999);
    expect(wide.temperatures[wide.indices!.indexOf(7000)]).toBeNull();
    // A window after the last point is empty.
    const after = await series(`record_id=${long.id}&from=2026-01-01`);
    expect(after).toMatchObject({ temperatures: [], from_index: 10_000, to_index: 9999 });
  });

  it('answers 404 for an unknown id and for another organization’s record', async () => {
    for (const id of [String(other.id), '999999999', 'nope']) {
      const res = await admin.get(`${URL}?record_id=${id}&width=400`);
      expect(res.statusCode, id).toBe(404);
      expect(res.json().fields.record_id).toBe(`Record '${id}' not found`);
    }
    // The other organization reads its own.
    expect((await bClient.get(`${URL}?record_id=${other.id}`)).statusCode).toBe(200);
    expect((await bClient.get(`${URL}?record_id=${long.id}`)).statusCode).toBe(404);
  });

  it('answers 400 naming the field for a bad width, from or to', async () => {
    const cases: [string, string][] = [
      ['width=99', 'width'],
      ['width=4001', 'width'],
      ['width=wide', 'width'],
      ['from=yesterday', 'from'],
      ['to=2025-13-01', 'to'],
      ['from=2025-03-06&to=2025-03-05', 'to'],
      ['from=2025-03-05T10:00:01Z&to=2025-03-05T10:00:00Z', 'to'],
      ['record_id=', 'record_id'],
    ];
    for (const [query, field] of cases) {
      const res = await admin.get(
        `${URL}?${query}${query.startsWith('record') ? '' : `&record_id=${long.id}`}`.replace(
          '?&',
          '?',
        ),
      );
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), query).toContain(field);
    }
    // A window needs the points' times.
    const res = await admin.get(`${URL}?record_id=${unstarted.id}&from=2025-03-05`);
    expect(res.statusCode).toBe(400);
    expect(res.json().fields.from).toMatch(/no start time/);
  });

  it('answers what is stored now: a write after a read is in the next reply', async () => {
    const growing = await f.record(orgA, undefined, { startTimeSeconds: START, highThreshold: 8 });
    await f.series(growing, 0, longTemps.slice(0, 1000));
    const url = `record_id=${growing.id}&width=100`;
    const before = await series(url);
    expect(await series(url)).toEqual(before);
    expect(before).toMatchObject({ length: 1000, point_count: 1000, reduced: true });
    // A gap filled and points appended (a late packet, then a new one).
    await f.series(growing, 1000, [9.5, null, 6]);
    await f.series(growing, 1001, [7]);
    const after = await series(url);
    expect(after).toMatchObject({ length: 1003, point_count: 1003 });
    expect(after.temperatures[after.indices!.indexOf(1000)]).toBe(9.5);
    expect(after.indices).toContain(1001);
    // A threshold edit changes which points are excursions kept exactly.
    await t.db.execute(sql`update records set high_threshold = 5.9 where id = ${growing.id}`);
    const edited = await series(url);
    const above = longTemps.slice(0, 1000).filter((v) => v !== null && v > 5.9).length;
    expect(edited.temperatures.filter((v) => v !== null && v > 5.9).length).toBeGreaterThanOrEqual(
      above,
    );
  });

  it('answers 401 without a session and 403 without sysDataRead', async () => {
    expect((await t.client().get(`${URL}?record_id=${long.id}`)).statusCode).toBe(401);
    await t.db.insert(roles).values({
      name: 'SeriesNotified',
      permissionNames: ['notifyReceive'],
      organizationId: orgA.id,
    });
    const { client } = await t.signIn({ role: 'SeriesNotified' as RoleName, orgs: [orgA] });
    const res = await client.get(`${URL}?record_id=${long.id}`);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
  });
});
