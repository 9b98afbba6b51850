import type { TAboveOrBelow } from '@coldtrace/contract';
import { parseDurationString } from './duration';
import {
  consecutiveExcursionsRequired,
  compareAlarms,
  type AlarmThresholds,
  type DetectedAlarm,
} from './excursions';
import { CELSIUS_TO_KELVIN, MKT_ACTIVATION_ENERGY_OVER_R } from './mean-kinetic-temperature';
import { pointTime, type Series, type SeriesValue } from './series';
import {
  addToHistogram,
  copyHistogram,
  emptyHistogram,
  type BandHistogram,
} from './stability-budget';
import type { TemperatureSummary } from './temperature-summary';

/**
 * Running aggregates of a record's series (issue 13, docs/decisions/incremental-recompute.md):
 * what the temperature summary and the alarm evaluation need, kept so that
 * appending points updates them in O(new points) instead of a pass over the
 * whole series.
 *
 * - {@link emptyAggregates} starts from nothing under a {@link AggregateBasis}
 *   (the series' times, the alarm rules in force, the evaluation window);
 * - {@link appendPoints} folds the points from the end of the series on;
 * - {@link summaryOf} and {@link openAlarmsOf} answer what
 *   `temperatureSummary` and `detectExcursions` answer for the same series.
 *
 * A fold is a plain loop in index order that carries its state exactly (a
 * JSON round trip keeps every number), so folding a series packet by packet
 * gives bit for bit what one fold of the whole series gives. Points before the
 * end (a filled gap) or a change of the basis are not folds: the caller
 * starts again from {@link emptyAggregates} (property tests:
 * running-aggregates.test.ts).
 */

/** What the aggregates were computed under; any change means folding again from the start. */
export interface AggregateBasis {
  readonly startTimeSeconds: number;
  readonly startDelay: number;
  readonly intervalSeconds: number;
  readonly high: number | null;
  readonly low: number | null;
  /** Consecutive points an excursion needs ({@link consecutiveExcursionsRequired}). */
  readonly required: number;
  readonly cumulativeHigh: number | null;
  readonly cumulativeLow: number | null;
  /** Cumulative limits in seconds; null: that direction raises nothing. */
  readonly cumulativeLimitHigh: number | null;
  readonly cumulativeLimitLow: number | null;
  /** First index alarms look at (the evaluation window's start). */
  readonly windowFrom: number;
  /** Last index alarms look at; null: the end of the series, wherever it is. */
  readonly windowTo: number | null;
}

/** The points of one alarm so far (an excursion run, or a cumulative span). */
export interface SpanState {
  readonly first: number;
  readonly last: number;
  readonly count: number;
  /** Σ |T - threshold|, in index order. */
  readonly excess: number;
  readonly highest: number;
  readonly lowest: number;
}

type ByDirection<T> = { readonly ABOVE: T; readonly BELOW: T };

export interface RunningAggregates {
  /** 2: with {@link RunningAggregates.bins} (a state of version 1 is folded again from the start). */
  readonly version: 2;
  readonly basis: AggregateBasis;
  /** The series' length: index of the last value + 1 (trailing gaps are not stored). */
  readonly length: number;
  readonly count: number;
  readonly highest: number | null;
  readonly lowest: number | null;
  readonly firstIdx: number | null;
  readonly lastIdx: number | null;
  /** The value at `lastIdx` (the latest temperature). */
  readonly latest: number | null;
  /** Mean kinetic temperature as a running log-sum-exp: Σ exp(x_i - max), n values. */
  readonly mkt: { readonly max: number | null; readonly sum: number; readonly n: number };
  /** The excursion run open at the end of the series, per direction (null: none). */
  readonly runs: ByDirection<SpanState | null>;
  /** The cumulative span per direction (null: no point beyond yet). */
  readonly cumulative: ByDirection<SpanState | null>;
  /**
   * The points in the evaluation window per 0.1 °C bin (stability budgets:
   * `stability-budget.ts`), so the time beyond any band limit is known
   * without reading the series.
   */
  readonly bins: BandHistogram;
}

const DIRECTIONS = ['ABOVE', 'BELOW'] as const;

