import type { TExcursionAlarm, TTemperaturePoint } from '@coldtrace/contract';
import { toDisplayUnit } from '@coldtrace/domain';
import { describe, expect, it } from 'vitest';
import {
  buildTemperatureSeries,
  createUnitConverter,
  excursionBands,
  seriesExtent,
  temperatureRange,
  toSeconds,
  tripWindow,
} from './chart-data';

const T0 = Date.UTC(2025, 0, 1) / 1000;
const point = (index: number, temperature: number, interval = 60): TTemperaturePoint => ({
  index,
  temperature,
  timestamp: new Date((T0 + index * interval) * 1000).toISOString(),
});

describe('buildTemperatureSeries', () => {
  it('converts to the user unit with the spec rounding (C to F: x*1.8+32, one decimal)', () => {
    const points = [point(0, 2.25), point(1, -20.25), point(2, 8)];
    expect(buildTemperatureSeries(points, 'C')).toEqual({
      xs: [T0, T0 + 60, T0 + 120],
      ys: [2.3, -20.3, 8],
      points: 3,
    });
    expect(buildTemperatureSeries(points, 'F').ys).toEqual([36.1, -4.5, 46.4]);
  });

  it('keeps gaps as gaps: one null one step after the last point before a gap', () => {
    const series = buildTemperatureSeries(
      [point(0, 5), point(1, 6), point(4, 7), point(5, 8)],
      'C',
    );
    expect(series.xs).toEqual([T0, T0 + 60, T0 + 120, T0 + 240, T0 + 300]);
    expect(series.ys).toEqual([5, 6, null, 7, 8]);
    expect(series.points).toBe(4);
  });

  it('orders by index, counts a repeated index once, leaves out points without time or value', () => {
    const series = buildTemperatureSeries(
      [
        point(2, 7),
        point(0, 5),
        point(1, 6),
        point(1, 6),
        { index: 3, temperature: 9 },
        { index: 4, temperature: Number.NaN, timestamp: point(4, 0).timestamp },
        { temperature: 1, timestamp: point(5, 0).timestamp },
      ],
      'C',
    );
    expect(series).toEqual({ xs: [T0, T0 + 60, T0 + 120], ys: [5, 6, 7], points: 3 });
  });

  it('uses the step between the points around a gap (calculated intervals with fractions)', () => {
    const series = buildTemperatureSeries([point(0, 1, 1.5), point(3, 2, 1.5)], 'C');
    expect(series.xs).toEqual([T0, T0 + 1.5, T0 + 4.5]);
    expect(series.ys).toEqual([1, null, 2]);
  });

  it('prepares 100,000 points quickly', () => {
    const points = Array.from({ length: 100_000 }, (_, i) =>
      point(i, Math.round((4 + 6 * Math.sin(i / 500)) * 100) / 100),
    );
    const started = performance.now();
    const series = buildTemperatureSeries(points, 'F');
    const elapsed = performance.now() - started;
    expect(series.points).toBe(100_000);
    expect(series.ys[12_345]).toBe(toDisplayUnit(points[12_345]!.temperature!, 'F'));
    expect(elapsed).toBeLessThan(1500);
  });

  it('answers an empty series for no points', () => {
    expect(buildTemperatureSeries([], 'C')).toEqual({ xs: [], ys: [], points: 0 });
  });
});

describe('createUnitConverter', () => {
  it('gives what toDisplayUnit gives', () => {
    const convert = createUnitConverter('F');
    for (const c of [0, 2.25, -40, 36.6, 2.25]) expect(convert(c)).toBe(toDisplayUnit(c, 'F'));
  });
});

describe('excursionBands', () => {
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

describe('tripWindow', () => {
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

describe('temperatureRange and seriesExtent', () => {
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

describe('toSeconds', () => {
  it('reads ISO instants (an offset-less one as UTC), null otherwise', () => {
    expect(toSeconds('2025-01-01T00:00:00Z')).toBe(T0);
    expect(toSeconds('2025-01-01T01:00:00+01:00')).toBe(T0);
    expect(toSeconds('2025-01-01T00:00:00')).toBe(T0);
    expect(toSeconds('soon')).toBeNull();
    expect(toSeconds(null)).toBeNull();
  });
});
