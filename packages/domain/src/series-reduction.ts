import type { SeriesValue } from './series';

/**
 * Reduction of a long temperature series to what a chart of `width` pixel
 * columns can show (issue 13, docs/decisions/compact-series.md).
 *
 * The points are cut into `width` buckets of `bucketSize` consecutive points
 * (the last one may be shorter). Each bucket keeps, in index order:
 * - its lowest and its highest value (the first of equal ones), so the
 *   drawn shape and every extreme stay as they are;
 * - one gap (`null`) at its first missing point when it has any, so the line
 *   still breaks where data is missing (gaps are never bridged);
 * - every point in excursion (strictly above `high` or strictly below `low`)
 *   exactly, at its own index.
 * Hence a bucket keeps at most 3 points plus its excursion points. A series
 * of at most 2 x `width` points is returned unchanged (min and max per
 * column would not make it smaller).
 */

export interface ReductionOptions {
  /** Pixel columns of the chart (a positive integer). */
  readonly width: number;
  /** High threshold (°C): a point strictly above it is in excursion and kept. */
  readonly high?: number | null | undefined;
  /** Low threshold (°C): a point strictly below it is in excursion and kept. */
  readonly low?: number | null | undefined;
}

export interface ReducedSeries {
  /** Whether points were dropped (false: `values` is the input, every point). */
  readonly reduced: boolean;
  /** Consecutive points per bucket (1 when not reduced). */
  readonly bucketSize: number;
  /** Position in the input of each kept value, ascending (null when not reduced: all of them). */
  readonly indices: number[] | null;
  /** The kept values (`null` marks a gap). */
  readonly values: SeriesValue[];
}

/** A finite number is a value; anything else is a gap. */
function isValue(v: SeriesValue | undefined): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}

/** Whether `v` is beyond a threshold (strictly above high or strictly below low). */
export function isExcursionValue(
  v: SeriesValue | undefined,
  high: number | null | undefined,
  low: number | null | undefined,
): boolean {
  if (!isValue(v)) return false;
  return (isValue(high) && v > high) || (isValue(low) && v < low);
}

/** Points per bucket when `length` points are drawn on `width` columns (1 when nothing is reduced). */
export function bucketSizeFor(length: number, width: number): number {
  if (!Number.isSafeInteger(width) || width < 1) {
    throw new RangeError(`width must be a positive integer: ${width}`);
  }
  return length <= 2 * width ? 1 : Math.ceil(length / width);
}

/** `temps` reduced to `options.width` columns (see the module comment). */
export function reduceSeries(
  temps: readonly SeriesValue[],
  options: ReductionOptions,
): ReducedSeries {
  const bucketSize = bucketSizeFor(temps.length, options.width);
  if (bucketSize === 1) {
    return {
      reduced: false,
      bucketSize: 1,
      indices: null,
      values: temps.map((v) => (isValue(v) ? v : null)),
    };
  }
  const high = isValue(options.high) ? options.high : null;
  const low = isValue(options.low) ? options.low : null;
  const indices: number[] = [];
  const values: SeriesValue[] = [];
  for (let start = 0; start < temps.length; start += bucketSize) {
    const end = Math.min(start + bucketSize, temps.length);
    let minAt = -1;
    let maxAt = -1;
    let gapAt = -1;
    let excursions = 0;
    for (let i = start; i < end; i++) {
      const v = temps[i];
      if (!isValue(v)) {
        if (gapAt < 0) gapAt = i;
        continue;
      }
      if (minAt < 0 || v < (temps[minAt] as number)) minAt = i;
      if (maxAt < 0 || v > (temps[maxAt] as number)) maxAt = i;
      if ((high !== null && v > high) || (low !== null && v < low)) excursions++;
    }
    if (excursions === 0) {
      // At most three points: in index order.
      const kept = [minAt, maxAt, gapAt].filter((i) => i >= 0).sort((a, b) => a - b);
      let last = -1;
      for (const i of kept) {
        if (i === last) continue;
        last = i;
        indices.push(i);
        values.push(isValue(temps[i]) ? (temps[i] as number) : null);
      }
      continue;
    }
    for (let i = start; i < end; i++) {
      const v = temps[i];
      const keep =
        i === minAt ||
        i === maxAt ||
        i === gapAt ||
        (isValue(v) && ((high !== null && v > high) || (low !== null && v < low)));
      if (!keep) continue;
      indices.push(i);
      values.push(isValue(v) ? v : null);
    }
  }
  return { reduced: true, bucketSize, indices, values };
}
