import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  alarmKey,
  computedStatus,
  detectExcursions,
  reconcileAlarms,
  recordStatus,
  timeBeyond,
  type AlarmThresholds,
  type DetectedAlarm,
} from './excursions';
import { wholeSeries, type IndexWindow } from './evaluation-window';
import { pointTime, type Series, type SeriesValue } from './series';

/*
 * Worked example: 10-minute points from 1_000_000, high 8 °C, low 2 °C.
 *
 *   idx   0    1    2     3   4     5    6    7     8    9    10   11
 *   T     5    9    10.5  8   gap   8.5  9    gap   1    0.5  2    1.5
 *   time  +0   +600 +1200 ...                        +4800     +6000 +6600
 *
 * ABOVE runs (strictly above 8): [1, 2] (8 at idx 3 is not above), [5, 6] (the gap
 *   at idx 4 splits them).
 *   [1, 2]: duration 2 x 600 = 1200 s; degree-minutes (1 + 2.5) x 10 min = 35.
 *   [5, 6]: 1200 s; (0.5 + 1) x 10 = 15.
 * BELOW runs (strictly below 2): [8, 9] (2 at idx 10 is not below), [11].
 *   [8, 9]: 1200 s; (1 + 1.5) x 10 = 25.   [11]: 600 s; 0.5 x 10 = 5.
 */
const T0 = 1_000_000;
const series: Series = {
  startTimeSeconds: T0 - 60,
  startDelay: 60,
  intervalSeconds: 600,
  temps: [5, 9, 10.5, 8, null, 8.5, 9, null, 1, 0.5, 2, 1.5],
};
const thresholds: AlarmThresholds = { high_threshold: 8, low_threshold: 2 };

function excursion(
  direction: 'ABOVE' | 'BELOW',
  first: number,
  last: number,
  degreeMinutes: number,
  highest: number,
  lowest: number,
): DetectedAlarm {
  const points = last - first + 1;
  return {
    kind: 'excursion',
    above_or_below: direction,
    first_point_idx: first,
    last_point_idx: last,
    start_time: T0 + first * 600,
    end_time: T0 + last * 600,
    duration: points * 600,
    degree_minutes: degreeMinutes,
    highest_recorded_temperature: highest,
    lowest_recorded_temperature: lowest,
    high_threshold: 8,
    low_threshold: 2,
    threshold: direction === 'ABOVE' ? 8 : 2,
    number_of_points: points,
  };
}

describe('detectExcursions (worked example) [RULE-ALARM-4]', () => {
  it('finds every run, split by gaps and by points at the threshold', () => {
    expect(detectExcursions(series, thresholds)).toEqual([
      excursion('ABOVE', 1, 2, 35, 10.5, 9),
      excursion('ABOVE', 5, 6, 15, 9, 8.5),
      excursion('BELOW', 8, 9, 25, 1, 0.5),
      excursion('BELOW', 11, 11, 5, 1.5, 1.5),
    ]);
  });

  it('needs num_consecutive_excursions points in a run', () => {
    expect(detectExcursions(series, { ...thresholds, num_consecutive_excursions: 2 })).toEqual([
      excursion('ABOVE', 1, 2, 35, 10.5, 9),
      excursion('ABOVE', 5, 6, 15, 9, 8.5),
      excursion('BELOW', 8, 9, 25, 1, 0.5),
    ]);
    expect(detectExcursions(series, { ...thresholds, num_consecutive_excursions: 3 })).toEqual([]);
    // Absent, null, 0 or negative: the default, 1.
    for (const n of [undefined, null, 0, -2]) {
      expect(
        detectExcursions(series, { ...thresholds, num_consecutive_excursions: n }),
      ).toHaveLength(4);
    }
  });

  it('looks only inside the evaluation window, clipping runs at its edges', () => {
    expect(detectExcursions(series, thresholds, { firstIdx: 2, lastIdx: 8 })).toEqual([
      excursion('ABOVE', 2, 2, 25, 10.5, 10.5),
      excursion('ABOVE', 5, 6, 15, 9, 8.5),
      excursion('BELOW', 8, 8, 10, 1, 1),
    ]);
    expect(detectExcursions(series, thresholds, null)).toEqual([]);
  });

  it('raises nothing for a direction without a threshold', () => {
    expect(detectExcursions(series, { low_threshold: 2 }).map((a) => a.above_or_below)).toEqual([
      'BELOW',
      'BELOW',
    ]);
    expect(detectExcursions(series, { high_threshold: null, low_threshold: null })).toEqual([]);
    expect(detectExcursions(series, {})).toEqual([]);
  });

  it('splits a run in two when the threshold is raised past a point in the middle', () => {
    const s: Series = {
      startTimeSeconds: 0,
      startDelay: 0,
      intervalSeconds: 60,
      temps: [9, 7.5, 9],
    };
    expect(
      detectExcursions(s, { high_threshold: 7 }).map((a) => [a.first_point_idx, a.last_point_idx]),
    ).toEqual([[0, 2]]);
    expect(
      detectExcursions(s, { high_threshold: 8 }).map((a) => [a.first_point_idx, a.last_point_idx]),
    ).toEqual([
      [0, 0],
      [2, 2],
    ]);
  });
});

