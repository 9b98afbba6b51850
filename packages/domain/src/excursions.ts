import {
  DEFAULT_NUM_CONSECUTIVE_EXCURSIONS,
  type TAboveOrBelow,
  type TAlarmStatus,
} from '@coldtrace/contract';
import { parseDurationString } from './duration';
import { wholeSeries, type IndexWindow } from './evaluation-window';
import { pointTime, type Series } from './series';

/**
 * Excursion alarms (domain rules §2).
 *
 * - Excursion (kind `excursion`): at least `num_consecutive_excursions`
 *   (default 1) consecutive points strictly above `high_threshold` (ABOVE) or
 *   strictly below `low_threshold` (BELOW). The alarm spans the whole run. A gap
 *   (`null`) ends a run; so does the edge of the evaluation window.
 * - Cumulative (kind `cumulative`): the total time of the points strictly above
 *   `cumulative_high_threshold` within the window, each point counting one
 *   interval, exceeds (strictly) `cumulative_duration_high` (`[DD ]HH:MM:SS`);
 *   likewise below `cumulative_low_threshold` / `cumulative_duration_low`. At
 *   most one cumulative alarm per direction, spanning the first to the last
 *   contributing point.
 * - A direction whose threshold (or, for cumulative, threshold or duration) is
 *   `null`, absent, non-finite or unparseable raises nothing.
 *
 * Only points inside the evaluation window are looked at. Times are UTC epoch
 * seconds, durations seconds, temperatures °C.
 */

/** budget: raised by the server when a stability budget band is used up (stability-budget.ts), never by {@link detectExcursions}. */
export type AlarmKind = 'excursion' | 'cumulative' | 'budget';

/** The threshold fields of a record (or product definition) that alarms use. */
export interface AlarmThresholds {
  readonly high_threshold?: number | null;
  readonly low_threshold?: number | null;
  readonly num_consecutive_excursions?: number | null;
  readonly cumulative_high_threshold?: number | null;
  readonly cumulative_low_threshold?: number | null;
  readonly cumulative_duration_high?: string | null;
  readonly cumulative_duration_low?: string | null;
}

/** An alarm as evaluation finds it (no id, no acknowledgement or dismissal). */
export interface DetectedAlarm {
  readonly kind: AlarmKind;
  readonly above_or_below: TAboveOrBelow;
  /** Index of the first point of the run (cumulative: first contributing point). */
  readonly first_point_idx: number;
  /** Index of the last point of the run (cumulative: last contributing point). */
  readonly last_point_idx: number;
  /** Time of the first point, UTC epoch seconds. */
  readonly start_time: number;
  /** Time of the last point, UTC epoch seconds. */
  readonly end_time: number;
  /** Seconds: number of points (in the run, or contributing) x interval. */
  readonly duration: number;
  /** Σ |T - threshold| x interval in minutes, over the same points. */
  readonly degree_minutes: number;
  readonly highest_recorded_temperature: number;
  readonly lowest_recorded_temperature: number;
  /**
   * The thresholds in force: `high_threshold` / `low_threshold` for an
   * excursion alarm, `cumulative_high_threshold` / `cumulative_low_threshold`
   * for a cumulative one (the limits that alarm is measured against).
   */
  readonly high_threshold: number | null;
  readonly low_threshold: number | null;
  /** The one threshold this alarm is measured against (the one above, by direction). */
  readonly threshold: number;
  /** Number of points in the run (cumulative: contributing points). */
  readonly number_of_points: number;
}

const ALARM_FIELDS = [
  'kind',
  'above_or_below',
  'first_point_idx',
  'last_point_idx',
  'start_time',
  'end_time',
  'duration',
  'degree_minutes',
  'highest_recorded_temperature',
  'lowest_recorded_temperature',
  'high_threshold',
  'low_threshold',
  'threshold',
  'number_of_points',
] as const satisfies readonly (keyof DetectedAlarm)[];

function finiteOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * `num_consecutive_excursions` as used: default 1 when absent; a value below 1
 * counts as 1 and a fractional one is rounded up (a run has whole points).
 */
export function consecutiveExcursionsRequired(value: number | null | undefined): number {
  if (value == null || !Number.isFinite(value)) return DEFAULT_NUM_CONSECUTIVE_EXCURSIONS;
  return Math.max(1, Math.ceil(value));
}

function isBeyond(t: number, threshold: number, direction: TAboveOrBelow): boolean {
  return direction === 'ABOVE' ? t > threshold : t < threshold;
}

/** Clamps a window to the stored indices of the series (`null` when nothing is left). */
function clampWindow(series: Series, window: IndexWindow): IndexWindow {
  if (window === null) return null;
  const firstIdx = Math.max(0, Math.ceil(window.firstIdx));
  const lastIdx = Math.min(series.temps.length - 1, Math.floor(window.lastIdx));
  return firstIdx <= lastIdx ? { firstIdx, lastIdx } : null;
}

/** Accumulates the points of one alarm. */
class PointSpan {
  first = -1;
  last = -1;
  count = 0;
  excess = 0;
  highest = -Infinity;
  lowest = Infinity;

