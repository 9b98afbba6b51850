import { DEFAULT_TIMEZONE } from '@coldtrace/contract';
import { CANONICAL_TIME_ZONES, TIME_ZONE_ALIASES } from './time-zone-data';

/**
 * The supported time zones (spec sections 2, 4 and 5).
 *
 * Rule: one name per zone, the CLDR canonical id, which is what ICU-based
 * `Intl.supportedValuesOf('timeZone')` lists (Asia/Calcutta, Europe/Kiev,
 * Asia/Saigon, ...). So the list leaves out:
 * - the newer IANA names that CLDR keeps as aliases of those ids (Asia/Kolkata,
 *   Europe/Kyiv, Asia/Ho_Chi_Minh, ...), and the deprecated backward-compatible
 *   names (US/Eastern, GB, ...);
 * - every `Etc/` name, including the Etc/GMT+N fixed offsets, whose signs are
 *   inverted and confuse people.
 * UTC is added first. The list is a static file (`time-zone-data.ts`), not read
 * from `Intl` at run time, because runtimes disagree: newer engines list
 * Asia/Kolkata where older ones list Asia/Calcutta.
 *
 * A name outside the list falls back to UTC (spec section 4), except that a
 * known alias resolves to its canonical zone first: Asia/Kolkata is the same
 * clock as Asia/Calcutta, and a Firefox user whose browser reports Asia/Kolkata
 * should not see UTC times.
 */

export const UTC = DEFAULT_TIMEZONE;

const SUPPORTED: readonly string[] = [UTC, ...CANONICAL_TIME_ZONES];
const SUPPORTED_SET: ReadonlySet<string> = new Set(SUPPORTED);

/** UTC, then every canonical zone in alphabetical order. */
export function supportedTimeZones(): string[] {
  return [...SUPPORTED];
}

export function isSupportedTimeZone(timeZone: string): boolean {
  return SUPPORTED_SET.has(timeZone);
}

/** The supported name of a zone: itself, or the canonical zone of a known alias; else null. */
export function canonicalTimeZone(timeZone: string | null | undefined): string | null {
  if (timeZone == null) return null;
  if (SUPPORTED_SET.has(timeZone)) return timeZone;
  return Object.hasOwn(TIME_ZONE_ALIASES, timeZone) ? (TIME_ZONE_ALIASES[timeZone] ?? null) : null;
}

/** The zone to show times in: the supported name of `timeZone`, or UTC. */
export function resolveTimeZone(timeZone: string | null | undefined): string {
  return canonicalTimeZone(timeZone) ?? UTC;
}

export interface TimeZoneOptions {
  /** UTC, then the browser's own zone when it is supported and not UTC. */
  first: string[];
  /** The other supported zones, alphabetical; shown after a divider. */
  rest: string[];
}

/** The time zone dropdown of spec section 2: UTC and the browser zone first, then the rest. */
export function timeZoneOptions(browserZone: string | null | undefined): TimeZoneOptions {
  const browser = canonicalTimeZone(browserZone);
  const first = browser === null || browser === UTC ? [UTC] : [UTC, browser];
  return { first, rest: SUPPORTED.filter((zone) => !first.includes(zone)) };
}

/** `America/New_York` -> `America/New York`. */
export function timeZoneLabel(timeZone: string): string {
  return timeZone.replaceAll('_', ' ');
}