describe('detectExcursions (cumulative, worked example) [RULE-ALARM-5]', () => {
  /*
   * Above 8.75: idx 1 (9), 2 (10.5), 6 (9): 3 points = 1800 s, not consecutive.
   * Degree-minutes (0.25 + 1.75 + 0.25) x 10 = 22.5.
   * Below 1.25: idx 8 (1), 9 (0.5): 1200 s; (0.25 + 0.75) x 10 = 10.
   */
  const cumulativeHigh: DetectedAlarm = {
    kind: 'cumulative',
    above_or_below: 'ABOVE',
    first_point_idx: 1,
    last_point_idx: 6,
    start_time: T0 + 600,
    end_time: T0 + 3600,
    duration: 1800,
    degree_minutes: 22.5,
    highest_recorded_temperature: 10.5,
    lowest_recorded_temperature: 9,
    high_threshold: 8.75,
    low_threshold: 1.25,
    threshold: 8.75,
    number_of_points: 3,
  };
  const cumulativeLow: DetectedAlarm = {
    kind: 'cumulative',
    above_or_below: 'BELOW',
    first_point_idx: 8,
    last_point_idx: 9,
    start_time: T0 + 4800,
    end_time: T0 + 5400,
    duration: 1200,
    degree_minutes: 10,
    highest_recorded_temperature: 1,
    lowest_recorded_temperature: 0.5,
    high_threshold: 8.75,
    low_threshold: 1.25,
    threshold: 1.25,
    number_of_points: 2,
  };
  const cumulative = (high: string | null, low: string | null): AlarmThresholds => ({
    cumulative_high_threshold: 8.75,
    cumulative_low_threshold: 1.25,
    cumulative_duration_high: high,
    cumulative_duration_low: low,
  });

  it('raises an alarm when the total time exceeds the allowed duration', () => {
    expect(detectExcursions(series, cumulative('00:29:59', '00:00:00'))).toEqual([
      cumulativeHigh,
      cumulativeLow,
    ]);
  });

  it('raises nothing when the total time only reaches the allowed duration', () => {
    expect(detectExcursions(series, cumulative('00:30:00', '00:20:00'))).toEqual([]);
    expect(detectExcursions(series, cumulative('1 00:00:00', null))).toEqual([]);
  });

  it('raises nothing for an unreadable duration or a missing threshold', () => {
    expect(detectExcursions(series, cumulative('ten minutes', '-00:01:00'))).toEqual([]);
    expect(
      detectExcursions(series, {
        cumulative_duration_high: '00:00:00',
        cumulative_high_threshold: null,
      }),
    ).toEqual([]);
  });

  it('counts only the points inside the window', () => {
    // Window [3, 9]: above 8.75 only idx 6 (600 s); below 1.25 idx 8 and 9.
    const alarms = detectExcursions(series, cumulative('00:10:00', '00:10:00'), {
      firstIdx: 3,
      lastIdx: 9,
    });
    expect(alarms).toEqual([cumulativeLow]);
  });

  it('sits next to the excursion alarms, ordered by first point', () => {
    const alarms = detectExcursions(series, { ...thresholds, ...cumulative('00:00:00', null) });
    expect(alarms.map(alarmKey)).toEqual([
      'ABOVE:excursion:1',
      'ABOVE:cumulative:1',
      'ABOVE:excursion:5',
      'BELOW:excursion:8',
      'BELOW:excursion:11',
    ]);
    // The excursion alarms keep the record thresholds, the cumulative one its own.
    expect(alarms[0]?.high_threshold).toBe(8);
    expect(alarms[1]?.high_threshold).toBe(8.75);
  });

  it('timeBeyond totals the time past a threshold', () => {
    expect(timeBeyond(series, 8.75, 'ABOVE')).toBe(1800);
    expect(timeBeyond(series, 8, 'ABOVE')).toBe(2400);
    expect(timeBeyond(series, 2, 'BELOW')).toBe(1800);
    expect(timeBeyond(series, 8, 'ABOVE', { firstIdx: 3, lastIdx: 5 })).toBe(600);
    expect(timeBeyond(series, null, 'ABOVE')).toBe(0);
  });
});