  add(index: number, t: number, threshold: number): void {
    if (this.count === 0) this.first = index;
    this.last = index;
    this.count++;
    this.excess += Math.abs(t - threshold);
    if (t > this.highest) this.highest = t;
    if (t < this.lowest) this.lowest = t;
  }

  toAlarm(
    series: Series,
    kind: AlarmKind,
    direction: TAboveOrBelow,
    threshold: number,
    thresholds: { high: number | null; low: number | null },
  ): DetectedAlarm {
    return {
      kind,
      above_or_below: direction,
      first_point_idx: this.first,
      last_point_idx: this.last,
      start_time: pointTime(series, this.first),
      end_time: pointTime(series, this.last),
      duration: this.count * series.intervalSeconds,
      degree_minutes: (this.excess * series.intervalSeconds) / 60,
      highest_recorded_temperature: this.highest,
      lowest_recorded_temperature: this.lowest,
      high_threshold: thresholds.high,
      low_threshold: thresholds.low,
      threshold,
      number_of_points: this.count,
    };
  }
}

function excursionRuns(
  series: Series,
  window: NonNullable<IndexWindow>,
  direction: TAboveOrBelow,
  threshold: number,
  required: number,
  thresholds: { high: number | null; low: number | null },
): DetectedAlarm[] {
  const alarms: DetectedAlarm[] = [];
  let run = new PointSpan();
  const close = (): void => {
    if (run.count >= required) {
      alarms.push(run.toAlarm(series, 'excursion', direction, threshold, thresholds));
    }
    run = new PointSpan();
  };
  for (let i = window.firstIdx; i <= window.lastIdx; i++) {
    const t = finiteOrNull(series.temps[i]);
    if (t !== null && isBeyond(t, threshold, direction)) run.add(i, t, threshold);
    else close();
  }
  close();
  return alarms;
}

function cumulativeSpan(
  series: Series,
  window: NonNullable<IndexWindow>,
  direction: TAboveOrBelow,
  threshold: number,
): PointSpan {
  const span = new PointSpan();
  for (let i = window.firstIdx; i <= window.lastIdx; i++) {
    const t = finiteOrNull(series.temps[i]);
    if (t !== null && isBeyond(t, threshold, direction)) span.add(i, t, threshold);
  }
  return span;
}

/**
 * Total time (seconds) of the points strictly beyond `threshold` in
 * `direction` within `window` (each point counts one interval, consecutive or
 * not). 0 when `threshold` is absent.
 */
export function timeBeyond(
  series: Series,
  threshold: number | null | undefined,
  direction: TAboveOrBelow,
  window: IndexWindow = wholeSeries(series),
): number {
  const th = finiteOrNull(threshold);
  const clamped = clampWindow(series, window);
  if (th === null || clamped === null) return 0;
  return cumulativeSpan(series, clamped, direction, th).count * series.intervalSeconds;
}

const DIRECTION_ORDER: Record<TAboveOrBelow, number> = { ABOVE: 0, BELOW: 1 };
const KIND_ORDER: Record<AlarmKind, number> = { excursion: 0, cumulative: 1, budget: 2 };

/** Orders alarms by first point, then ABOVE before BELOW, then excursion before cumulative. */
export function compareAlarms(a: AlarmKeyFields, b: AlarmKeyFields): number {
  return (
    a.first_point_idx - b.first_point_idx ||
    DIRECTION_ORDER[a.above_or_below] - DIRECTION_ORDER[b.above_or_below] ||
    KIND_ORDER[a.kind] - KIND_ORDER[b.kind]
  );
}

/**
 * Every alarm of `series` within `window` (default: the whole series; use
 * `evaluationWindow` for the trip window), sorted by {@link compareAlarms}.
 */
export function detectExcursions(
  series: Series,
  thresholds: AlarmThresholds,
  window: IndexWindow = wholeSeries(series),
): DetectedAlarm[] {
  const clamped = clampWindow(series, window);
  if (clamped === null) return [];
  const alarms: DetectedAlarm[] = [];

  const high = finiteOrNull(thresholds.high_threshold);
  const low = finiteOrNull(thresholds.low_threshold);
  const excursionThresholds = { high, low };
  const required = consecutiveExcursionsRequired(thresholds.num_consecutive_excursions);
  if (high !== null) {
    alarms.push(...excursionRuns(series, clamped, 'ABOVE', high, required, excursionThresholds));
  }
  if (low !== null) {
    alarms.push(...excursionRuns(series, clamped, 'BELOW', low, required, excursionThresholds));
  }

  const cumulativeHigh = finiteOrNull(thresholds.cumulative_high_threshold);
  const cumulativeLow = finiteOrNull(thresholds.cumulative_low_threshold);
  const cumulativeThresholds = { high: cumulativeHigh, low: cumulativeLow };
  const cumulative: [TAboveOrBelow, number | null, string | null | undefined][] = [
    ['ABOVE', cumulativeHigh, thresholds.cumulative_duration_high],
    ['BELOW', cumulativeLow, thresholds.cumulative_duration_low],
  ];
  for (const [direction, threshold, limitText] of cumulative) {
    if (threshold === null || limitText == null) continue;
    const limit = parseDurationString(limitText);
    if (limit === null) continue;
    const span = cumulativeSpan(series, clamped, direction, threshold);
    if (span.count > 0 && span.count * series.intervalSeconds > limit) {
      alarms.push(span.toAlarm(series, 'cumulative', direction, threshold, cumulativeThresholds));
    }
  }

  return alarms.sort(compareAlarms);
}

