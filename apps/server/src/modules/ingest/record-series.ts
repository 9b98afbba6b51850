import {
  effectiveInterval,
  type AlarmThresholds,
  type Series,
  type SeriesValue,
} from '@coldtrace/domain';
import type { RecordRow } from '../../db/schema-shipments';

/**
 * A record as the domain functions take it (its series, its alarm settings),
 * the times between the database and the domain, and the fields of a patch
 * that change a row.
 */

export { asStoredTime, toDate, toSeconds } from '../../kernel/series-times';

/** The interval between points of a record: the calculated one when present, else the nominal one. */
export function recordInterval(record: RecordRow): number {
  return (
    effectiveInterval({
      measurement_interval: record.measurementInterval,
      calculated_measurement_interval: record.calculatedMeasurementInterval,
    }) ?? record.measurementInterval
  );
}

/** The series of a record as the domain functions take it (start 0 while not started). */
export function seriesOf(record: RecordRow, temps: readonly SeriesValue[]): Series {
  return {
    startTimeSeconds: record.startTimeSeconds ?? 0,
    startDelay: record.startDelay,
    intervalSeconds: recordInterval(record),
    temps,
  };
}

/** The alarm settings of a record, as the domain names them. */
export function thresholdsOf(record: RecordRow): AlarmThresholds {
  return {
    high_threshold: record.highThreshold,
    low_threshold: record.lowThreshold,
    num_consecutive_excursions: record.numConsecutiveExcursions,
    cumulative_high_threshold: record.cumulativeHighThreshold,
    cumulative_low_threshold: record.cumulativeLowThreshold,
    cumulative_duration_high: record.cumulativeDurationHigh,
    cumulative_duration_low: record.cumulativeDurationLow,
  };
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  }
  return a === b;
}

/** The fields of `next` whose value differs from `current`. */
export function changedFields<T extends object>(current: T, next: Partial<T>): Partial<T> {
  const patch: Partial<T> = {};
  for (const key of Object.keys(next) as (keyof T)[]) {
    if (!sameValue(current[key], next[key])) patch[key] = next[key];
  }
  return patch;
}
