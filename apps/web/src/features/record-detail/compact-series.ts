import type { TDegreesUnit, TRecordSeries } from '@coldtrace/contract';
import { createUnitConverter, toSeconds, type ChartReading, type ChartSeries } from './chart-data';

/**
 * The compact series reply (GET /api/devices/aggregate/record-series/,
 * docs/decisions/compact-series.md) as the chart draws it (pure, tested):
 * point `i` is at `first_point_time + i x interval_seconds`; a full-resolution
 * reply holds every index from `from_index`, a reduced one the index of each
 * value in `indices`. No object per point: the chart's arrays are filled
 * straight from the reply's numbers.
 */

/** Points of a series, ascending by index: the index and the value (°C, null = gap) of each. */
export interface SeriesPoints {
  readonly indices: readonly number[];
  readonly values: readonly (number | null)[];
}

/** Where point 0 is and the seconds between points; null when the points cannot be placed in time. */
export interface SeriesTiming {
  readonly first: number;
  readonly interval: number;
}

export function seriesTiming(reply: TRecordSeries): SeriesTiming | null {
  const first = toSeconds(reply.first_point_time);
  const interval = reply.interval_seconds;
  if (first === null || interval === null || !(interval > 0)) return null;
  return { first, interval };
}

/** The reply's points with their indices (a full-resolution reply counts up from from_index). */
export function pointsOf(reply: TRecordSeries): SeriesPoints {
  if (reply.indices) return { indices: reply.indices, values: reply.temperatures };
  const indices = new Array<number>(reply.temperatures.length);
  for (let k = 0; k < indices.length; k++) indices[k] = reply.from_index + k;
  return { indices, values: reply.temperatures };
}

/**
 * The overview with a zoom window laid in: the overview's points before and
 * after the window, the window's (full-resolution) points inside it.
 */
export function withWindow(overview: SeriesPoints, window: TRecordSeries): SeriesPoints {
  const inner = pointsOf(window);
  if (inner.indices.length === 0) return overview;
  const from = window.from_index;
  const to = window.to_index;
  const indices: number[] = [];
  const values: (number | null)[] = [];
  let k = 0;
  while (k < overview.indices.length && overview.indices[k]! < from) {
    indices.push(overview.indices[k]!);
    values.push(overview.values[k]!);
    k++;
  }
  for (let j = 0; j < inner.indices.length; j++) {
    indices.push(inner.indices[j]!);
    values.push(inner.values[j]!);
  }
  while (k < overview.indices.length && overview.indices[k]! <= to) k++;
  for (; k < overview.indices.length; k++) {
    indices.push(overview.indices[k]!);
    values.push(overview.values[k]!);
  }
  return { indices, values };
}

/**
 * uPlot's aligned arrays: x in Unix seconds, y in the user's unit. A gap is
 * one null at its first index (a run of gaps counts once), so uPlot (spanGaps
 * false) breaks the line there; gaps are never bridged. `points`: the points
 * with a value the series holds (the whole record's count, not those drawn).
 */
export function toChartSeries(
  points: SeriesPoints,
  timing: SeriesTiming,
  unit: TDegreesUnit,
  pointCount: number,
): ChartSeries {
  const convert = createUnitConverter(unit);
  const xs: number[] = [];
  const ys: (number | null)[] = [];
  let previousGap = true;
  for (let k = 0; k < points.indices.length; k++) {
    const v = points.values[k];
    const isGap = v === null || v === undefined || !Number.isFinite(v);
    if (isGap && previousGap) continue;
    xs.push(timing.first + points.indices[k]! * timing.interval);
    ys.push(isGap ? null : convert(v));
    previousGap = isGap;
  }
  // A trailing gap marker draws nothing.
  if (ys.length > 0 && ys[ys.length - 1] === null) {
    xs.pop();
    ys.pop();
  }
  return { xs, ys, points: pointCount };
}

/** The points with a value as the keyboard and the data table read them (Celsius, as stored). */
export function toReadings(points: SeriesPoints, timing: SeriesTiming): ChartReading[] {
  const readings: ChartReading[] = [];
  for (let k = 0; k < points.indices.length; k++) {
    const v = points.values[k];
    if (v === null || v === undefined || !Number.isFinite(v)) continue;
    const index = points.indices[k]!;
    readings.push({ index, time: timing.first + index * timing.interval, temperature: v });
  }
  return readings;
}

/** ISO 8601 of Unix seconds (the window sent to the server, millisecond precision). */
export function isoOfSeconds(seconds: number): string {
  return new Date(Math.round(seconds * 1000)).toISOString();
}

/** Pixel columns asked of the server: the screen's width in device pixels, in steps of 250, 100 to 4000. */
export function seriesColumns(cssWidth: number, pixelRatio: number): number {
  const device = Math.max(1, cssWidth) * Math.min(Math.max(pixelRatio, 1), 2);
  return Math.min(4000, Math.max(100, Math.ceil(device / 250) * 250));
}