/** The fields that identify an alarm of a record (domain rules §2). */
export type AlarmKeyFields = Pick<DetectedAlarm, 'above_or_below' | 'kind' | 'first_point_idx'>;

/**
 * The key re-evaluation updates alarms by: direction, kind and first point
 * (the record is implied: keys are compared within one record).
 */
export function alarmKey(alarm: AlarmKeyFields): string {
  return `${alarm.above_or_below}:${alarm.kind}:${alarm.first_point_idx}`;
}

/**
 * A stored alarm: the detected fields (any of them may be missing on old
 * rows), plus whatever the store keeps (id, acknowledgement, dismissal, ...).
 * `resolved` marks an alarm a previous evaluation found no longer holding.
 */
export type StoredAlarmLike = AlarmKeyFields &
  Partial<Omit<DetectedAlarm, keyof AlarmKeyFields>> & { readonly resolved?: boolean | null };

export type ReconcilableField = keyof DetectedAlarm;

export interface AlarmUpdate<E extends StoredAlarmLike> {
  /** The stored alarm as it was. */
  readonly existing: E;
  /**
   * The stored alarm with the detected fields applied. Every other field (id,
   * acknowledged, dismissed, ...) is the existing one.
   */
  readonly next: E;
  /** The fields whose value changed. */
  readonly changed: ReconcilableField[];
}

export interface AlarmReconciliation<E extends StoredAlarmLike> {
  /** Detected alarms with no stored alarm of the same key: store them as new alarms. */
  readonly insert: DetectedAlarm[];
  /** Stored alarms whose key was detected again with different values: update in place. */
  readonly update: AlarmUpdate<E>[];
  /** Stored alarms detected again exactly as stored. */
  readonly unchanged: E[];
  /**
   * Stored open alarms whose key was not detected: they no longer hold. Close
   * them; never delete them, so acknowledgements and dismissals stay.
   */
  readonly resolved: E[];
}

/**
 * Compares the alarms a re-evaluation found with the stored alarms of the same
 * record, by {@link alarmKey}. Nothing is modified. If two stored alarms share
 * a key, the first is matched and the others are treated as not detected.
 *
 * An alarm whose run now starts at another point (a filled gap before it, a
 * moved trip window) has a new key: the old one is reported resolved (with
 * its acknowledgement) and the new one inserted.
 *
 * Closed (`resolved`) alarms are evidence and are never matched: once closed,
 * an alarm is never opened again, and an excursion found again later with the
 * same key is a new alarm (docs/decisions/alarm-lifecycle.md).
 */
export function reconcileAlarms<E extends StoredAlarmLike>(
  existing: readonly E[],
  detected: readonly DetectedAlarm[],
): AlarmReconciliation<E> {
  const open = existing.filter((alarm) => alarm.resolved !== true);
  const byKey = new Map<string, E>();
  for (const alarm of open) {
    const key = alarmKey(alarm);
    if (!byKey.has(key)) byKey.set(key, alarm);
  }

  const matched = new Set<E>();
  const insert: DetectedAlarm[] = [];
  const update: AlarmUpdate<E>[] = [];
  const unchanged: E[] = [];
  for (const alarm of detected) {
    const stored = byKey.get(alarmKey(alarm));
    if (stored === undefined || matched.has(stored)) {
      insert.push(alarm);
      continue;
    }
    matched.add(stored);
    const changed: ReconcilableField[] = ALARM_FIELDS.filter(
      (field) => stored[field] !== alarm[field],
    );
    if (changed.length === 0) {
      unchanged.push(stored);
      continue;
    }
    const next: E = { ...stored };
    const writable = next as Record<string, unknown>;
    for (const field of ALARM_FIELDS) writable[field] = alarm[field];
    update.push({ existing: stored, next, changed });
  }

  const resolved = open.filter((alarm) => !matched.has(alarm));
  return { insert, update, unchanged, resolved };
}

/** The fields record status looks at. */
export interface AlarmFlags {
  readonly dismissed?: boolean | null;
  readonly resolved?: boolean | null;
}

/**
 * Record `status`: `Alarm` when the record has any alarm that still holds
 * (resolved alarms do not count), else `OK`.
 */
export function recordStatus(alarms: readonly AlarmFlags[]): TAlarmStatus {
  return alarms.some((alarm) => alarm.resolved !== true) ? 'Alarm' : 'OK';
}

/** Record `computed_status`: like {@link recordStatus}, ignoring dismissed alarms. */
export function computedStatus(alarms: readonly AlarmFlags[]): TAlarmStatus {
  return alarms.some((alarm) => alarm.resolved !== true && alarm.dismissed !== true)
    ? 'Alarm'
    : 'OK';
}
