import { MISSING_VALUE } from './missing-value';

/**
 * Durations.
 *
 * Display (spec section 9, "Duration display: days, hours and minutes"):
 * `formatDuration` shows whole days, hours and minutes, leaving out the parts
 * that are zero: `2d 3h 15m`, `1d 5m`, `45m`. Seconds are truncated, so anything
 * under a minute is `0m`. A negative duration keeps its sign (`-1h 30m`) so bad
 * data stays visible; a missing or non-finite one shows `—`.
 *
 * Cumulative durations (domain rules section 2) travel as strings
 * `[DD ]HH:MM:SS` (the form Django's DurationField uses): days, when not zero,
 * as a plain number and a space, then two-digit hours (0-23 after days),
 * minutes and seconds. `formatDurationString` writes that canonical form.
 * `parseDurationString` reads it and, leniently, one-digit minutes, seconds or
 * hours and hours of 24 or more when no days are given (`36:00:00`); anything
 * else (fractions, signs, other separators, minutes or seconds of 60 or more)
 * gives null.
 */

const SECONDS_PER_MINUTE = 60;
const SECONDS_PER_HOUR = 3600;
const SECONDS_PER_DAY = 86_400;

interface DurationParts {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

function splitSeconds(totalSeconds: number): DurationParts {
  const whole = Math.floor(totalSeconds);
  return {
    days: Math.floor(whole / SECONDS_PER_DAY),
    hours: Math.floor((whole % SECONDS_PER_DAY) / SECONDS_PER_HOUR),
    minutes: Math.floor((whole % SECONDS_PER_HOUR) / SECONDS_PER_MINUTE),
    seconds: whole % SECONDS_PER_MINUTE,
  };
}

/** `2d 3h 15m`, `45m`, `0m`; `—` when missing or not finite. */
export function formatDuration(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds)) return MISSING_VALUE;
  const shown = formatNonNegativeDuration(Math.abs(seconds));
  return seconds < 0 && shown !== '0m' ? `-${shown}` : shown;
}

function formatNonNegativeDuration(seconds: number): string {
  const { days, hours, minutes } = splitSeconds(seconds);
  const parts = [
    days > 0 ? `${days}d` : '',
    hours > 0 ? `${hours}h` : '',
    minutes > 0 ? `${minutes}m` : '',
  ].filter((part) => part !== '');
  return parts.length === 0 ? '0m' : parts.join(' ');
}

const twoDigits = (value: number): string => String(value).padStart(2, '0');

/**
 * Seconds as `[DD ]HH:MM:SS` (fractions of a second truncated); null for a
 * negative or non-finite value.
 */
export function formatDurationString(seconds: number): string | null {
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > Number.MAX_SAFE_INTEGER) return null;
  const { days, hours, minutes, seconds: rest } = splitSeconds(seconds);
  const clock = `${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(rest)}`;
  return days > 0 ? `${days} ${clock}` : clock;
}

const DURATION_STRING = /^(?:(\d+) +)?(\d+):(\d{1,2}):(\d{1,2})$/;

/** `[DD ]HH:MM:SS` to seconds; null when the text is not in that form. */
export function parseDurationString(text: string): number | null {
  const match = DURATION_STRING.exec(text.trim());
  if (match === null) return null;
  const [, dayText, hourText = '', minuteText = '', secondText = ''] = match;
  const days = dayText === undefined ? 0 : Number(dayText);
  const hours = Number(hourText);
  const minutes = Number(minuteText);
  const seconds = Number(secondText);
  if (minutes >= 60 || seconds >= 60) return null;
  if (dayText !== undefined && hours >= 24) return null;
  const total =
    days * SECONDS_PER_DAY + hours * SECONDS_PER_HOUR + minutes * SECONDS_PER_MINUTE + seconds;
  return Number.isSafeInteger(total) ? total : null;
}
