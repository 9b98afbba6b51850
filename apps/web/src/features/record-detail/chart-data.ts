import type { TDegreesUnit, TExcursionAlarm, TTemperaturePoint, TTrip } from '@coldtrace/contract';
import { parseInstant, toDisplayUnit } from '@coldtrace/domain';
import { isAlarmClosed } from './alarm-state';

/**
 * Data preparation of the temperature chart (pure, tested): the series in the
 * user's unit with gaps as gaps, the excursion bands, the trip window and the
 * y range. Times are Unix seconds (uPlot's time scale).
 */

/** The chart's aligned data: x (Unix seconds) and y (the user's unit, null = gap). */
export interface ChartSeries {
  xs: number[];
  ys: (number | null)[];
  /** Points drawn (the gap markers not counted). */
  points: number;
}

/**
 * `toDisplayUnit` remembering what it already converted. A series holds few
 * distinct values (two decimals over a narrow range), so 100,000 points cost
 * a few thousand exact conversions, not 100,000.
 */
export function createUnitConverter(unit: TDegreesUnit): (celsius: number) => number {
  const cache = new Map<number, number>();
  return (celsius) => {
    let shown = cache.get(celsius);
    if (shown === undefined) {
      shown = toDisplayUnit(celsius, unit);
      cache.set(celsius, shown);
    }
    return shown;
  };
}

/** Seconds of an ISO 8601 instant, or null. */
export function toSeconds(value: string | null | undefined): number | null {
  if (value == null) return null;
  const fast = Date.parse(value);
  if (Number.isFinite(fast) && /(?:Z|[+-]\d{2}:\d{2})$/i.test(value)) return fast / 1000;
  const instant = parseInstant(value);
  return instant === null ? null : instant.getTime() / 1000;
}

/** A reading the chart draws: its index, time (Unix seconds) and temperature (Celsius, as stored). */
export interface ChartReading {
  index: number;
  time: number;
  temperature: number;
}

/**
 * The points the chart draws, in index order: points without a time or a
 * finite temperature left out, a repeated index counted once (the data table
 * and the keyboard read these).
 */
export function chartReadings(points: readonly TTemperaturePoint[]): ChartReading[] {
  const usable: ChartReading[] = [];
  let sorted = true;
  for (const p of points) {
    if (p.index == null || p.temperature == null || !Number.isFinite(p.temperature)) continue;
    const time = toSeconds(p.timestamp);
    if (time === null) continue;
    const last = usable[usable.length - 1];
    if (last && p.index < last.index) sorted = false;
    usable.push({ index: p.index, time, temperature: p.temperature });
  }
  if (!sorted) usable.sort((a, b) => a.index - b.index);
  const readings: ChartReading[] = [];
  for (const p of usable) {
    if (p.index !== readings[readings.length - 1]?.index) readings.push(p);
  }
  return readings;
}

/**
 * The record's points (the aggregate leaves gaps out) as chart data in the
 * user's unit. A missing index between two points becomes one null one step
 * after the earlier point, so uPlot (spanGaps false) breaks the line there:
 * gaps stay gaps, never interpolated. Points without a time or a finite
 * temperature are left out; points are ordered by index, a repeated index
 * counts once.
 */
export function buildTemperatureSeries(
  points: readonly TTemperaturePoint[],
  unit: TDegreesUnit,
): ChartSeries {
  const convert = createUnitConverter(unit);
  const xs: number[] = [];
  const ys: (number | null)[] = [];
  let previous: ChartReading | undefined;
  let count = 0;
  for (const p of chartReadings(points)) {
    if (previous) {
      const missing = p.index - previous.index;
      if (missing > 1) {
        const step = (p.time - previous.time) / missing;
        xs.push(previous.time + step);
        ys.push(null);
      }
    }
    xs.push(p.time);
    ys.push(convert(p.temperature));
    count += 1;
    previous = p;
  }
  return { xs, ys, points: count };
}

/** A shaded span of the chart, in Unix seconds. */
export interface TimeBand {
  from: number;
  to: number;
}

export interface ExcursionBand extends TimeBand {
  direction: 'ABOVE' | 'BELOW';
  /** Dismissed alarms are drawn lighter. */
  dismissed: boolean;
}

/**
 * Bands of the excursion alarms that hold (from their first to their last
 * point): red above, blue below. Cumulative alarms span the whole window (time
 * beyond a cumulative limit, not one run), so they are listed, not shaded.
 */
export function excursionBands(alarms: readonly TExcursionAlarm[]): ExcursionBand[] {
  const bands: ExcursionBand[] = [];
  for (const alarm of alarms) {
    if (alarm.kind === 'cumulative' || isAlarmClosed(alarm)) continue;
    if (alarm.above_or_below !== 'ABOVE' && alarm.above_or_below !== 'BELOW') continue;
    const from = toSeconds(alarm.start_time);
    const to = toSeconds(alarm.end_time) ?? from;
    if (from === null || to === null) continue;
    bands.push({
      from: Math.min(from, to),
      to: Math.max(from, to),
      direction: alarm.above_or_below,
      dismissed: alarm.dismissed === true,
    });
  }
  return bands.sort((a, b) => a.from - b.from);
}

/**
 * The trip window: from the trip's begin to its end or, while in transit, to
 * the last point. Null before departure.
 */
export function tripWindow(trip: TTrip | null | undefined, lastX: number | null): TimeBand | null {
  const from = toSeconds(trip?.begin_time);
  if (from === null) return null;
  const to = toSeconds(trip?.end_time) ?? lastX;
  if (to === null) return { from, to: from };
  return { from: Math.min(from, to), to: Math.max(from, to) };
}

/**
 * The y range: the data and the thresholds (so both threshold lines are in
 * view), padded by 8 % of the span and at least half a degree, rounded out to
 * whole degrees.
 */
export function temperatureRange(
  dataMin: number | null | undefined,
  dataMax: number | null | undefined,
  thresholds: readonly (number | null | undefined)[],
): [number, number] {
  const values = [dataMin, dataMax, ...thresholds].filter(
    (v): v is number => typeof v === 'number' && Number.isFinite(v),
  );
  if (values.length === 0) return [0, 10];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = Math.max((hi - lo) * 0.08, 0.5);
  return [Math.floor(lo - pad), Math.ceil(hi + pad)];
}

/** Lowest and highest value of the series, ignoring gaps. */
export function seriesExtent(ys: readonly (number | null)[]): [number, number] | null {
  let lo = Infinity;
  let hi = -Infinity;
  for (const y of ys) {
    if (y === null) continue;
    if (y < lo) lo = y;
    if (y > hi) hi = y;
  }
  return lo <= hi ? [lo, hi] : null;
}