function finiteOrNull(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function limitOf(threshold: number | null, text: string | null | undefined): number | null {
  if (threshold === null || text == null) return null;
  return parseDurationString(text);
}

/**
 * The basis of a series under alarm rules and an evaluation window
 * (`windowFrom`..`windowTo` as `evaluationWindow` bounds it, `windowTo` null
 * while the window runs to the end of the series).
 */
export function aggregateBasis(
  series: Pick<Series, 'startTimeSeconds' | 'startDelay' | 'intervalSeconds'>,
  thresholds: AlarmThresholds,
  window: { from: number; to: number | null },
): AggregateBasis {
  const cumulativeHigh = finiteOrNull(thresholds.cumulative_high_threshold);
  const cumulativeLow = finiteOrNull(thresholds.cumulative_low_threshold);
  return {
    startTimeSeconds: series.startTimeSeconds,
    startDelay: series.startDelay,
    intervalSeconds: series.intervalSeconds,
    high: finiteOrNull(thresholds.high_threshold),
    low: finiteOrNull(thresholds.low_threshold),
    required: consecutiveExcursionsRequired(thresholds.num_consecutive_excursions),
    cumulativeHigh,
    cumulativeLow,
    cumulativeLimitHigh: limitOf(cumulativeHigh, thresholds.cumulative_duration_high),
    cumulativeLimitLow: limitOf(cumulativeLow, thresholds.cumulative_duration_low),
    windowFrom: Math.max(0, window.from),
    windowTo: window.to,
  };
}

/** Whether two bases are the same (aggregates of one are valid under the other). */
export function sameBasis(a: AggregateBasis, b: AggregateBasis): boolean {
  return (Object.keys(a) as (keyof AggregateBasis)[]).every((key) => Object.is(a[key], b[key]));
}

/** Nothing folded yet. */
export function emptyAggregates(basis: AggregateBasis): RunningAggregates {
  return {
    version: 2,
    basis,
    length: 0,
    count: 0,
    highest: null,
    lowest: null,
    firstIdx: null,
    lastIdx: null,
    latest: null,
    mkt: { max: null, sum: 0, n: 0 },
    runs: { ABOVE: null, BELOW: null },
    cumulative: { ABOVE: null, BELOW: null },
    bins: emptyHistogram(),
  };
}

/** A mutable copy of a span (the fold's working copy). */
type Span = { -readonly [K in keyof SpanState]: SpanState[K] };

function addTo(span: Span | null, index: number, t: number, threshold: number): Span {
  if (span === null) {
    return {
      first: index,
      last: index,
      count: 1,
      excess: Math.abs(t - threshold),
      highest: t,
      lowest: t,
    };
  }
  span.last = index;
  span.count++;
  span.excess += Math.abs(t - threshold);
  if (t > span.highest) span.highest = t;
  if (t < span.lowest) span.lowest = t;
  return span;
}

/** What a fold found besides the new state. */
export interface FoldResult {
  readonly state: RunningAggregates;
  /**
   * Excursion alarms whose run ended within the folded points (a gap, a point
   * back within limits, the window's end): final; those of at least the
   * required length, in the order they ended.
   */
  readonly closed: DetectedAlarm[];
}

/** The fold's working copy of a state, and the alarms it closed. */
interface Fold {
  count: number;
  highest: number | null;
  lowest: number | null;
  firstIdx: number | null;
  lastIdx: number | null;
  latest: number | null;
  mktMax: number | null;
  mktSum: number;
  mktN: number;
  readonly runs: Record<TAboveOrBelow, Span | null>;
  readonly cumulative: Record<TAboveOrBelow, Span | null>;
  readonly bins: ReturnType<typeof copyHistogram>;
  readonly closed: DetectedAlarm[];
}

function startFold(state: RunningAggregates): Fold {
  return {
    count: state.count,
    highest: state.highest,
    lowest: state.lowest,
    firstIdx: state.firstIdx,
    lastIdx: state.lastIdx,
    latest: state.latest,
    mktMax: state.mkt.max,
    mktSum: state.mkt.sum,
    mktN: state.mkt.n,
    runs: {
      ABOVE: state.runs.ABOVE && { ...state.runs.ABOVE },
      BELOW: state.runs.BELOW && { ...state.runs.BELOW },
    },
    cumulative: {
      ABOVE: state.cumulative.ABOVE && { ...state.cumulative.ABOVE },
      BELOW: state.cumulative.BELOW && { ...state.cumulative.BELOW },
    },
    bins: copyHistogram(state.bins),
    closed: [],
  };
}

/** The run of `direction` ends: an alarm when it lasted the required number of points. */
function closeRun(fold: Fold, basis: AggregateBasis, direction: TAboveOrBelow): void {
  const run = fold.runs[direction];
  if (run !== null && run.count >= basis.required) {
    fold.closed.push(excursionAlarm(basis, direction, run));
  }
  fold.runs[direction] = null;
}

/** A value into the statistics: count, extremes, first, last and latest, the MKT's sum. */
function foldValue(fold: Fold, index: number, t: number): void {
  fold.count++;
  if (fold.highest === null || t > fold.highest) fold.highest = t;
  if (fold.lowest === null || t < fold.lowest) fold.lowest = t;
  fold.firstIdx ??= index;
  fold.lastIdx = index;
  fold.latest = t;
  const kelvin = t + CELSIUS_TO_KELVIN;
  if (kelvin > 0) {
    const x = -MKT_ACTIVATION_ENERGY_OVER_R / kelvin;
    if (fold.mktMax === null) {
      fold.mktMax = x;
      fold.mktSum = 1;
    } else if (x > fold.mktMax) {
      fold.mktSum = fold.mktSum * Math.exp(fold.mktMax - x) + 1;
      fold.mktMax = x;
    } else {
      fold.mktSum += Math.exp(x - fold.mktMax);
    }
    fold.mktN++;
  }
}

/** A point inside the window: the runs beyond the limits, the histogram, the cumulative spans. */
function foldInWindow(fold: Fold, basis: AggregateBasis, index: number, t: number | null): void {
  const { high, low, cumulativeHigh, cumulativeLow } = basis;
  const { runs, cumulative } = fold;
  // Both directions written out: this loop is an upload's whole cost.
  if (high !== null) {
    if (t !== null && t > high) runs.ABOVE = addTo(runs.ABOVE, index, t, high);
    else if (runs.ABOVE !== null) closeRun(fold, basis, 'ABOVE');
  }
  if (low !== null) {
    if (t !== null && t < low) runs.BELOW = addTo(runs.BELOW, index, t, low);
    else if (runs.BELOW !== null) closeRun(fold, basis, 'BELOW');
  }
  if (t !== null) {
    addToHistogram(fold.bins, t);
    if (cumulativeHigh !== null && t > cumulativeHigh) {
      cumulative.ABOVE = addTo(cumulative.ABOVE, index, t, cumulativeHigh);
    }
    if (cumulativeLow !== null && t < cumulativeLow) {
      cumulative.BELOW = addTo(cumulative.BELOW, index, t, cumulativeLow);
    }
  }
}

/**
 * Folds the series values at indices `from`, `from + 1`, ... into `state`.
 * `from` must be at least `state.length` (indices in between are gaps):
 * points before the end are not a fold (start again from
 * {@link emptyAggregates}). Trailing gaps of `values` are ignored (the
 * series does not keep them).
 *
 * @throws RangeError when `from` lies before the end of the folded series.
 */
export function appendPoints(
  state: RunningAggregates,
  values: readonly SeriesValue[],
  from: number = state.length,
): FoldResult {
  if (!Number.isSafeInteger(from) || from < state.length) {
    throw new RangeError(`points from ${from} lie before the end of the series (${state.length})`);
  }
  let end = values.length;
  while (end > 0 && finiteOrNull(values[end - 1]) === null) end--;
  if (end === 0) return { state, closed: [] };

  const basis = state.basis;
  const fold = startFold(state);
  // A gap between the end and `from` ends the open runs.
  if (from > state.length) {
    closeRun(fold, basis, 'ABOVE');
    closeRun(fold, basis, 'BELOW');
  }
  const windowTo = basis.windowTo ?? Infinity;

  for (let j = 0; j < end; j++) {
    const index = from + j;
    const t = finiteOrNull(values[j]);
    if (t !== null) foldValue(fold, index, t);
    if (index >= basis.windowFrom && index <= windowTo) foldInWindow(fold, basis, index, t);
    else if (index === windowTo + 1) {
      // Outside the window: the window's end closes the runs open at it.
      closeRun(fold, basis, 'ABOVE');
      closeRun(fold, basis, 'BELOW');
    }
  }
  const { count, highest, lowest, firstIdx, lastIdx, latest, runs, cumulative, bins } = fold;
  return {
    state: {
      version: 2,
      basis,
      length: from + end,
      count,
      highest,
      lowest,
      firstIdx,
      lastIdx,
      latest,
      mkt: { max: fold.mktMax, sum: fold.mktSum, n: fold.mktN },
      runs,
      cumulative,
      bins,
    },
    closed: fold.closed,
  };
}

function alarmOf(
  basis: AggregateBasis,
  kind: DetectedAlarm['kind'],
  direction: TAboveOrBelow,
  span: SpanState,
  threshold: number,
  thresholds: { high: number | null; low: number | null },
): DetectedAlarm {
  const series = basis;
  return {
    kind,
    above_or_below: direction,
    first_point_idx: span.first,
    last_point_idx: span.last,
    start_time: pointTime(series, span.first),
    end_time: pointTime(series, span.last),
    duration: span.count * basis.intervalSeconds,
    degree_minutes: (span.excess * basis.intervalSeconds) / 60,
    highest_recorded_temperature: span.highest,
    lowest_recorded_temperature: span.lowest,
    high_threshold: thresholds.high,
    low_threshold: thresholds.low,
    threshold,
    number_of_points: span.count,
  };
}

function excursionAlarm(basis: AggregateBasis, direction: TAboveOrBelow, run: SpanState) {
  const threshold = (direction === 'ABOVE' ? basis.high : basis.low)!;
  return alarmOf(basis, 'excursion', direction, run, threshold, {
    high: basis.high,
    low: basis.low,
  });
}

/**
 * The alarms the state still holds open to change: the excursion run open at
 * the end (when long enough) and the cumulative spans over their limit,
 * sorted like `detectExcursions`. With the {@link FoldResult.closed} alarms
 * of every fold since {@link emptyAggregates}, they are exactly what
 * `detectExcursions` finds over the window.
 */
export function openAlarmsOf(state: RunningAggregates): DetectedAlarm[] {
  const basis = state.basis;
  const alarms: DetectedAlarm[] = [];
  for (const direction of DIRECTIONS) {
    const run = state.runs[direction];
    if (run !== null && run.count >= basis.required) {
      alarms.push(excursionAlarm(basis, direction, run));
    }
  }
  const limits = { ABOVE: basis.cumulativeLimitHigh, BELOW: basis.cumulativeLimitLow };
  const thresholds = { ABOVE: basis.cumulativeHigh, BELOW: basis.cumulativeLow };
  for (const direction of DIRECTIONS) {
    const span = state.cumulative[direction];
    const limit = limits[direction];
    if (span === null || limit === null) continue;
    if (span.count * basis.intervalSeconds > limit) {
      alarms.push(
        alarmOf(basis, 'cumulative', direction, span, thresholds[direction]!, {
          high: basis.cumulativeHigh,
          low: basis.cumulativeLow,
        }),
      );
    }
  }
  return alarms.sort(compareAlarms);
}

/**
 * The keys (`alarmKey`) of the alarms a fold from `state` on may change:
 * the open runs' and the cumulative spans'. Every other alarm found so far
 * is final.
 */
export function changeableAlarmStarts(
  state: RunningAggregates,
): { kind: DetectedAlarm['kind']; above_or_below: TAboveOrBelow; first_point_idx: number }[] {
  const out: {
    kind: DetectedAlarm['kind'];
    above_or_below: TAboveOrBelow;
    first_point_idx: number;
  }[] = [];
  for (const direction of DIRECTIONS) {
    const run = state.runs[direction];
    if (run !== null)
      out.push({ kind: 'excursion', above_or_below: direction, first_point_idx: run.first });
    const span = state.cumulative[direction];
    if (span !== null) {
      out.push({ kind: 'cumulative', above_or_below: direction, first_point_idx: span.first });
    }
  }
  return out;
}

/** The temperature summary of the whole series, as `temperatureSummary` answers it. */
export function summaryOf(state: RunningAggregates): TemperatureSummary {
  const { firstIdx, lastIdx, basis, mkt } = state;
  const first = firstIdx === null ? null : pointTime(basis, firstIdx);
  const last = lastIdx === null ? null : pointTime(basis, lastIdx);
  return {
    highest_recorded_temperature: state.highest,
    lowest_recorded_temperature: state.lowest,
    number_of_points: state.count,
    first_point: first,
    last_point: last,
    record_duration:
      firstIdx === null || lastIdx === null ? null : (lastIdx - firstIdx) * basis.intervalSeconds,
    mean_kinetic_temp:
      mkt.max === null || mkt.n === 0
        ? null
        : MKT_ACTIVATION_ENERGY_OVER_R / -(mkt.max + Math.log(mkt.sum / mkt.n)) - CELSIUS_TO_KELVIN,
  };
}

/**
 * Whether a JSON value (as stored) is a state of this version; anything else
 * is ignored and the record folded again from the start.
 */
export function isRunningAggregates(value: unknown): value is RunningAggregates {
  return isState(value) && typeof (value as { basis?: unknown }).basis === 'object';
}

function isState(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { version?: unknown }).version === 2 &&
    typeof (value as { length?: unknown }).length === 'number' &&
    typeof (value as { bins?: unknown }).bins === 'object'
  );
}

