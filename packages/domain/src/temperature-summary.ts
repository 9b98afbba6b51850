import { wholeSeries, type IndexWindow } from './evaluation-window';
import { meanKineticTemperature } from './mean-kinetic-temperature';
import { pointTime, type Series } from './series';

/**
 * The temperature summary of a record (domain rules §3), named like the
 * record's fields so the server can store it as is. Times are UTC epoch
 * seconds (the server formats them).
 */
export interface TemperatureSummary {
  /** Highest value, °C; `null` without points. */
  readonly highest_recorded_temperature: number | null;
  /** Lowest value, °C; `null` without points. */
  readonly lowest_recorded_temperature: number | null;
  /** Number of recorded points (gaps are not points). */
  readonly number_of_points: number;
  /** Time of the first recorded point; `null` without points. */
  readonly first_point: number | null;
  /** Time of the last recorded point; `null` without points. */
  readonly last_point: number | null;
  /**
   * Seconds from the first to the last recorded point (`last_point -
   * first_point`, as the contract's Record documents it): 0 for one point,
   * `null` without points.
   */
  readonly record_duration: number | null;
  /** Mean kinetic temperature (USP <1079.2>), °C; `null` without points. */
  readonly mean_kinetic_temp: number | null;
}

/**
 * Summary of the recorded points of `series` within `window` (default: the
 * whole series). Gaps are skipped; they count neither as points nor towards
 * the mean kinetic temperature.
 */
export function temperatureSummary(
  series: Series,
  window: IndexWindow = wholeSeries(series),
): TemperatureSummary {
  let highest: number | null = null;
  let lowest: number | null = null;
  let firstIdx: number | null = null;
  let lastIdx: number | null = null;
  const values: number[] = [];

  if (window !== null) {
    const end = Math.min(window.lastIdx, series.temps.length - 1);
    for (let i = Math.max(0, window.firstIdx); i <= end; i++) {
      const t = series.temps[i];
      if (t == null || !Number.isFinite(t)) continue;
      values.push(t);
      if (highest === null || t > highest) highest = t;
      if (lowest === null || t < lowest) lowest = t;
      firstIdx ??= i;
      lastIdx = i;
    }
  }

  const first = firstIdx === null ? null : pointTime(series, firstIdx);
  const last = lastIdx === null ? null : pointTime(series, lastIdx);
  return {
    highest_recorded_temperature: highest,
    lowest_recorded_temperature: lowest,
    number_of_points: values.length,
    first_point: first,
    last_point: last,
    record_duration:
      firstIdx === null || lastIdx === null ? null : (lastIdx - firstIdx) * series.intervalSeconds,
    mean_kinetic_temp: meanKineticTemperature(values),
  };
}
