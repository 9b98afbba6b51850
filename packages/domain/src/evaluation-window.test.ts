import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  evaluationWindow,
  firstIndexAtOrAfter,
  inWindow,
  lastIndexAtOrBefore,
  wholeSeries,
} from './evaluation-window';
import { pointTime, type Series } from './series';

// Ten points at 1000, 1060, ..., 1540.
const series: Series = {
  startTimeSeconds: 940,
  startDelay: 60,
  intervalSeconds: 60,
  temps: [5, 5, 5, 5, 5, 5, 5, 5, 5, 5],
};

describe('evaluationWindow [RULE-ALARM-3]', () => {
  it('is the whole series without a trip or without a begin_time', () => {
    expect(evaluationWindow(series)).toEqual({ firstIdx: 0, lastIdx: 9 });
    expect(evaluationWindow(series, null)).toEqual({ firstIdx: 0, lastIdx: 9 });
    expect(evaluationWindow(series, { begin_time: null, end_time: null })).toEqual({
      firstIdx: 0,
      lastIdx: 9,
    });
    // An end_time alone does not narrow the window.
    expect(evaluationWindow(series, { end_time: 1100 })).toEqual({ firstIdx: 0, lastIdx: 9 });
  });

  it('is empty for an empty series', () => {
    expect(evaluationWindow({ ...series, temps: [] })).toBeNull();
    expect(evaluationWindow({ ...series, temps: [] }, { begin_time: 1000 })).toBeNull();
  });

  it('runs from begin_time to the last point while in transit', () => {
    // 1100 lies between point 1 (1060) and point 2 (1120).
    expect(evaluationWindow(series, { begin_time: 1100 })).toEqual({ firstIdx: 2, lastIdx: 9 });
    // A begin_time before the first point starts at the first point.
    expect(evaluationWindow(series, { begin_time: 0 })).toEqual({ firstIdx: 0, lastIdx: 9 });
  });

  it('includes points exactly at begin_time and end_time', () => {
    expect(evaluationWindow(series, { begin_time: 1120, end_time: 1300 })).toEqual({
      firstIdx: 2,
      lastIdx: 5,
    });
    expect(evaluationWindow(series, { begin_time: 1120, end_time: 1299 })).toEqual({
      firstIdx: 2,
      lastIdx: 4,
    });
    expect(evaluationWindow(series, { begin_time: 1120, end_time: 1120 })).toEqual({
      firstIdx: 2,
      lastIdx: 2,
    });
  });

  it('is empty when the trip lies outside the series or between two points', () => {
    expect(evaluationWindow(series, { begin_time: 1541 })).toBeNull();
    expect(evaluationWindow(series, { begin_time: 100, end_time: 999 })).toBeNull();
    expect(evaluationWindow(series, { begin_time: 1121, end_time: 1170 })).toBeNull();
    expect(evaluationWindow(series, { begin_time: 1300, end_time: 1200 })).toBeNull();
  });

  it('clips an end_time after the last point to the last point', () => {
    expect(evaluationWindow(series, { begin_time: 1000, end_time: 99_999 })).toEqual({
      firstIdx: 0,
      lastIdx: 9,
    });
  });

  it('holds exactly the points taken between begin_time and end_time', () => {
    const anySeries = fc.record({
      startTimeSeconds: fc.integer({ min: 0, max: 10_000 }),
      startDelay: fc.integer({ min: 0, max: 600 }),
      // Fractional intervals too (calculated_measurement_interval).
      intervalSeconds: fc.oneof(
        fc.integer({ min: 1, max: 900 }),
        fc.double({ min: 0.5, max: 900, noNaN: true }),
      ),
      temps: fc.array(fc.constant(1), { maxLength: 50 }),
    });
    const time = fc.integer({ min: -1000, max: 60_000 });
    fc.assert(
      fc.property(anySeries, time, fc.option(time, { nil: null }), (s, begin, end) => {
        const window = evaluationWindow(s, { begin_time: begin, end_time: end });
        s.temps.forEach((_, i) => {
          const t = pointTime(s, i);
          const expected = t >= begin && (end === null || t <= end);
          expect(inWindow(window, i)).toBe(expected);
        });
      }),
    );
  });

  it('finds a begin or end time that falls exactly on a point', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0.5, max: 900, noNaN: true }),
        fc.integer({ min: 0, max: 200 }),
        (intervalSeconds, k) => {
          const s = { startTimeSeconds: 1_700_000_000, startDelay: 17, intervalSeconds, temps: [] };
          expect(firstIndexAtOrAfter(s, pointTime(s, k))).toBe(k);
          expect(lastIndexAtOrBefore(s, pointTime(s, k))).toBe(k);
        },
      ),
    );
  });
});

describe('index helpers [RULE-ALARM-3]', () => {
  it('answer the neighbouring points of a time', () => {
    expect(firstIndexAtOrAfter(series, 1061)).toBe(2);
    expect(lastIndexAtOrBefore(series, 1061)).toBe(1);
    expect(lastIndexAtOrBefore(series, 999)).toBe(-1);
    expect(firstIndexAtOrAfter(series, -5)).toBe(0);
  });

  it('reject an interval that is not positive, and a non-finite time', () => {
    expect(() => firstIndexAtOrAfter({ ...series, intervalSeconds: 0 }, 1000)).toThrow(RangeError);
    expect(() => lastIndexAtOrBefore({ ...series, intervalSeconds: -1 }, 1000)).toThrow(RangeError);
    expect(() => firstIndexAtOrAfter(series, Number.NaN)).toThrow(RangeError);
  });

  it('wholeSeries and inWindow', () => {
    expect(wholeSeries({ temps: [1, null] })).toEqual({ firstIdx: 0, lastIdx: 1 });
    expect(wholeSeries({ temps: [] })).toBeNull();
    expect(inWindow(null, 0)).toBe(false);
    expect(inWindow({ firstIdx: 2, lastIdx: 4 }, 4)).toBe(true);
    expect(inWindow({ firstIdx: 2, lastIdx: 4 }, 5)).toBe(false);
  });
});