// ---------------------------------------------------------------------------
// Properties

const value: fc.Arbitrary<SeriesValue> = fc.option(
  fc.integer({ min: -100, max: 150 }).map((t) => t / 10),
  { nil: null, freq: 8 },
);
const anySeries: fc.Arbitrary<Series> = fc.record({
  startTimeSeconds: fc.integer({ min: 1_500_000_000, max: 1_900_000_000 }),
  startDelay: fc.integer({ min: 0, max: 3600 }),
  intervalSeconds: fc.integer({ min: 1, max: 3600 }),
  temps: fc.array(value, { maxLength: 80 }),
});
const threshold = fc.integer({ min: -100, max: 150 }).map((t) => t / 10);
const hhmmss = (seconds: number): string => {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${two(Math.floor(seconds / 3600))}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}`;
};
const anyThresholds: fc.Arbitrary<AlarmThresholds> = fc.record({
  high_threshold: fc.option(threshold, { nil: null }),
  low_threshold: fc.option(threshold, { nil: null }),
  num_consecutive_excursions: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  cumulative_high_threshold: fc.option(threshold, { nil: null }),
  cumulative_low_threshold: fc.option(threshold, { nil: null }),
  cumulative_duration_high: fc.option(fc.nat(200_000).map(hhmmss), { nil: null }),
  cumulative_duration_low: fc.option(fc.nat(200_000).map(hhmmss), { nil: null }),
});
const seriesAndWindow = anySeries.chain((s) =>
  fc
    .oneof(
      fc.constant(wholeSeries(s)),
      fc
        .tuple(fc.integer({ min: -2, max: 85 }), fc.integer({ min: -2, max: 85 }))
        .map(([a, b]): IndexWindow => ({ firstIdx: Math.min(a, b), lastIdx: Math.max(a, b) })),
    )
    .map((window) => ({ s, window })),
);

function beyond(t: SeriesValue | undefined, th: number, direction: 'ABOVE' | 'BELOW'): boolean {
  if (t == null) return false;
  return direction === 'ABOVE' ? t > th : t < th;
}

const excursionsOf = (alarms: DetectedAlarm[], direction: 'ABOVE' | 'BELOW'): DetectedAlarm[] =>
  alarms.filter((a) => a.kind === 'excursion' && a.above_or_below === direction);

const totalDuration = (alarms: DetectedAlarm[]): number =>
  alarms.reduce((sum, a) => sum + a.duration, 0);

describe('detectExcursions (properties) [RULE-ALARM-4]', () => {
  it('alarms are maximal runs of enough points beyond the threshold, inside the window', () => {
    fc.assert(
      fc.property(seriesAndWindow, anyThresholds, ({ s, window }, th) => {
        const alarms = detectExcursions(s, th, window);
        const required = th.num_consecutive_excursions ?? 1;
        for (const direction of ['ABOVE', 'BELOW'] as const) {
          const limit = direction === 'ABOVE' ? th.high_threshold : th.low_threshold;
          for (const a of excursionsOf(alarms, direction)) {
            if (limit == null || window === null)
              throw new Error('alarm without threshold or window');
            expect(a.first_point_idx).toBeGreaterThanOrEqual(Math.max(0, window.firstIdx));
            expect(a.last_point_idx).toBeLessThanOrEqual(window.lastIdx);
            expect(a.number_of_points).toBe(a.last_point_idx - a.first_point_idx + 1);
            expect(a.number_of_points).toBeGreaterThanOrEqual(required);
            expect(a.duration).toBe(a.number_of_points * s.intervalSeconds);
            expect(a.start_time).toBe(pointTime(s, a.first_point_idx));
            expect(a.end_time).toBe(pointTime(s, a.last_point_idx));
            const run = s.temps.slice(a.first_point_idx, a.last_point_idx + 1);
            // Every point of the alarm is recorded and strictly beyond the threshold.
            for (const t of run) expect(beyond(t, limit, direction)).toBe(true);
            // The run cannot be extended inside the window.
            if (a.first_point_idx > window.firstIdx) {
              expect(beyond(s.temps[a.first_point_idx - 1], limit, direction)).toBe(false);
            }
            if (a.last_point_idx < window.lastIdx) {
              expect(beyond(s.temps[a.last_point_idx + 1], limit, direction)).toBe(false);
            }
            const values = run.filter((t): t is number => t !== null);
            expect(a.highest_recorded_temperature).toBe(Math.max(...values));
            expect(a.lowest_recorded_temperature).toBe(Math.min(...values));
            const excess = values.reduce((sum, t) => sum + Math.abs(t - limit), 0);
            expect(a.degree_minutes).toBeCloseTo((excess * s.intervalSeconds) / 60, 6);
          }
        }
      }),
    );
  });

  it('every run of enough points beyond a threshold is alarmed', () => {
    fc.assert(
      fc.property(anySeries, threshold, fc.integer({ min: 1, max: 4 }), (s, high, n) => {
        const covered = new Set<number>();
        for (const a of detectExcursions(s, {
          high_threshold: high,
          num_consecutive_excursions: n,
        })) {
          for (let i = a.first_point_idx; i <= a.last_point_idx; i++) covered.add(i);
        }
        let runStart = 0;
        s.temps.forEach((t, i) => {
          if (!beyond(t, high, 'ABOVE')) {
            runStart = i + 1;
            return;
          }
          // i is in a run that started at runStart; it is covered iff the whole run is long enough.
          let runEnd = i;
          while (beyond(s.temps[runEnd + 1], high, 'ABOVE')) runEnd++;
          expect(covered.has(i)).toBe(runEnd - runStart + 1 >= n);
        });
      }),
    );
  });

  it('alarms of one direction and kind never overlap, and keys are unique', () => {
    fc.assert(
      fc.property(seriesAndWindow, anyThresholds, ({ s, window }, th) => {
        const alarms = detectExcursions(s, th, window);
        for (const direction of ['ABOVE', 'BELOW'] as const) {
          const runs = excursionsOf(alarms, direction);
          for (let k = 1; k < runs.length; k++) {
            // At least one point (gap or within limits) separates two runs.
            expect(runs[k]?.first_point_idx ?? 0).toBeGreaterThan(
              (runs[k - 1]?.last_point_idx ?? 0) + 1,
            );
          }
          expect(
            alarms.filter((a) => a.kind === 'cumulative' && a.above_or_below === direction).length,
          ).toBeLessThanOrEqual(1);
        }
        expect(new Set(alarms.map(alarmKey)).size).toBe(alarms.length);
      }),
    );
  });

  it('raising the high threshold never adds alarmed time above it, and only narrows alarms', () => {
    fc.assert(
      fc.property(
        seriesAndWindow,
        anyThresholds,
        fc.integer({ min: 0, max: 100 }).map((t) => t / 10),
        ({ s, window }, th, raise) => {
          fc.pre(th.high_threshold != null);
          const lower = excursionsOf(detectExcursions(s, th, window), 'ABOVE');
          const higher = excursionsOf(
            detectExcursions(
              s,
              { ...th, high_threshold: (th.high_threshold ?? 0) + raise },
              window,
            ),
            'ABOVE',
          );
          expect(totalDuration(higher)).toBeLessThanOrEqual(totalDuration(lower));
          for (const a of higher) {
            const within = lower.some(
              (b) => b.first_point_idx <= a.first_point_idx && a.last_point_idx <= b.last_point_idx,
            );
            expect(within).toBe(true);
          }
        },
      ),
    );
  });

  it('lowering the low threshold never adds alarmed time below it', () => {
    fc.assert(
      fc.property(
        seriesAndWindow,
        anyThresholds,
        fc.integer({ min: 0, max: 100 }).map((t) => t / 10),
        ({ s, window }, th, lower) => {
          fc.pre(th.low_threshold != null);
          const before = excursionsOf(detectExcursions(s, th, window), 'BELOW');
          const after = excursionsOf(
            detectExcursions(s, { ...th, low_threshold: (th.low_threshold ?? 0) - lower }, window),
            'BELOW',
          );
          expect(totalDuration(after)).toBeLessThanOrEqual(totalDuration(before));
        },
      ),
    );
  });

  it('requiring more consecutive points never adds an alarm', () => {
    fc.assert(
      fc.property(
        seriesAndWindow,
        anyThresholds,
        fc.integer({ min: 1, max: 3 }),
        ({ s, window }, th, more) => {
          const n = th.num_consecutive_excursions ?? 1;
          const keys = new Set(detectExcursions(s, th, window).map(alarmKey));
          const stricter = detectExcursions(
            s,
            { ...th, num_consecutive_excursions: n + more },
            window,
          );
          for (const a of stricter) expect(keys.has(alarmKey(a))).toBe(true);
        },
      ),
    );
  });

  it('a cumulative alarm totals every point beyond its threshold in the window', () => {
    fc.assert(
      fc.property(seriesAndWindow, anyThresholds, ({ s, window }, th) => {
        for (const a of detectExcursions(s, th, window).filter((x) => x.kind === 'cumulative')) {
          const high = a.above_or_below === 'ABOVE';
          const limitText = high ? th.cumulative_duration_high : th.cumulative_duration_low;
          const [h = 0, m = 0, sec = 0] = (limitText ?? '').split(':').map(Number);
          const total = timeBeyond(
            s,
            high ? th.cumulative_high_threshold : th.cumulative_low_threshold,
            a.above_or_below,
            window,
          );
          expect(a.duration).toBe(total);
          expect(a.duration).toBeGreaterThan(h * 3600 + m * 60 + sec);
        }
      }),
    );
  });

  it('mirrors: negated temperatures and swapped thresholds swap ABOVE and BELOW', () => {
    fc.assert(
      fc.property(seriesAndWindow, anyThresholds, ({ s, window }, th) => {
        const neg = (x: number | null | undefined): number | null => (x == null ? null : -x);
        const mirrored: Series = { ...s, temps: s.temps.map((t) => (t === null ? null : -t)) };
        const mirroredThresholds: AlarmThresholds = {
          ...th,
          high_threshold: neg(th.low_threshold),
          low_threshold: neg(th.high_threshold),
          cumulative_high_threshold: neg(th.cumulative_low_threshold),
          cumulative_low_threshold: neg(th.cumulative_high_threshold),
          cumulative_duration_high: th.cumulative_duration_low,
          cumulative_duration_low: th.cumulative_duration_high,
        };
        const shape = (a: DetectedAlarm): string =>
          `${a.kind}:${a.first_point_idx}:${a.last_point_idx}:${a.duration}`;
        const flip = (alarms: DetectedAlarm[], d: 'ABOVE' | 'BELOW'): string[] =>
          alarms.filter((a) => a.above_or_below === d).map(shape);
        const original = detectExcursions(s, th, window);
        const mirror = detectExcursions(mirrored, mirroredThresholds, window);
        expect(flip(mirror, 'BELOW')).toEqual(flip(original, 'ABOVE'));
        expect(flip(mirror, 'ABOVE')).toEqual(flip(original, 'BELOW'));
      }),
    );
  });

  it('a window gives the alarms of the series cut to that window', () => {
    fc.assert(
      fc.property(seriesAndWindow, anyThresholds, ({ s, window }, th) => {
        fc.pre(window !== null && window.firstIdx >= 0 && window.firstIdx < s.temps.length);
        const first = window?.firstIdx ?? 0;
        const cut: Series = {
          startTimeSeconds: pointTime(s, first),
          startDelay: 0,
          intervalSeconds: s.intervalSeconds,
          temps: s.temps.slice(first, (window?.lastIdx ?? 0) + 1),
        };
        const shifted = detectExcursions(cut, th).map((a) => ({
          ...a,
          first_point_idx: a.first_point_idx + first,
          last_point_idx: a.last_point_idx + first,
        }));
        expect(detectExcursions(s, th, window)).toEqual(shifted);
      }),
    );
  });
});

// ---------------------------------------------------------------------------
// Reconciliation

interface Stored extends DetectedAlarm {
  id: string;
  acknowledged: boolean;
  dismissed: boolean;
  resolved?: boolean;
}

/** What a store does with a reconciliation: insert, update in place, mark resolved. */
function apply(store: Stored[], detected: DetectedAlarm[], nextId: () => string): Stored[] {
  const r = reconcileAlarms(store, detected);
  const updated = new Map(r.update.map((u) => [u.existing, u.next]));
  const resolved = new Set(r.resolved);
  return [
    ...store.map((a) => updated.get(a) ?? (resolved.has(a) ? { ...a, resolved: true } : a)),
    ...r.insert.map((a) => ({ ...a, id: nextId(), acknowledged: false, dismissed: false })),
  ];
}

describe('reconcileAlarms [RULE-ALARM-1, RULE-ALARM-2]', () => {
  const base = excursion('ABOVE', 1, 2, 35, 10.5, 9);
  const stored: Stored = { ...base, id: 'a1', acknowledged: true, dismissed: false };

  it('inserts new alarms', () => {
    expect(reconcileAlarms([], [base])).toEqual({
      insert: [base],
      update: [],
      unchanged: [],
      resolved: [],
    });
  });

  it('leaves an alarm found again as it is', () => {
    expect(reconcileAlarms([stored], [base])).toEqual({
      insert: [],
      update: [],
      unchanged: [stored],
      resolved: [],
    });
  });

  it('updates a growing run in place, keeping id and acknowledgement', () => {
    const grown = excursion('ABOVE', 1, 3, 45, 10.5, 9);
    const r = reconcileAlarms([stored], [grown]);
    expect(r.insert).toEqual([]);
    expect(r.update).toEqual([
      {
        existing: stored,
        next: { ...grown, id: 'a1', acknowledged: true, dismissed: false },
        changed: ['last_point_idx', 'end_time', 'duration', 'degree_minutes', 'number_of_points'],
      },
    ]);
  });

  it('reports alarms that no longer hold as resolved, untouched', () => {
    const low = excursion('BELOW', 8, 9, 25, 1, 0.5);
    const r = reconcileAlarms([stored], [low]);
    expect(r.insert).toEqual([low]);
    expect(r.resolved).toEqual([stored]);
    expect(r.resolved[0]).toBe(stored);
  });

  it('never reopens a closed alarm: holding again is a new alarm; and never closes it twice', () => {
    const old: Stored = { ...stored, resolved: true };
    expect(reconcileAlarms([old], [])).toEqual({
      insert: [],
      update: [],
      unchanged: [],
      resolved: [],
    });
    expect(reconcileAlarms([old], [base])).toEqual({
      insert: [base],
      update: [],
      unchanged: [],
      resolved: [],
    });
  });

  it('tells excursion and cumulative alarms of the same first point apart', () => {
    const cumulative: DetectedAlarm = { ...base, kind: 'cumulative' };
    const r = reconcileAlarms([stored], [base, cumulative]);
    expect(r.unchanged).toEqual([stored]);
    expect(r.insert).toEqual([cumulative]);
  });

  it('re-evaluating any number of times never duplicates nor loses an alarm or its flags', () => {
    const evaluations = fc.array(fc.tuple(anySeries, anyThresholds), {
      minLength: 1,
      maxLength: 6,
    });
    fc.assert(
      fc.property(evaluations, fc.array(fc.boolean(), { maxLength: 40 }), (runs, flags) => {
        let n = 0;
        const nextId = (): string => `id${n++}`;
        let store: Stored[] = [];
        for (const [s, th] of runs) {
          const detected = detectExcursions(s, th);
          const before = store;
          // Someone acknowledges or dismisses some alarms between evaluations.
          store = store.map((a, i) => ({
            ...a,
            acknowledged: a.acknowledged || flags[i % Math.max(1, flags.length)] === true,
            dismissed: a.dismissed || flags[(i + 1) % Math.max(1, flags.length)] === true,
          }));
          const flagged = new Map(store.map((a) => [a.id, a]));
          store = apply(store, detected, nextId);
          // Nothing is lost; ids and flags survive; a closed alarm stays closed and unchanged.
          expect(store.length).toBeGreaterThanOrEqual(before.length);
          for (const a of store) {
            const was = flagged.get(a.id);
            if (was !== undefined) {
              expect(a.acknowledged).toBe(was.acknowledged);
              expect(a.dismissed).toBe(was.dismissed);
              if (was.resolved === true) expect(a).toEqual(was);
            }
          }
          // The alarms that hold are exactly the detected ones, each once.
          const holding = store.filter((a) => a.resolved !== true);
          expect(holding.map(alarmKey).sort()).toEqual(detected.map(alarmKey).sort());
          for (const d of detected) {
            const match = holding.find((a) => alarmKey(a) === alarmKey(d));
            expect(match).toMatchObject({ ...d });
          }
          // A second evaluation of the same data changes nothing.
          const again = reconcileAlarms(store, detected);
          expect(again.insert).toEqual([]);
          expect(again.update).toEqual([]);
          expect(again.resolved).toEqual([]);
        }
      }),
    );
  });
});

describe('record status [RULE-ALARM-6]', () => {
  it('is Alarm with any alarm that holds, else OK', () => {
    expect(recordStatus([])).toBe('OK');
    expect(recordStatus([{}])).toBe('Alarm');
    expect(recordStatus([{ dismissed: true }])).toBe('Alarm');
    expect(recordStatus([{ resolved: true }])).toBe('OK');
    expect(recordStatus([{ resolved: true }, { resolved: false }])).toBe('Alarm');
  });

  it('computed_status ignores dismissed alarms', () => {
    expect(computedStatus([])).toBe('OK');
    expect(computedStatus([{ dismissed: true }])).toBe('OK');
    expect(computedStatus([{ dismissed: true }, { dismissed: false }])).toBe('Alarm');
    expect(computedStatus([{ dismissed: null }])).toBe('Alarm');
    expect(computedStatus([{ resolved: true, dismissed: false }])).toBe('OK');
  });
});
