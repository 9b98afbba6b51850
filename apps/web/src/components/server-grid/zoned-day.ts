import { resolveTimeZone } from '@coldtrace/domain';

/**
 * Calendar days in the user's time zone, written for the API. The API reads a
 * date (`2025-03-01`) as the whole day in UTC and a date-time with an offset
 * as that minute (docs/decisions/record-queries.md), so a day in another zone
 * is named by its first minute (`2025-03-01T00:00+01:00`) and its last one
 * (`2025-03-01T23:59+01:00`), each with the offset the zone has then.
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

function offsetFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = offsetFormatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Minutes the zone is ahead of UTC at an instant (`GMT+05:30` -> 330, `GMT` -> 0). */
export function zoneOffsetMinutes(instant: number, timeZone: string): number {
  const name =
    offsetFormatter(resolveTimeZone(timeZone))
      .formatToParts(new Date(instant))
      .find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
  const match = /^GMT([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(name);
  if (match === null) return 0;
  const [, sign = '+', hours = '0', minutes = '0'] = match;
  return (sign === '-' ? -1 : 1) * (Number(hours) * 60 + Number(minutes));
}

/** `330` -> `+05:30`, `-300` -> `-05:00`, `0` -> `+00:00`. */
export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const absolute = Math.abs(minutes);
  const hours = String(Math.floor(absolute / 60)).padStart(2, '0');
  return `${sign}${hours}:${String(absolute % 60).padStart(2, '0')}`;
}

/** Whether the text is a real calendar day `YYYY-MM-DD`. */
export function isCalendarDay(text: string): boolean {
  const match = DAY.exec(text);
  if (match === null) return false;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
  );
}

/** The offset the zone has at the wall-clock time `hour:minute` of the day. */
function offsetAtWallClock(day: string, hour: number, minute: number, timeZone: string): number {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const asUtc = Date.UTC(year, month - 1, date, hour, minute);
  const first = zoneOffsetMinutes(asUtc, timeZone);
  const second = zoneOffsetMinutes(asUtc - first * 60_000, timeZone);
  return second;
}

export interface ZonedDayBounds {
  /** The first minute of the day, e.g. `2025-03-01T00:00+01:00`. */
  start: string;
  /** The last minute of the day, e.g. `2025-03-01T23:59+01:00`. */
  end: string;
  /** True when the zone is UTC all day: the date alone names the day exactly. */
  utc: boolean;
}

/** The first and last minute of a calendar day in the zone; null when `day` is not a day. */
export function zonedDayBounds(day: string, timeZone: string): ZonedDayBounds | null {
  if (!isCalendarDay(day)) return null;
  const startOffset = offsetAtWallClock(day, 0, 0, timeZone);
  const endOffset = offsetAtWallClock(day, 23, 59, timeZone);
  return {
    start: `${day}T00:00${formatOffset(startOffset)}`,
    end: `${day}T23:59${formatOffset(endOffset)}`,
    utc: startOffset === 0 && endOffset === 0,
  };
}

/** Today's calendar day in the zone, `YYYY-MM-DD`. */
export function todayInZone(timeZone: string, now: number = Date.now()): string {
  const shifted = new Date(now + zoneOffsetMinutes(now, timeZone) * 60_000);
  return shifted.toISOString().slice(0, 10);
}

/** The day `days` after (or before, when negative) a calendar day. */
export function addDays(day: string, days: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + days)).toISOString().slice(0, 10);
}
