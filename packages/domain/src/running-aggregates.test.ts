import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { evaluationWindow, firstIndexAtOrAfter, lastIndexAtOrBefore } from './evaluation-window';
import {
  alarmKey,
  compareAlarms,
  detectExcursions,
  type AlarmThresholds,
  type DetectedAlarm,
} from './excursions';
import {
  aggregateBasis,
  appendPoints,
  appendTracked,
  emptyTracked,
  rewindTo,
  type TrackedAggregates,
  changeableAlarmStarts,
  emptyAggregates,
  openAlarmsOf,
  sameBasis,
  summaryOf,
  type RunningAggregates,
} from './running-aggregates';
import { mergeSlice, type Series, type SeriesValue } from './series';
import { histogramOf } from './stability-budget';
import { temperatureSummary } from './temperature-summary';

/*
 * Incremental (a fold per upload) against full recompute (temperatureSummary
 * and detectExcursions over the whole series) on random sequences of uploads:
 * packets merged by index, late and duplicate packets, gaps, both directions,
 * consecutive-count rules, cumulative limits and trip windows.
 */

const START = 1_700_000_000;

const temperature = fc.oneof(
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 8, arbitrary: fc.integer({ min: -60, max: 160 }).map((v) => v / 10) },
  { weight: 1, arbitrary: fc.constantFrom(-273.15, -300, 2, 8, 100.5) },
);
const threshold = fc.option(
  fc.integer({ min: -10, max: 12 }).map((v) => v / 2),
  {
    nil: null,
  },
);
const thresholds: fc.Arbitrary<AlarmThresholds> = fc.record({
  high_threshold: threshold,
  low_threshold: threshold,
  num_consecutive_excursions: fc.option(fc.integer({ min: 0, max: 4 }), { nil: null }),
  cumulative_high_threshold: threshold,
  cumulative_low_threshold: threshold,
  cumulative_duration_high: fc.constantFrom(null, '00:00:00', '00:05:00', '00:30:00', 'bad'),
  cumulative_duration_low: fc.constantFrom(null, '00:00:00', '00:10:00', '1 00:00:00'),
});
const packet = fc.record({
  offset: fc.integer({ min: 0, max: 60 }),
  temps: fc.array(temperature, { minLength: 1, maxLength: 12 }),
});
const tripTimes = fc.record({
  begin: fc.option(fc.integer({ min: -2, max: 50 }), { nil: null }),
  end: fc.option(fc.integer({ min: -2, max: 60 }), { nil: null }),
});

interface Tracked {
  state: RunningAggregates;
  /** Alarms that ended in some fold (final). */
  closed: DetectedAlarm[];
}

function fullSeries(temps: readonly SeriesValue[], interval: number): Series {
  // Stored series drop trailing gaps.
  let end = temps.length;
  while (end > 0 && temps[end - 1] === null) end--;
  return {
    startTimeSeconds: START,
    startDelay: 30,
    intervalSeconds: interval,
    temps: temps.slice(0, end),
  };
}

function windowBounds(series: Series, trip: { begin: number | null; end: number | null }) {
  const begin = trip.begin === null ? null : pointTime(series, trip.begin) + 1;
  const end = trip.end === null ? null : pointTime(series, trip.end);
  return { begin, end };
}

const pointTime = (series: Series, i: number) =>
  series.startTimeSeconds + series.startDelay + i * series.intervalSeconds;

/** The basis as the server builds it: the window's bounds, independent of the series' length. */
function basisFor(
  series: Series,
  rules: AlarmThresholds,
  trip: { begin: number | null; end: number | null },
) {
  const { begin, end } = windowBounds(series, trip);
  const from = begin === null ? 0 : firstIndexAtOrAfter(series, begin);
  const to = begin === null || end === null ? null : lastIndexAtOrBefore(series, end);
  return aggregateBasis(series, rules, { from, to });
}

/** The full recompute's answer: summary and alarms over the evaluation window. */
function full(
  series: Series,
  rules: AlarmThresholds,
  trip: { begin: number | null; end: number | null },
) {
  const { begin, end } = windowBounds(series, trip);
  const window = evaluationWindow(series, { begin_time: begin, end_time: end });
  return {
    summary: temperatureSummary(series),
    alarms: series.temps.length === 0 ? [] : detectExcursions(series, rules, window),
  };
}

function incremental(tracked: Tracked) {
  return {
    summary: summaryOf(tracked.state),
    alarms: [...tracked.closed, ...openAlarmsOf(tracked.state)].sort(compareAlarms),
  };
}

