import { parseInstant, type DateInput } from './date-format';
import { MISSING_VALUE } from './missing-value';
import { resolveTimeZone } from './timezones';

/**
 * Times that carry their zone (domain rules section 8: "every printed time
 * carries its zone, so the hour repeated at the end of daylight saving time
 * reads unambiguously"). In Europe/Berlin 00:30 and 01:30 UTC on 2026-10-25
 * are both 02:30 on the wall; with the offset they read
 * `10/25/2026, 02:30:00 UTC+02:00` and `10/25/2026, 02:30:00 UTC+01:00`
 * (en-US, 24-hour, spec section 9), or in ISO 8601 `2026-10-25T02:30:00+02:00`
 * and `2026-10-25T02:30:00+01:00`. `parseZonedDateTime` reads both back to the
 * instant (to the second: fractions are not printed).
 *
 * `zonedTimeFormat` is made once per report and is fast enough for 100,000
 * points: the zone's offset is looked up with Intl once per quarter hour and
 * reused for every instant of that quarter hour whose neighbour quarter hour
 * has the same offset; only a quarter hour in which the offset changes is
 * looked up instant by instant, so the answer is exact whenever the change
 * falls (not only on quarter hours).
 */

const QUARTER_HOUR_MS = 15 * 60_000;
/** Offsets cached per formatter before the cache starts afresh (about 100 days of quarter hours). */
const MAX_CACHED_QUARTERS = 10_000;

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const pad4 = (n: number) => String(n).padStart(4, '0');

function offsetReader(timeZone: string): (epochMs: number) => number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  });
  return (epochMs) => {
    const second = epochMs - (((epochMs % 1000) + 1000) % 1000);
    const p: Record<string, number> = {};
    for (const part of parts.formatToParts(second)) p[part.type] = Number(part.value);
    const wall = new Date(0);
    wall.setUTCFullYear(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1);
    wall.setUTCHours(p.hour ?? 0, p.minute ?? 0, p.second ?? 0, 0);
    return Math.round((wall.getTime() - second) / 1000);
  };
}

/**
 * The offset of `timeZone` from UTC at each instant, in seconds east (Berlin
 * in summer 7200, New York in winter -18000), memoised for many instants.
 * An unsupported zone falls back like `resolveTimeZone` (alias, else UTC).
 */
export function zoneOffsets(timeZone: string | null | undefined): (epochMs: number) => number {
  const exact = offsetReader(resolveTimeZone(timeZone));
  const quarters = new Map<number, number>();
  const atQuarter = (quarter: number) => {
    let offset = quarters.get(quarter);
    if (offset === undefined) {
      if (quarters.size >= MAX_CACHED_QUARTERS) quarters.clear();
      offset = exact(quarter * QUARTER_HOUR_MS);
      quarters.set(quarter, offset);
    }
    return offset;
  };
  return (epochMs) => {
    const quarter = Math.floor(epochMs / QUARTER_HOUR_MS);
    const offset = atQuarter(quarter);
    // The offset changes within this quarter hour: look this instant up itself.
    return offset === atQuarter(quarter + 1) ? offset : exact(epochMs);
  };
}

/** `+02:00`, `-03:30`, `+00:00`; seconds only when the offset has them (`-00:44:30`, 1970s Monrovia). */
export function formatUtcOffset(offsetSeconds: number): string {
  const sign = offsetSeconds < 0 ? '-' : '+';
  const abs = Math.abs(Math.round(offsetSeconds));
  const hhmm = `${sign}${pad2(Math.floor(abs / 3600))}:${pad2(Math.floor(abs / 60) % 60)}`;
  return abs % 60 === 0 ? hhmm : `${hhmm}:${pad2(abs % 60)}`;
}

export interface ZonedTimeFormat {
  /** Seconds east of UTC at the instant. */
  offsetSeconds(epochMs: number): number;
  /** The wall-clock time in the zone as epoch milliseconds of the same clock read in UTC. */
  wallMs(epochMs: number): number;
  /** `10/25/2026, 02:30:00 UTC+02:00`: en-US, 24-hour (spec section 9), with the offset. */
  text(epochMs: number): string;
  /** `2026-10-25T02:30:00+02:00`: ISO 8601 with the offset. */
  iso(epochMs: number): string;
  /**
   * `2026-10-25 02:30:00`: the wall clock alone, as spreadsheets read a date-time. Without
   * its offset it is ambiguous: only for a column whose heading names a fixed zone (UTC).
   */
  plain(epochMs: number): string;
}

const DAY_MS = 86_400_000;

