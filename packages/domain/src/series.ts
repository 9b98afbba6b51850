/**
 * The temperature series of a record (domain rules §1).
 *
 * Point `i` (0-based) is taken at `start_time_seconds + start_delay + i * interval`
 * (UTC epoch seconds), where `interval` is `calculated_measurement_interval` when
 * present, else `measurement_interval`. A `null` entry is a gap: a point the
 * server has not received (or the tag did not record). Gaps are never
 * interpolated: every computation skips them, and an excursion run stops at one.
 */

/** A point value: degrees Celsius, or `null` for a gap. */
export type SeriesValue = number | null;

export interface Series {
  /** `start_time_seconds` of the record (UTC epoch seconds). */
  readonly startTimeSeconds: number;
  /** `start_delay` of the record (seconds). */
  readonly startDelay: number;
  /** The effective interval between points, seconds ({@link effectiveInterval}). */
  readonly intervalSeconds: number;
  /** Point values by index, degrees Celsius; `null` is a gap. */
  readonly temps: readonly SeriesValue[];
}

/** The interval fields of a record, scan upload or tag settings. */
export interface IntervalFields {
  readonly measurement_interval?: number | null;
  readonly calculated_measurement_interval?: number | null;
}

function isPositiveFinite(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/**
 * The interval between points in seconds: `calculated_measurement_interval` when
 * present, else `measurement_interval` (domain rules §1).
 *
 * "Present" means a positive finite number: a `0`, negative or non-finite
 * calculated interval is treated as absent (the tag could not calculate one).
 * Returns `null` when neither field is usable.
 */
export function effectiveInterval(record: IntervalFields): number | null {
  if (isPositiveFinite(record.calculated_measurement_interval)) {
    return record.calculated_measurement_interval;
  }
  if (isPositiveFinite(record.measurement_interval)) return record.measurement_interval;
  return null;
}

/** Timestamp (UTC epoch seconds) of point `index`; defined for any index, stored or not. */
export function pointTime(
  series: Pick<Series, 'startTimeSeconds' | 'startDelay' | 'intervalSeconds'>,
  index: number,
): number {
  return series.startTimeSeconds + series.startDelay + index * series.intervalSeconds;
}

/** A point whose stored value differs from the one an upload offered. */
export interface MergeConflict {
  readonly index: number;
  /** The value already stored; it stays. */
  readonly kept: number;
  /** The value the upload carried; it is logged, not stored. */
  readonly offered: number;
}

export interface MergeResult {
  /** The merged series values (a new array; the input is not modified). */
  readonly temps: SeriesValue[];
  /** How many gaps (or new indices) the slice filled. */
  readonly added: number;
  /** Points where the slice offered a different value than the stored one. */
  readonly conflicts: MergeConflict[];
}

/** A finite number is a value; `null`, `undefined`, `NaN` and infinities are gaps. */
function asValue(value: SeriesValue | undefined): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/**
 * Merges an upload's `temps` slice, which begins at `offsetIndex`
 * (`temperatures_offset_index`, default 0), into the stored series values.
 *
 * - A point that already has a value keeps it. The same value offered again is
 *   a no-op; a different value is reported in `conflicts` (to be logged).
 * - A gap (or an index beyond the stored end) takes the offered value.
 * - A `null` (or non-finite) value in the slice offers nothing: it neither fills
 *   nor conflicts. The series still grows to cover the slice, so the result's
 *   length is `max(existing.length, offsetIndex + slice.length)`; indices
 *   between the old end and the slice are gaps.
 * - Non-finite stored values are normalised to gaps.
 *
 * Hence merging is idempotent, and merging slices cut from one series gives the
 * same result in any order and with any repeats.
 *
 * @throws RangeError when `offsetIndex` is not a non-negative safe integer.
 */
export function mergeSlice(
  existing: readonly SeriesValue[],
  offsetIndex: number,
  slice: readonly SeriesValue[],
): MergeResult {
  if (!Number.isSafeInteger(offsetIndex) || offsetIndex < 0) {
    throw new RangeError(
      `temperatures_offset_index must be a non-negative integer: ${offsetIndex}`,
    );
  }
  const length = Math.max(existing.length, offsetIndex + slice.length);
  const temps: SeriesValue[] = new Array<SeriesValue>(length);
  for (let i = 0; i < length; i++) temps[i] = asValue(existing[i]);

  let added = 0;
  const conflicts: MergeConflict[] = [];
  slice.forEach((raw, j) => {
    const offered = asValue(raw);
    if (offered === null) return;
    const index = offsetIndex + j;
    const kept = temps[index] ?? null;
    if (kept === null) {
      temps[index] = offered;
      added++;
    } else if (kept !== offered) {
      conflicts.push({ index, kept, offered });
    }
  });
  return { temps, added, conflicts };
}
