import type { TSummarySchedule } from '@coldtrace/contract';
import { wallClock } from '../reports';

/**
 * The period a scheduled summary covers (issue 15, docs/decisions/scheduled-reports.md).
 * Everything is counted in one time zone (the setting owner's): a DAILY
 * summary covers the local day before and is due from 06:00 local time; a
 * WEEKLY one covers the ISO week before (Monday 00:00 to Monday 00:00) and is
 * due from Monday 06:00. The latest period whose send time has passed is the
 * one due: a server down at 06:00 sends it at the next hourly run.
 */

/** Local hour from which a period's summary is sent. */
export const SUMMARY_SEND_HOUR = 6;

const DAY = 86_400_000;
const HOUR = 3_600_000;

export interface SummaryPeriod {
  /** Unique per setting: `2026-11-23` (DAILY) or `2026-W47` (WEEKLY). */
  key: string;
  schedule: TSummarySchedule;
  /** First instant of the period (local midnight), inclusive. */
  from: Date;
  /** Instant after its end (local midnight), exclusive. */
  to: Date;
  /** The local days covered, inclusive: `2026-11-16` and `2026-11-22`. */
  firstDay: string;
  lastDay: string;
  timeZone: string;
}

const isoDay = (localDay: number) => new Date(localDay * DAY).toISOString().slice(0, 10);

/** The UTC instant of a wall-clock time of the zone (the earlier one when it repeats). */
export function instantOfWall(timeZone: string, wallMs: number): Date {
  const wall = wallClock(timeZone);
  let guess = wallMs - (wall(wallMs) - wallMs);
  guess = wallMs - (wall(guess) - guess);
  return new Date(guess);
}

/** ISO week of a Monday (local day number): `2026-W47`. */
function isoWeek(monday: number): string {
  const thursday = new Date((monday + 3) * DAY);
  const year = thursday.getUTCFullYear();
  const dayOfYear = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / DAY);
  const week = Math.floor(dayOfYear / 7) + 1;
  return `${year}-W${week < 10 ? `0${week}` : week}`;
}

/** The period due at `now`: the latest whose send time (06:00 local) has passed. */
export function duePeriod(schedule: TSummarySchedule, timeZone: string, now: Date): SummaryPeriod {
  const wallNow = wallClock(timeZone)(now.getTime());
  const today = Math.floor(wallNow / DAY);
  const sentToday = wallNow - today * DAY >= SUMMARY_SEND_HOUR * HOUR;
  let first: number;
  let end: number;
  let key: string;
  if (schedule === 'DAILY') {
    end = sentToday ? today : today - 1;
    first = end - 1;
    key = isoDay(first);
  } else {
    const weekday = new Date(today * DAY).getUTCDay(); // 0 Sunday
    let monday = today - ((weekday + 6) % 7);
    if (monday === today && !sentToday) monday -= 7;
    end = monday;
    first = monday - 7;
    key = isoWeek(first);
  }
  return {
    key,
    schedule,
    from: instantOfWall(timeZone, first * DAY),
    to: instantOfWall(timeZone, end * DAY),
    firstDay: isoDay(first),
    lastDay: isoDay(end - 1),
    timeZone,
  };
}
