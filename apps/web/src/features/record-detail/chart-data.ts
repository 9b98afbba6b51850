import type { TDegreesUnit, TExcursionAlarm, TTrip } from '@coldtrace/contract';
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
    if ((alarm.kind ?? 'excursion') !== 'excursion' || isAlarmClosed(alarm)) continue;
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

/**
 * Whether the span `min`..`max` (Unix seconds) shows the whole of `xs`: the
 * chart is not zoomed in, so new points of a running record widen it.
 */
export function showsWhole(xs: readonly number[], min: number, max: number): boolean {
  const first = xs[0];
  const last = xs[xs.length - 1];
  if (first === undefined || last === undefined) return true;
  return min <= first && max >= last;
}
