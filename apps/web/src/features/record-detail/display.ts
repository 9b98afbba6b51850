import {
  UNKNOWN_LATITUDE,
  UNKNOWN_LONGITUDE,
  type TBatteryHealth,
  type TDegreesUnit,
  type TExcursionAlarm,
  type TMemoryHealth,
  type TRecord,
  type TRecordAction,
} from '@coldtrace/contract';
import {
  degreeMinutesToUnit,
  formatDateTime,
  formatDuration,
  MISSING_VALUE,
} from '@coldtrace/domain';
import { formatTemperatureWith } from '../../lib/display-rule';

/** One decimal unless the display rule says otherwise. */
const formatTemperature = formatTemperatureWith;

/** Display helpers of the record detail page (pure, tested). */

/** A position a map may show: finite, on the globe, and not the -91 / -181 "unknown" sentinels. */
export function isKnownPosition(
  latitude: number | null | undefined,
  longitude: number | null | undefined,
): boolean {
  if (latitude == null || longitude == null) return false;
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude)) return false;
  if (latitude === UNKNOWN_LATITUDE || longitude === UNKNOWN_LONGITUDE) return false;
  return Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180;
}

/** `52.3700, 4.9000`, or `unknown` for the sentinels and missing values. */
export function formatPosition(
  latitude: number | null | undefined,
  longitude: number | null | undefined,
  unknown = 'Unknown',
): string {
  if (!isKnownPosition(latitude, longitude)) return unknown;
  return `${latitude!.toFixed(4)}, ${longitude!.toFixed(4)}`;
}

export interface MapPoint {
  latitude: number;
  longitude: number;
  timestamp?: string | undefined;
}

/** The known positions of a list, in order; sentinels and impossible positions left out. */
export function knownPositions<
  T extends { latitude?: number | null; longitude?: number | null; timestamp?: string },
>(items: readonly T[]): MapPoint[] {
  const out: MapPoint[] = [];
  for (const item of items) {
    if (isKnownPosition(item.latitude, item.longitude)) {
      out.push({
        latitude: item.latitude!,
        longitude: item.longitude!,
        timestamp: item.timestamp,
      });
    }
  }
  return out;
}

export const BATTERY_LABELS: Record<TBatteryHealth, string> = {
  OK: 'OK',
  LOW_BATTERY: 'Low battery',
  CRITICAL: 'Critical',
};

export const MEMORY_LABELS: Record<TMemoryHealth, string> = {
  OK: 'OK',
  MEMORY_FULL: 'Memory full',
};

/** The status a record shows: computed_status (dismissed alarms left out), else status. */
export function recordAlarmStatus(record: TRecord): 'OK' | 'Alarm' | null {
  return record.computed_status ?? record.status ?? null;
}

/**
 * What the header's alarm chip says (issue 35): Alarm only while some alarm
 * awaits acknowledgement (or the alarms are not loaded yet); a record in alarm
 * whose every alarm is acknowledged or dismissed is ACKNOWLEDGED, not a red Alarm.
 */
export function headerAlarmStatus(
  record: TRecord,
  awaitingAcknowledgement: number | undefined,
): 'OK' | 'Alarm' | 'ACKNOWLEDGED' | null {
  const status = recordAlarmStatus(record);
  if (status === 'Alarm' && awaitingAcknowledgement === 0) return 'ACKNOWLEDGED';
  return status;
}

/** `High excursion`, `Low cumulative`, `No data`, `Stability budget used up (above)`. */
export function alarmTitle(alarm: TExcursionAlarm): string {
  if (alarm.kind === 'no_data') return 'No data';
  if (alarm.kind === 'budget') {
    return `Stability budget used up (${alarm.above_or_below === 'BELOW' ? 'below' : 'above'})`;
  }
  const direction = alarm.above_or_below === 'BELOW' ? 'Low' : 'High';
  const kind = alarm.kind === 'cumulative' ? 'cumulative' : 'excursion';
  return `${direction} ${kind}`;
}

/**
 * A no-data alarm as silence (docs/decisions/no-data-alarm.md): since when the
 * record sent nothing, the interval it was expected at, and for how long (until
 * data arrived again, or `now` while it is open). No direction, no degree-minutes.
 */
export function silenceOf(
  alarm: TExcursionAlarm,
  timeZone: string,
  now: number,
): { text: string; duration: string } {
  const since = formatDateTime(alarm.start_time, timeZone);
  const resumed = alarm.state === 'CLOSED' ? (alarm.closed_at ?? null) : null;
  const expected =
    alarm.expected_interval != null
      ? `, expected every ${formatInterval(alarm.expected_interval)}`
      : '';
  const text =
    resumed === null
      ? `Silent since ${since}${expected}`
      : `Silent from ${since} to ${formatDateTime(resumed, timeZone)}${expected}`;
  const began = alarm.start_time ? Date.parse(alarm.start_time) : NaN;
  const end = resumed === null ? now : Date.parse(resumed);
  const seconds = Number.isFinite(began) ? Math.max(0, (end - began) / 1000) : alarm.duration;
  return { text, duration: `for ${formatDuration(seconds)}` };
}

/** The most extreme temperature of the alarm: highest above, lowest below. */
export function alarmPeak(alarm: TExcursionAlarm, unit: TDegreesUnit, decimals?: number): string {
  const value =
    alarm.above_or_below === 'BELOW'
      ? alarm.lowest_recorded_temperature
      : alarm.highest_recorded_temperature;
  return formatTemperature(value, unit, decimals);
}

/** `12.3 °C·min` (degree-minutes convert by the factor 1.8 alone). */
export function formatDegreeMinutes(
  degreeMinutes: number | null | undefined,
  unit: TDegreesUnit,
): string {
  if (degreeMinutes == null || !Number.isFinite(degreeMinutes)) return MISSING_VALUE;
  return `${degreeMinutesToUnit(degreeMinutes, unit).toFixed(1)} °${unit}·min`;
}

/** `2.0 °C to 8.0 °C`, `above 8.0 °C`, `below 2.0 °C`, or `None set`. */
export function formatThresholds(
  low: number | null | undefined,
  high: number | null | undefined,
  unit: TDegreesUnit,
  decimals?: number,
): string {
  const hasLow = low != null && Number.isFinite(low);
  const hasHigh = high != null && Number.isFinite(high);
  if (hasLow && hasHigh)
    return `${formatTemperature(low, unit, decimals)} to ${formatTemperature(high, unit, decimals)}`;
  if (hasHigh) return `Up to ${formatTemperature(high, unit, decimals)}`;
  if (hasLow) return `From ${formatTemperature(low, unit, decimals)}`;
  return 'None set';
}

/** Actions newest first (the call answers oldest first); ties by id, newest first. */
export function newestFirst(actions: readonly TRecordAction[]): TRecordAction[] {
  const time = (a: TRecordAction) => (a.timestamp ? Date.parse(a.timestamp) : -Infinity);
  return [...actions].sort((a, b) => time(b) - time(a) || Number(b.id ?? 0) - Number(a.id ?? 0));
}

/** `1,234` (en-US grouping). */
export function formatCount(value: number | null | undefined): string {
  if (value == null || !Number.isFinite(value)) return MISSING_VALUE;
  return value.toLocaleString('en-US');
}

/** A measurement interval: `30 s` under a minute, else days, hours and minutes (`5m`, `1h 30m`). */
export function formatInterval(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds) || seconds <= 0) return MISSING_VALUE;
  if (seconds < 60) return `${Number(seconds.toFixed(1))} s`;
  return formatDuration(seconds);
}
