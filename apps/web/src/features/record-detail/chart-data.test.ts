import type { TExcursionAlarm } from '@coldtrace/contract';
import { toDisplayUnit } from '@coldtrace/domain';
import { describe, expect, it } from 'vitest';
import {
  createUnitConverter,
  excursionBands,
  seriesExtent,
  showsWhole,
  temperatureRange,
  toSeconds,
  tripWindow,
} from './chart-data';

const T0 = Date.UTC(2025, 0, 1) / 1000;

describe('createUnitConverter [FEAT-CHART, SPEC-9.1]', () => {
  it('gives what toDisplayUnit gives', () => {
    const convert = createUnitConverter('F');
    for (const c of [0, 2.25, -40, 36.6, 2.25]) expect(convert(c)).toBe(toDisplayUnit(c, 'F'));
  });
});

describe('excursionBands [FEAT-CHART, SPEC-9.1]', () => {
  const alarm = (over: Partial<TExcursionAlarm>): TExcursionAlarm => ({
    id: '1',
    kind: 'excursion',
    above_or_below: 'ABOVE',
    start_time: '2025-01-01T01:00:00.000Z',
    end_time: '2025-01-01T01:10:00.000Z',
    resolved: false,
    dismissed: false,
    ...over,
  });

  it('shades holding excursions from their first to last point, ordered by time', () => {
    expect(
      excursionBands([
        alarm({
          id: '2',
          above_or_below: 'BELOW',
          start_time: '2025-01-01T03:00:00Z',
          end_time: '2025-01-01T03:00:00Z',
        }),
        alarm({ dismissed: true }),
      ]),
    ).toEqual([
      { from: T0 + 3600, to: T0 + 4200, direction: 'ABOVE', dismissed: true },
      { from: T0 + 3 * 3600, to: T0 + 3 * 3600, direction: 'BELOW', dismissed: false },
    ]);
  });

  it('leaves out cumulative, closed and timeless alarms', () => {
    expect(
      excursionBands([
        alarm({ kind: 'cumulative' }),
        alarm({ resolved: true }),
        alarm({ state: 'CLOSED' }),
        alarm({ start_time: null }),
        alarm({ above_or_below: undefined }),
      ]),
    ).toEqual([]);
  });
});

describe('tripWindow [FEAT-CHART, SPEC-9.1]', () => {
  it('runs from begin to end, or to the last point while in transit', () => {
    const begin = '2025-01-01T01:00:00Z';
    expect(tripWindow({ begin_time: begin, end_time: '2025-01-01T02:00:00Z' }, T0 + 9999)).toEqual({
      from: T0 + 3600,
      to: T0 + 7200,
    });
    expect(tripWindow({ begin_time: begin, end_time: null }, T0 + 5000)).toEqual({
      from: T0 + 3600,
      to: T0 + 5000,
    });
    expect(tripWindow({ begin_time: null }, T0)).toBeNull();
    expect(tripWindow(undefined, T0)).toBeNull();
  });
});

describe('temperatureRange and seriesExtent [FEAT-CHART, SPEC-9.1]', () => {
  it('keeps both thresholds in view, padded and rounded out', () => {
    expect(temperatureRange(4, 6, [8, 2])).toEqual([1, 9]);
    expect(temperatureRange(-30, 50, [null, undefined])).toEqual([-37, 57]);
    expect(temperatureRange(null, null, [])).toEqual([0, 10]);
    expect(temperatureRange(5, 5, [])).toEqual([4, 6]);
  });

  it('finds the extent ignoring gaps', () => {
    expect(seriesExtent([null, 3, -1, null, 7])).toEqual([-1, 7]);
    expect(seriesExtent([null])).toBeNull();
  });
});

describe('toSeconds [FEAT-CHART, SPEC-9.1]', () => {
  it('reads ISO instants (an offset-less one as UTC), null otherwise', () => {
    expect(toSeconds('2025-01-01T00:00:00Z')).toBe(T0);
    expect(toSeconds('2025-01-01T01:00:00+01:00')).toBe(T0);
    expect(toSeconds('2025-01-01T00:00:00')).toBe(T0);
    expect(toSeconds('soon')).toBeNull();
    expect(toSeconds(null)).toBeNull();
  });
});

describe('showsWhole [FEAT-CHART, SPEC-9.1]', () => {
  const xs = [100, 160, 220];
  it('the whole series is shown when the span covers its first and last point', () => {
    expect(showsWhole(xs, 100, 220)).toBe(true);
    expect(showsWhole(xs, 90, 230)).toBe(true);
    expect(showsWhole([], 0, 1)).toBe(true);
  });
  it('a zoomed span does not show the whole', () => {
    expect(showsWhole(xs, 130, 220)).toBe(false);
    expect(showsWhole(xs, 100, 200)).toBe(false);
  });
});
