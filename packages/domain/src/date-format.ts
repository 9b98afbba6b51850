import { formatDuration } from './duration';
import { MISSING_VALUE } from './missing-value';
import { resolveTimeZone } from './timezones';

/**
 * Date display (spec section 9): en-US, 24-hour, in the user's time zone,
 * e.g. `11/22/2026, 14:05:09`. The zone is shown once per page
 * (`timeZoneAbbreviation`), not on every value.
 *
 * Input is an instant: a Date, epoch milliseconds, or an ISO 8601 date-time
 * string. A date-time string without an offset is read as UTC (times are
 * stored in UTC; the engine would otherwise read it in the machine's zone).
 * Fractions of a second beyond milliseconds are truncated; impossible days
 * and times (2026-02-30, 24:00) are rejected, as engines disagree on them. A
 * date-only string (`2026-11-22`) is a calendar day, not an instant:
 * `formatDate` shows it as written, `formatDateTime` shows `—`. Other
 * strings, invalid dates and missing values show `—`. An unsupported zone falls back like
 * `resolveTimeZone` (alias to canonical, else UTC).
 */

export type DateInput = Date | string | number | null | undefined;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

/** The instant a value denotes, or null when it denotes none. */
export function parseInstant(value: DateInput): Date | null {
  if (value == null) return null;
  const date =
    value instanceof Date
      ? new Date(value.getTime())
      : typeof value === 'number'
        ? new Date(value)
        : parseIsoDateTime(value);
  return date === null || Number.isNaN(date.getTime()) ? null : date;
}

function parseIsoDateTime(text: string): Date | null {
  const match = ISO_DATE_TIME.exec(text.trim());
  if (match === null) return null;
  const [, year = '', month = '', day = '', hour = '', minute = '', second = '00'] = match;
  const [fraction = '', zone = 'Z'] = match.slice(7);
  if (!isCalendarDay(year, month, day) || Number(hour) > 23 || Number(minute) > 59) return null;
  if (Number(second) > 59) return null;
  const milliseconds = fraction.padEnd(3, '0').slice(0, 3);
  const offset = normalizeOffset(zone);
  return new Date(`${year}-${month}-${day}T${hour}:${minute}:${second}.${milliseconds}${offset}`);
}

/** Engines differ on 2026-02-30 (V8 rolls it over to March): reject it everywhere. */
function isCalendarDay(year: string, month: string, day: string): boolean {
  const midnight = new Date(`${year}-${month}-${day}T00:00:00Z`);
  return !Number.isNaN(midnight.getTime()) && midnight.getUTCDate() === Number(day);
}

/** `Z`, `+05`, `+0530` and `+05:30` to the `Z` / `+05:30` forms every engine reads. */
function normalizeOffset(zone: string): string {
  if (zone.toUpperCase() === 'Z') return 'Z';
  const digits = zone.slice(1).replace(':', '').padEnd(4, '0');
  return `${zone.charAt(0)}${digits.slice(0, 2)}:${digits.slice(2)}`;
}

const DATE_OPTIONS: Intl.DateTimeFormatOptions = {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
};

const FORMAT_OPTIONS: Record<'date-time' | 'date' | 'zone', Intl.DateTimeFormatOptions> = {
  'date-time': {
    ...DATE_OPTIONS,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  },
  date: DATE_OPTIONS,
  zone: { timeZoneName: 'short' },
};

const formatterCache = new Map<string, Intl.DateTimeFormat>();

function formatter(kind: 'date-time' | 'date' | 'zone', timeZone: string): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone}`;
  let cached = formatterCache.get(key);
  if (cached === undefined) {
    cached = new Intl.DateTimeFormat('en-US', { timeZone, ...FORMAT_OPTIONS[kind] });
    formatterCache.set(key, cached);
  }
  return cached;
}

/** `11/22/2026, 14:05:09` in `timeZone`; `—` for anything that is not an instant. */
export function formatDateTime(value: DateInput, timeZone: string | null | undefined): string {
  const instant = parseInstant(value);
  if (instant === null) return MISSING_VALUE;
  return formatter('date-time', resolveTimeZone(timeZone)).format(instant);
}

/**
 * How long before `now` (epoch ms) an instant was: `just now` under a minute
 * (and for an instant a little ahead of `now`: clocks differ), else the
 * duration and `ago` (`3m ago`, `1h 5m ago`, `2d 4h ago`); `—` for anything
 * that is not an instant.
 */
export function formatAge(value: DateInput, now: number): string {
  const instant = parseInstant(value);
  if (instant === null || !Number.isFinite(now)) return MISSING_VALUE;
  const seconds = (now - instant.getTime()) / 1000;
  return seconds < 60 ? 'just now' : `${formatDuration(seconds)} ago`;
}

/** `11/22/2026` in `timeZone`; a date-only string is shown as written. */
export function formatDate(value: DateInput, timeZone: string | null | undefined): string {
  if (typeof value === 'string') {
    const calendarDay = ISO_DATE.exec(value.trim());
    if (calendarDay !== null) return formatCalendarDay(calendarDay);
  }
  const instant = parseInstant(value);
  if (instant === null) return MISSING_VALUE;
  return formatter('date', resolveTimeZone(timeZone)).format(instant);
}

function formatCalendarDay([, year = '', month = '', day = '']: RegExpExecArray): string {
  return isCalendarDay(year, month, day) ? `${month}/${day}/${year}` : MISSING_VALUE;
}

/**
 * The short name of the zone at that instant, to show once per page: `UTC`,
 * `EST` / `EDT`, `GMT+5:30`, `GMT+1`. `—` when `at` is not an instant.
 */
export function timeZoneAbbreviation(timeZone: string | null | undefined, at: DateInput): string {
  const instant = parseInstant(at);
  if (instant === null) return MISSING_VALUE;
  const parts = formatter('zone', resolveTimeZone(timeZone)).formatToParts(instant);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? MISSING_VALUE;
}
