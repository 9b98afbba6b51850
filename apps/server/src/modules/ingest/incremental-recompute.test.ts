import fc from 'fast-check';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { temperatureSummary } from '@coldtrace/domain';
import { createTestApp, TEST_PASSWORD, type TestApp } from '../../../test/helpers';
import { reevaluateRecord } from '../../../test/recompute';
import {
  alarmsOf,
  deviceUser,
  epoch,
  recordOf,
  serial,
  type DeviceUser,
} from '../../../test/shipment-factories';
import { recordAggregates } from '../../db/schema-aggregates';
import { readSeries } from '../../kernel/series-store';
import { seriesOf } from './record-series';

/**
 * Incremental recompute (issue 13, docs/decisions/incremental-recompute.md)
 * through real uploads: random sequences of rt packets (appended, late,
 * duplicate, with gaps, values on both sides of both thresholds) and
 * threshold edits, sent over HTTP to one record. After every upload the
 * stored record and its alarms are what a full recompute of the same series
 * makes of them (the full recompute changes nothing), and the summary is
 * what the domain's temperatureSummary finds in the stored series.
 */

const RT = '/api/devices/rt/';
const XT1 = '/api/devices/xt1/';

type Step =
  | { kind: 'packet'; offset: number; temps: number[] }
  | { kind: 'append'; gap: number; temps: number[] }
  | { kind: 'edit'; high: number };

const temperature = fc.constantFrom(1, 1.5, 3, 5, 8, 8.5, 9, 12);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('packet' as const),
      offset: fc.integer({ min: 0, max: 30 }),
      temps: fc.array(temperature, { minLength: 1, maxLength: 8 }),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('append' as const),
      gap: fc.constantFrom(0, 0, 0, 1, 3),
      temps: fc.array(temperature, { minLength: 1, maxLength: 8 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('edit' as const), high: fc.constantFrom(7, 8, 10) }),
  },
);