function expectAgree(got: ReturnType<typeof incremental>, want: ReturnType<typeof full>) {
  const { mean_kinetic_temp: gotMkt, ...gotRest } = got.summary;
  const { mean_kinetic_temp: wantMkt, ...wantRest } = want.summary;
  expect(gotRest).toEqual(wantRest);
  if (wantMkt === null) expect(gotMkt).toBeNull();
  else expect(Math.abs(gotMkt! - wantMkt)).toBeLessThan(1e-9);
  expect(got.alarms).toEqual(want.alarms);
}

describe('running aggregates: incremental against full recompute [FEAT-INCREMENTAL-RECOMPUTE]', () => {
  it('agree after every upload of a random sequence (late, duplicate, gapped packets)', () => {
    const options = { every: 4, keep: 2 };
    fc.assert(
      fc.property(
        thresholds,
        fc.constantFrom(60, 300, 0.5),
        tripTimes,
        fc.array(packet, { minLength: 1, maxLength: 25 }),
        fc.boolean(),
        (rules, interval, trip, packets, skipGaps) => {
          let temps: SeriesValue[] = [];
          const basis = basisFor(fullSeries([], interval), rules, trip);
          let tracked: TrackedAggregates = emptyTracked(basis);
          let closed: DetectedAlarm[] = [];
          for (const p of packets) {
            const before = tracked.current.length;
            const merged = mergeSlice(temps, p.offset, p.temps);
            // The lowest index the upload changed (a gap filled before the end is a late packet).
            let firstChanged = -1;
            for (let i = 0; i < merged.temps.length; i++) {
              if ((temps[i] ?? null) !== merged.temps[i]) {
                firstChanged = i;
                break;
              }
            }
            temps = merged.temps;
            const series = fullSeries(temps, interval);
            if (firstChanged >= 0) {
              // An append folds from the end; a late packet from the newest checkpoint before it
              // (alarms that ended before that checkpoint are final), else from the start.
              const rewound =
                firstChanged >= before
                  ? tracked
                  : (rewindTo(tracked, firstChanged) ?? emptyTracked(basis));
              const at = rewound.current.length;
              if (rewound !== tracked) {
                // Final: the alarms that ended before the checkpoint and are not open in it.
                const open = new Set(changeableAlarmStarts(rewound.current).map(alarmKey));
                closed = closed.filter((a) => a.last_point_idx < at && !open.has(alarmKey(a)));
              }
              // Stored as JSON between uploads.
              const stored = JSON.parse(JSON.stringify(rewound)) as TrackedAggregates;
              // Either the slice from the end (gaps included) or from the first new value on.
              let from = at;
              if (skipGaps) while (series.temps[from] === null) from++;
              const result = appendTracked(stored, series.temps.slice(from), from, options);
              tracked = result.tracked;
              closed = [...closed, ...result.closed];
            }
            expect(tracked.current.length).toBe(series.temps.length);
            expect(tracked.checkpoints.length).toBeLessThanOrEqual(2);
            expectAgree(incremental({ state: tracked.current, closed }), full(series, rules, trip));
            // The band histogram: the points in the evaluation window, as histogramOf counts them.
            const { windowFrom, windowTo } = tracked.current.basis;
            expect(tracked.current.bins).toEqual(
              histogramOf(
                series.temps.slice(windowFrom, windowTo === null ? undefined : windowTo + 1),
              ),
            );
            // Bit for bit the state of one fold of the whole series.
            expect(tracked.current).toEqual(
              appendTracked(emptyTracked(basis), series.temps, 0, options).tracked.current,
            );
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a series folded packet by packet is bit for bit the series folded at once', () => {
    fc.assert(
      fc.property(
        thresholds,
        fc.array(temperature, { minLength: 1, maxLength: 80 }),
        fc.array(fc.integer({ min: 1, max: 80 }), { maxLength: 6 }),
        (rules, values, cuts) => {
          const series = fullSeries(values, 60);
          const basis = aggregateBasis(series, rules, { from: 0, to: null });
          const once = appendPoints(emptyAggregates(basis), series.temps);
          let state = emptyAggregates(basis);
          const closed: DetectedAlarm[] = [];
          let at = 0;
          for (const cut of [...new Set(cuts)].sort((a, b) => a - b)) {
            if (cut <= at || cut > series.temps.length) continue;
            const r = appendPoints(state, series.temps.slice(at, cut), at);
            state = r.state;
            closed.push(...r.closed);
            // Trailing gaps are not folded: continue from the folded length.
            at = state.length;
          }
          const r = appendPoints(state, series.temps.slice(at), at);
          expect(r.state).toEqual(once.state);
          expect([...closed, ...r.closed]).toEqual(once.closed);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a threshold edit is a new basis: folding again from the start agrees with the full recompute', () => {
    fc.assert(
      fc.property(
        thresholds,
        thresholds,
        fc.array(temperature, { minLength: 1, maxLength: 60 }),
        (before, after, values) => {
          const series = fullSeries(values, 60);
          const old = aggregateBasis(series, before, { from: 0, to: null });
          const edited = aggregateBasis(series, after, { from: 0, to: null });
          const changed = !sameBasis(old, edited);
          const kept = JSON.stringify(before) === JSON.stringify(after);
          if (kept) expect(changed).toBe(false);
          const refolded = appendPoints(emptyAggregates(edited), series.temps);
          expectAgree(
            incremental({ state: refolded.state, closed: refolded.closed }),
            full(series, after, { begin: null, end: null }),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('running aggregates: checkpoints [FEAT-INCREMENTAL-RECOMPUTE]', () => {
  it('are the states at the last multiples of `every` passed, however the points came', () => {
    const basis = aggregateBasis(
      { startTimeSeconds: START, startDelay: 0, intervalSeconds: 60 },
      { high_threshold: 8 },
      { from: 0, to: null },
    );
    const values = [1, 9, 9, 2, 3, 9, 4, 5, 9, 9, 9];
    const options = { every: 4, keep: 2 };
    const once = appendTracked(emptyTracked(basis), values, 0, options).tracked;
    expect(once.checkpoints.map((c) => c.length)).toEqual([4, 8]);
    const { basis: _basis, ...atEight } = appendPoints(
      emptyAggregates(basis),
      values.slice(0, 8),
    ).state;
    expect(once.checkpoints[1]).toEqual(atEight);
    let packets = emptyTracked(basis);
    for (let at = 0; at < values.length; at += 3) {
      packets = appendTracked(packets, values.slice(at, at + 3), at, options).tracked;
    }
    expect(packets).toEqual(once);
    expect(rewindTo(once, 9)?.current.length).toBe(8);
    expect(rewindTo(once, 6)).toEqual({
      current: { ...once.checkpoints[0], basis },
      checkpoints: [],
    });
    expect(rewindTo(once, 3)).toBeNull();
  });
});

describe('running aggregates: worked example [FEAT-INCREMENTAL-RECOMPUTE]', () => {
  const rules: AlarmThresholds = {
    high_threshold: 8,
    low_threshold: 2,
    num_consecutive_excursions: 2,
    cumulative_high_threshold: 8,
    cumulative_duration_high: '00:02:00',
  };
  const basis = aggregateBasis(
    { startTimeSeconds: START, startDelay: 0, intervalSeconds: 60 },
    rules,
    { from: 0, to: null },
  );

  it('keeps the open run and the cumulative span; a run that ends is final', () => {
    // 5, 9, 10 | 11, 4, null | 1, 1
    let r = appendPoints(emptyAggregates(basis), [5, 9, 10]);
    expect(r.closed).toEqual([]);
    expect(r.state.runs.ABOVE).toMatchObject({ first: 1, last: 2, count: 2 });
    expect(
      openAlarmsOf(r.state).map((a) => [a.kind, a.first_point_idx, a.number_of_points]),
    ).toEqual([['excursion', 1, 2]]);
    expect(changeableAlarmStarts(r.state)).toEqual([
      { kind: 'excursion', above_or_below: 'ABOVE', first_point_idx: 1 },
      { kind: 'cumulative', above_or_below: 'ABOVE', first_point_idx: 1 },
    ]);
    r = appendPoints(r.state, [11, 4, null]);
    expect(r.state.length).toBe(5);
    expect(r.closed.map((a) => [a.first_point_idx, a.last_point_idx, a.degree_minutes])).toEqual([
      [1, 3, 6],
    ]);
    expect(r.state.runs.ABOVE).toBeNull();
    // Three minutes above 8 > two: the cumulative alarm holds.
    expect(openAlarmsOf(r.state)).toMatchObject([
      { kind: 'cumulative', first_point_idx: 1, last_point_idx: 3, duration: 180 },
    ]);
    r = appendPoints(r.state, [1, 1], 6);
    expect(r.state).toMatchObject({ length: 8, count: 7, highest: 11, lowest: 1, latest: 1 });
    expect(summaryOf(r.state)).toMatchObject({
      first_point: START,
      last_point: START + 7 * 60,
      record_duration: 420,
      number_of_points: 7,
    });
    expect(() => appendPoints(r.state, [5], 3)).toThrow(RangeError);
  });
});