/**
 * Aggregates with checkpoints: the exact states of the fold at the last
 * `keep` multiples of `every` it passed (the series' chunk boundaries), so
 * a late point (a gap filled before the end) is folded again from the newest
 * checkpoint before it instead of from the start.
 */
export interface TrackedAggregates {
  readonly current: RunningAggregates;
  /** Oldest first; each a state {@link appendPoints} can continue from. */
  readonly checkpoints: readonly Checkpoint[];
}

export interface CheckpointOptions {
  /** Take a checkpoint at every multiple of this index (the chunk size). */
  readonly every: number;
  /** Checkpoints kept (the newest ones). */
  readonly keep: number;
}

/** A state of the fold without its basis (the current state's: a new basis starts over). */
export type Checkpoint = Omit<RunningAggregates, 'basis'>;

/** Nothing folded yet, no checkpoints. */
export function emptyTracked(basis: AggregateBasis): TrackedAggregates {
  return { current: emptyAggregates(basis), checkpoints: [] };
}

/**
 * {@link appendPoints} on tracked aggregates: the same state (the values are
 * folded in pieces cut at the multiples of `every`, which gives bit for bit
 * what one fold gives), and a checkpoint taken before each multiple folded.
 */
export function appendTracked(
  tracked: TrackedAggregates,
  values: readonly SeriesValue[],
  from: number,
  options: CheckpointOptions,
): { tracked: TrackedAggregates; closed: DetectedAlarm[] } {
  let state = tracked.current;
  const checkpoints = [...tracked.checkpoints];
  const closed: DetectedAlarm[] = [];
  let j = 0;
  while (j < values.length) {
    const index = from + j;
    if (index > 0 && index % options.every === 0 && checkpoints.at(-1)?.length !== state.length) {
      const { basis: _basis, ...checkpoint } = state;
      checkpoints.push(checkpoint);
      if (checkpoints.length > options.keep) checkpoints.shift();
    }
    const boundary = (Math.floor(index / options.every) + 1) * options.every;
    const end = Math.min(values.length, boundary - from);
    const piece = appendPoints(state, values.slice(j, end), index);
    state = piece.state;
    closed.push(...piece.closed);
    j = end;
  }
  return { tracked: { current: state, checkpoints }, closed };
}

/**
 * The newest checkpoint a change at `index` (and after) can be folded again
 * from: tracked aggregates holding it and the checkpoints before it, or null
 * when none lies at or before `index` (fold from the start).
 */
export function rewindTo(tracked: TrackedAggregates, index: number): TrackedAggregates | null {
  for (let k = tracked.checkpoints.length - 1; k >= 0; k--) {
    const checkpoint = tracked.checkpoints[k]!;
    if (checkpoint.length <= index) {
      return {
        current: { ...checkpoint, basis: tracked.current.basis },
        checkpoints: tracked.checkpoints.slice(0, k),
      };
    }
  }
  return null;
}

/** Whether a JSON value (as stored) is tracked aggregates of this version. */
export function isTrackedAggregates(value: unknown): value is TrackedAggregates {
  const v = value as { current?: unknown; checkpoints?: unknown } | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    isRunningAggregates(v.current) &&
    Array.isArray(v.checkpoints) &&
    v.checkpoints.every(isState)
  );
}