describe('incremental recompute through uploads [FEAT-INCREMENTAL-RECOMPUTE, RULE-ALARM-1]', () => {
  let t: TestApp;
  let user: DeviceUser;
  beforeAll(async () => {
    t = await createTestApp();
    user = await deviceUser(t);
  });
  afterAll(() => t.close());

  it('after every packet or edit, the stored record and alarms are what a full recompute makes of them', async () => {
    let runs = 0;
    let appended = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3 }),
        fc.array(step, { minLength: 2, maxLength: 9 }),
        async (consecutive, steps) => {
          runs++;
          const sn = serial('RTINC');
          const start = epoch(new Date()) - 6 * 3600;
          const configured = await user.device.post(`${RT}configure-action/`, {
            tag_id: sn,
            high_threshold: 8,
            low_threshold: 2,
            num_consecutive_excursions: consecutive,
            measurement_interval: 60,
          });
          expect(configured.statusCode, configured.body).toBe(200);
          const recordId = configured.json().record_id as string;
          const started = await user.device.post(`${RT}start-action/`, {
            tag_id: sn,
            start_time_seconds: start,
          });
          expect(started.statusCode, started.body).toBe(200);

          let length = 0;
          for (const s of steps) {
            if (s.kind === 'edit') {
              const res = await user.client.post(`${XT1}update-shipment-action/`, {
                record_id: recordId,
                high_threshold: s.high,
                reason: `Product allows ${s.high} °C`,
                password: TEST_PASSWORD,
                meaning: 'APPROVED',
              });
              expect(res.statusCode, res.body).toBe(200);
            } else {
              const offset = s.kind === 'append' ? length + s.gap : s.offset;
              const res = await user.device.post(`${RT}packets/`, {
                tag_id: sn,
                start_time_seconds: start,
                temperatures_offset_index: offset,
                temps: s.temps,
              });
              expect(res.statusCode, res.body).toBe(200);
              const series = await readSeries(t.db, Number(recordId));
              if (s.kind === 'append' && offset >= length) appended++;
              length = series.length;
            }

            const record = await recordOf(t.db, recordId);
            const alarms = await alarmsOf(t.db, recordId);
            const [stored] = await t.db
              .select()
              .from(recordAggregates)
              .where(eq(recordAggregates.recordId, Number(recordId)));
            expect(stored).toBeDefined();

            // The summary is the domain's over the stored series.
            const summary = temperatureSummary(
              seriesOf(record, await readSeries(t.db, Number(recordId))),
            );
            expect(record).toMatchObject({
              numberOfPoints: summary.number_of_points,
              highestRecordedTemperature: summary.highest_recorded_temperature,
              lowestRecordedTemperature: summary.lowest_recorded_temperature,
              recordDuration: summary.record_duration,
              seriesLength: length,
            });
            if (summary.mean_kinetic_temp === null) expect(record.meanKineticTemp).toBeNull();
            else expect(record.meanKineticTemp! - summary.mean_kinetic_temp).toBeCloseTo(0, 9);

            // A full recompute of the same series changes nothing.
            const full = await reevaluateRecord(t.db, user.org.id, Number(recordId), null);
            expect(full).toEqual(record);
            expect(await recordOf(t.db, recordId)).toEqual(record);
            expect(await alarmsOf(t.db, recordId)).toEqual(alarms);
            // ...nor the running aggregates: the folds gave bit for bit the full fold.
            const [refolded] = await t.db
              .select()
              .from(recordAggregates)
              .where(eq(recordAggregates.recordId, Number(recordId)));
            expect(refolded).toEqual(stored);
          }
        },
      ),
      { numRuns: 30 },
    );
    expect(runs).toBe(30);
    // The sequences did exercise the incremental path.
    expect(appended).toBeGreaterThan(30);
  }, 240_000);

  it('a late packet past a chunk boundary folds again from the checkpoint before it; one before every checkpoint recomputes the whole series', async () => {
    const sn = serial('RTLATE');
    const start = epoch(new Date()) - 3 * 86_400;
    await user.device.post(`${RT}configure-action/`, {
      tag_id: sn,
      high_threshold: 8,
      low_threshold: 2,
      num_consecutive_excursions: 3,
      measurement_interval: 60,
    });
    const started = await user.device.post(`${RT}start-action/`, {
      tag_id: sn,
      start_time_seconds: start,
    });
    const recordId = started.json().record_id as string;
    // 2,400 points: warm from 1,480 to 1,580 and from 2,300 on, cold at 90-200.
    const value = (i: number) =>
      (i >= 1480 && i < 1580) || i >= 2300 ? 9 : i >= 90 && i < 200 ? 1 : 5;
    const send = async (from: number, to: number) => {
      if (from === to) return;
      const res = await user.device.post(`${RT}packets/`, {
        tag_id: sn,
        start_time_seconds: start,
        temperatures_offset_index: from,
        temps: Array.from({ length: to - from }, (_, k) => value(from + k)),
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const unchangedByFullRecompute = async () => {
      const record = await recordOf(t.db, recordId);
      const alarms = await alarmsOf(t.db, recordId);
      const aggregates = await t.db
        .select()
        .from(recordAggregates)
        .where(eq(recordAggregates.recordId, Number(recordId)));
      await reevaluateRecord(t.db, user.org.id, Number(recordId), null);
      expect(await recordOf(t.db, recordId)).toEqual(record);
      expect(await alarmsOf(t.db, recordId)).toEqual(alarms);
      expect(
        await t.db
          .select()
          .from(recordAggregates)
          .where(eq(recordAggregates.recordId, Number(recordId))),
      ).toEqual(aggregates);
      return { record, alarms };
    };
    // Everything but 100-160 and 1,500-1,560, in packets of 300.
    for (let from = 0; from < 2400; from += 300) {
      const to = from + 300;
      const holes = [
        [100, 160],
        [1500, 1560],
      ].filter(([a, b]) => a! >= from && b! <= to);
      let at = from;
      for (const [a, b] of holes) {
        await send(at, a!);
        at = b!;
      }
      await send(at, to);
    }
    let state = await unchangedByFullRecompute();
    expect(state.record.numberOfPoints).toBe(2400 - 120);
    // Two warm runs around the hole, then one: the late packet joins them.
    const warm = (alarms: typeof state.alarms) =>
      alarms.filter((a) => a.aboveOrBelow === 'ABOVE' && a.kind === 'excursion');
    expect(warm(state.alarms).map((a) => [a.firstPointIdx, a.state])).toEqual([
      [1480, 'OPEN'],
      [1560, 'OPEN'],
      [2300, 'OPEN'],
    ]);
    await send(1500, 1560);
    state = await unchangedByFullRecompute();
    expect(warm(state.alarms).map((a) => [a.firstPointIdx, a.lastPointIdx, a.state])).toEqual([
      [1480, 1579, 'OPEN'],
      [1560, 1579, 'CLOSED'],
      [2300, 2399, 'OPEN'],
    ]);
    // Before both checkpoints (1,024 and 2,048): the whole series.
    await send(100, 160);
    state = await unchangedByFullRecompute();
    expect(state.record.numberOfPoints).toBe(2400);
    expect(
      state.alarms
        .filter((a) => a.aboveOrBelow === 'BELOW' && a.state === 'OPEN')
        .map((a) => [a.firstPointIdx, a.lastPointIdx]),
    ).toEqual([[90, 199]]);
  }, 120_000);
});
