import { pointTime, type Series } from './series';

/**
 * The evaluation window of a record (domain rules §2): the points alarms are
 * evaluated on.
 *
 * - The trip window when the trip has a `begin_time`: from `begin_time` to
 *   `end_time`, or to the last point of the series while the trip has no
 *   `end_time` (in transit).
 * - Otherwise the whole series (an `end_time` without a `begin_time` does not
 *   narrow it).
 *
 * Both ends are inclusive: a point taken exactly at `begin_time` or at
 * `end_time` is inside the window.
 */

/** An inclusive range of point indices; `null` is the empty window. */
export type IndexWindow = { readonly firstIdx: number; readonly lastIdx: number } | null;

/** Trip times in UTC epoch seconds. */
export interface TripTimes {
  readonly begin_time?: number | null;
  readonly end_time?: number | null;
}

/** The whole series as a window (`null` when it has no index). */
export function wholeSeries(series: Pick<Series, 'temps'>): IndexWindow {
  return series.temps.length === 0 ? null : { firstIdx: 0, lastIdx: series.temps.length - 1 };
}

function assertArguments(series: Series, time: number): void {
  if (!Number.isFinite(time)) throw new RangeError(`time must be finite: ${time}`);
  if (!Number.isFinite(series.intervalSeconds) || series.intervalSeconds <= 0) {
    throw new RangeError(
      `interval must be a positive number of seconds: ${series.intervalSeconds}`,
    );
  }
}

/** Smallest index whose point time is at or after `time` (may be past the end). */
export function firstIndexAtOrAfter(series: Series, time: number): number {
  assertArguments(series, time);
  const raw = (time - pointTime(series, 0)) / series.intervalSeconds;
  let i = Math.max(0, Math.ceil(raw));
  // Guard against floating-point error at exact boundaries.
  while (i > 0 && pointTime(series, i - 1) >= time) i--;
  while (pointTime(series, i) < time) i++;
  return i;
}

/** Largest index whose point time is at or before `time` (-1 when none). */
export function lastIndexAtOrBefore(series: Series, time: number): number {
  assertArguments(series, time);
  const raw = (time - pointTime(series, 0)) / series.intervalSeconds;
  if (raw < -1) return -1;
  let i = Math.floor(raw);
  while (pointTime(series, i + 1) <= time) i++;
  while (i >= 0 && pointTime(series, i) > time) i--;
  return Math.max(i, -1);
}

/** The evaluation window of `series` for a trip (see the module comment). */
export function evaluationWindow(series: Series, trip?: TripTimes | null): IndexWindow {
  const whole = wholeSeries(series);
  if (whole === null) return null;
  const begin = trip?.begin_time;
  if (begin == null || !Number.isFinite(begin)) return whole;

  const firstIdx = firstIndexAtOrAfter(series, begin);
  const end = trip?.end_time;
  const lastIdx =
    end == null || !Number.isFinite(end)
      ? whole.lastIdx
      : Math.min(whole.lastIdx, lastIndexAtOrBefore(series, end));
  return firstIdx <= lastIdx ? { firstIdx, lastIdx } : null;
}

/** Whether `index` lies in `window`. */
export function inWindow(window: IndexWindow, index: number): boolean {
  return window !== null && index >= window.firstIdx && index <= window.lastIdx;
}

/**
 * The evaluation window's bounds as indices independent of the series' length
 * (what the running aggregates keep): the whole series (`to` null: to its end,
 * wherever it is) until the record started and its trip began; else from the
 * trip's begin to its end (null while in transit). Times in epoch seconds.
 */
export function windowIndices(
  times: Pick<Series, 'startTimeSeconds' | 'startDelay' | 'intervalSeconds'>,
  trip: { begin: number | null; end: number | null },
  started: boolean,
): { from: number; to: number | null } {
  const series: Series = { ...times, temps: [] };
  const usable = Number.isFinite(times.intervalSeconds) && times.intervalSeconds > 0;
  if (!started || !usable || trip.begin === null || !Number.isFinite(trip.begin)) {
    return { from: 0, to: null };
  }
  const from = firstIndexAtOrAfter(series, trip.begin);
  const to =
    trip.end === null || !Number.isFinite(trip.end) ? null : lastIndexAtOrBefore(series, trip.end);
  return { from, to };
}