/**
 * Writes wall-clock times as `<date><between><HH:MM:SS>`: the date part made
 * once per day (points come in order), the clock by arithmetic.
 */
function wallWriter(datePart: (day: Date) => string, between: string): (wallMs: number) => string {
  let day = Number.NaN;
  let date = '';
  return (wallMs) => {
    const k = Math.floor(wallMs / DAY_MS);
    if (k !== day) {
      day = k;
      date = datePart(new Date(k * DAY_MS));
    }
    const s = Math.floor((wallMs - k * DAY_MS) / 1000);
    return `${date}${between}${pad2(Math.floor(s / 3600))}:${pad2(Math.floor(s / 60) % 60)}:${pad2(s % 60)}`;
  };
}

const usDate = (d: Date) =>
  `${pad2(d.getUTCMonth() + 1)}/${pad2(d.getUTCDate())}/${pad4(d.getUTCFullYear())}`;
const isoDate = (d: Date) =>
  `${pad4(d.getUTCFullYear())}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`;

/** The formatters of one zone, for many instants (one report). */
export function zonedTimeFormat(timeZone: string | null | undefined): ZonedTimeFormat {
  const offsetOf = zoneOffsets(timeZone);
  const offsetTexts = new Map<number, string>();
  const offsetText = (offset: number) => {
    let text = offsetTexts.get(offset);
    if (text === undefined) {
      text = formatUtcOffset(offset);
      offsetTexts.set(offset, text);
    }
    return text;
  };
  const us = wallWriter(usDate, ', ');
  const iso = wallWriter(isoDate, 'T');
  const plain = wallWriter(isoDate, ' ');
  return {
    offsetSeconds: offsetOf,
    wallMs: (epochMs) => epochMs + offsetOf(epochMs) * 1000,
    text(epochMs) {
      const offset = offsetOf(epochMs);
      return `${us(epochMs + offset * 1000)} UTC${offsetText(offset)}`;
    },
    iso(epochMs) {
      const offset = offsetOf(epochMs);
      return `${iso(epochMs + offset * 1000)}${offsetText(offset)}`;
    },
    plain: (epochMs) => plain(epochMs + offsetOf(epochMs) * 1000),
  };
}

/** `10/25/2026, 02:30:00 UTC+02:00` in `timeZone`; `—` for anything that is not an instant. */
export function formatZonedDateTime(value: DateInput, timeZone: string | null | undefined): string {
  const instant = parseInstant(value);
  return instant === null ? MISSING_VALUE : zonedTimeFormat(timeZone).text(instant.getTime());
}

/** `2026-10-25T02:30:00+02:00` in `timeZone`; `—` for anything that is not an instant. */
export function formatIsoDateTimeWithOffset(
  value: DateInput,
  timeZone: string | null | undefined,
): string {
  const instant = parseInstant(value);
  return instant === null ? MISSING_VALUE : zonedTimeFormat(timeZone).iso(instant.getTime());
}

const OFFSET = '([+-])(\\d{2}):(\\d{2})(?::(\\d{2}))?';
const ZONED_TEXT = new RegExp(
  `^(\\d{2})/(\\d{2})/(\\d{4}), (\\d{2}):(\\d{2}):(\\d{2}) UTC${OFFSET}$`,
);
const ZONED_ISO = new RegExp(`^(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})${OFFSET}$`);

/**
 * The instant a zoned time denotes, as `zonedTimeFormat` writes it (`text`
 * or `iso`); null for anything else, a time without its offset included.
 */
export function parseZonedDateTime(text: string): Date | null {
  const trimmed = text.trim();
  const asText = ZONED_TEXT.exec(trimmed);
  const match = asText ?? ZONED_ISO.exec(trimmed);
  if (match === null) return null;
  const num = (group: number) => Number(match[group] ?? 0);
  // Year, month and day in the order of the form; the clock and the offset alike in both.
  const [year, month, day] = asText ? [num(3), num(1), num(2)] : [num(1), num(2), num(3)];
  const [hour, minute, second] = [num(4), num(5), num(6)];
  const [offsetHours, offsetMinutes, offsetSeconds] = [num(8), num(9), num(10)];
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  if (offsetHours > 23 || offsetMinutes > 59 || offsetSeconds > 59) return null;
  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, day);
  if (wall.getUTCDate() !== day) return null;
  wall.setUTCHours(hour, minute, second, 0);
  const offset =
    (match[7] === '-' ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60 + offsetSeconds);
  return new Date(wall.getTime() - offset * 1000);
}
