import type { TDegreesUnit } from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import { formatTemperatureWith } from '../../../lib/display-rule';
import type { ChartReading } from '../chart-data';
import { formatCount } from '../display';

/**
 * Reading the temperature chart without a mouse (pure, tested): which point a
 * key moves to, whether a reading is beyond a threshold, and the sentence the
 * live region reads. The keys follow the WAI-ARIA slider pattern: Right and
 * Up go one point later, Left and Down one earlier, Page Up and Page Down a
 * tenth of the points later or earlier, Home and End to the first and last.
 */

/** Which way and how far each key moves. */
const MOVES: Record<string, 'first' | 'last' | 1 | -1 | 'page' | '-page'> = {
  ArrowRight: 1,
  ArrowUp: 1,
  ArrowLeft: -1,
  ArrowDown: -1,
  PageUp: 'page',
  PageDown: '-page',
  Home: 'first',
  End: 'last',
};

/** The jump of Page Up and Page Down: a tenth of the points, at least one. */
export function pageStep(count: number): number {
  return Math.max(1, Math.round(count / 10));
}

/**
 * The point (0 to count - 1) that `key` moves to from `current` (null: no
 * point highlighted yet; a step forward then starts at the first point, a step
 * back at the last), held within the series. Null when the key is not one of
 * the chart's (the browser handles it) or there are no points.
 */
export function pointAfterKey(current: number | null, key: string, count: number): number | null {
  const move = MOVES[key];
  if (move === undefined || count <= 0) return null;
  const last = count - 1;
  if (move === 'first') return 0;
  if (move === 'last') return last;
  const step = move === 'page' ? pageStep(count) : move === '-page' ? -pageStep(count) : move;
  if (current === null) return step > 0 ? 0 : last;
  return Math.min(last, Math.max(0, current + step));
}

/** Where a reading stands against the thresholds (Celsius, as stored; strictly beyond, as the alarms count). */
export type ThresholdFlag = 'above' | 'below' | null;

export function thresholdFlag(
  celsius: number,
  high: number | null | undefined,
  low: number | null | undefined,
): ThresholdFlag {
  if (high != null && celsius > high) return 'above';
  if (low != null && celsius < low) return 'below';
  return null;
}

export const THRESHOLD_FLAG_TEXT: Record<'above' | 'below', string> = {
  above: 'above high threshold',
  below: 'below low threshold',
};

/** How the chart's points are read: the user's unit, decimals and zone, the record's thresholds (Celsius). */
export interface PointReadingOptions {
  unit: TDegreesUnit;
  decimals: number;
  timeZone: string;
  high: number | null | undefined;
  low: number | null | undefined;
}

/** `Point 32 of 32: 11/24/2026, 14:30:00, 9.5 °C, above high threshold.` */
export function describePoint(
  readings: readonly ChartReading[],
  position: number,
  options: PointReadingOptions,
): string {
  const reading = readings[position];
  if (!reading) return '';
  const flag = thresholdFlag(reading.temperature, options.high, options.low);
  const parts = [
    formatDateTime(reading.time * 1000, options.timeZone),
    formatTemperatureWith(reading.temperature, options.unit, options.decimals),
  ];
  if (flag) parts.push(THRESHOLD_FLAG_TEXT[flag]);
  return `Point ${formatCount(position + 1)} of ${formatCount(readings.length)}: ${parts.join(', ')}.`;
}
