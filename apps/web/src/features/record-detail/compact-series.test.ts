import type { TRecordSeries } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import {
  isoOfSeconds,
  pointsOf,
  seriesColumns,
  seriesTiming,
  toChartSeries,
  toReadings,
  withWindow,
} from './compact-series';

const T0 = Date.UTC(2025, 0, 1) / 1000;

function reply(values: Partial<TRecordSeries>): TRecordSeries {
  const temperatures = values.temperatures ?? [];
  return {
    record_id: '7',
    start_time: new Date(T0 * 1000).toISOString(),
    first_point_time: new Date((T0 + 60) * 1000).toISOString(),
    interval_seconds: 300,
    length: temperatures.length,
    point_count: temperatures.filter((v) => v !== null).length,
    from_index: 0,
    to_index: temperatures.length - 1,
    reduced: false,
    bucket_size: 1,
    temperatures,
    high_threshold: 8,
    low_threshold: 2,
    cumulative_high_threshold: null,
    cumulative_low_threshold: null,
    trip_begin_time: null,
    trip_end_time: null,
    ...values,
  };
}

describe('compact series to the chart [FEAT-COMPACT-SERIES]', () => {
  it('places point i at first_point_time + i x interval and converts to the user unit', () => {
    const r = reply({ temperatures: [2.25, -20.25, 8] });
    const timing = seriesTiming(r)!;
    expect(timing).toEqual({ first: T0 + 60, interval: 300 });
    expect(toChartSeries(pointsOf(r), timing, 'C', r.point_count)).toEqual({
      xs: [T0 + 60, T0 + 360, T0 + 660],
      ys: [2.3, -20.3, 8],
      points: 3,
    });
    expect(toChartSeries(pointsOf(r), timing, 'F', 3).ys).toEqual([36.1, -4.5, 46.4]);
  });

  it('keeps gaps as gaps: one null at the first index of a run, none at the ends', () => {
    const r = reply({ temperatures: [null, 4, null, null, 5, 6, null] });
    const chart = toChartSeries(pointsOf(r), seriesTiming(r)!, 'C', r.point_count);
    expect(chart.ys).toEqual([4, null, 5, 6]);
    expect(chart.xs).toEqual([T0 + 360, T0 + 660, T0 + 1260, T0 + 1560]);
    expect(chart.points).toBe(3);
  });

  it('reads a reduced reply at its indices (a window starting past 0 too)', () => {
    const reduced = reply({
      reduced: true,
      bucket_size: 50,
      indices: [3, 40, 77, 99],
      temperatures: [5, null, 9.5, 4],
      length: 100,
      point_count: 98,
    });
    expect(pointsOf(reduced)).toEqual({ indices: [3, 40, 77, 99], values: [5, null, 9.5, 4] });
    const chart = toChartSeries(pointsOf(reduced), seriesTiming(reduced)!, 'C', 98);
    expect(chart.xs).toEqual([3, 40, 77, 99].map((i) => T0 + 60 + i * 300));
    expect(chart.points).toBe(98);
    const window = reply({ from_index: 10, to_index: 12, temperatures: [1, 2, 3] });
    expect(pointsOf(window).indices).toEqual([10, 11, 12]);
  });

  it('lays a zoom window into the overview, replacing the overview points inside it', () => {
    const overview = { indices: [0, 9, 20, 31, 40, 55], values: [4, 6, 5, null, 7, 3] };
    const window = reply({ from_index: 19, to_index: 23, temperatures: [5.1, 5, null, 5.2, 5.3] });
    expect(withWindow(overview, window)).toEqual({
      indices: [0, 9, 19, 20, 21, 22, 23, 31, 40, 55],
      values: [4, 6, 5.1, 5, null, 5.2, 5.3, null, 7, 3],
    });
    // An empty window leaves the overview as it is.
    expect(withWindow(overview, reply({ from_index: 60, to_index: 59 }))).toBe(overview);
  });

  it('answers no timing when the record cannot place its points', () => {
    expect(seriesTiming(reply({ first_point_time: null }))).toBeNull();
    expect(seriesTiming(reply({ interval_seconds: null }))).toBeNull();
  });

  it('gives the keyboard and the table the points with a value, in Celsius as stored', () => {
    const r = reply({ from_index: 5, temperatures: [4.1234, null, 9] });
    expect(toReadings(pointsOf(r), seriesTiming(r)!)).toEqual([
      { index: 5, time: T0 + 60 + 5 * 300, temperature: 4.1234 },
      { index: 7, time: T0 + 60 + 7 * 300, temperature: 9 },
    ]);
  });

  it('converts 60,000 points without an object per point, quickly', () => {
    const temperatures = Array.from({ length: 60_000 }, (_, i) =>
      i % 700 === 0 ? null : 5 + (i % 40) / 10,
    );
    const r = reply({ temperatures });
    const started = performance.now();
    const chart = toChartSeries(pointsOf(r), seriesTiming(r)!, 'F', r.point_count);
    expect(performance.now() - started).toBeLessThan(1000);
    expect(chart.xs).toHaveLength(60_000 - 1); // the leading gap at index 0 is not drawn
    expect(chart.ys.filter((y) => y === null)).toHaveLength(Math.floor(59_999 / 700));
  });

  it('asks for the screen width in device pixels, in steps of 250, within 100..4000', () => {
    expect(seriesColumns(1280, 1)).toBe(1500);
    expect(seriesColumns(375, 3)).toBe(750);
    expect(seriesColumns(10, 1)).toBe(250);
    expect(seriesColumns(5000, 2)).toBe(4000);
    expect(isoOfSeconds(T0 + 0.25)).toBe('2025-01-01T00:00:00.250Z');
  });
});
