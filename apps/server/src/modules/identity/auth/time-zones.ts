import {
  canonicalTimeZone as supportedName,
  supportedTimeZones,
  TIME_ZONE_ALIASES,
  UTC,
} from '@coldtrace/domain';

/** Every supported zone and known alias, by its lower-case spelling. */
const KNOWN = new Map<string, string>(
  [...supportedTimeZones(), ...Object.keys(TIME_ZONE_ALIASES)].map((zone) => [
    zone.toLowerCase(),
    zone,
  ]),
);

const ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/** Whether the runtime knows `name` as an IANA time zone (alias or not). */
function isIanaZone(name: string): boolean {
  if (!ZONE_SHAPE.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The time zone a user setting stores for `input` (spec section 5): a
 * supported zone in its spelling (any case), a known alias as its supported
 * zone (Asia/Kolkata -> Asia/Calcutta, Europe/Kyiv -> Europe/Kiev), and any
 * other IANA zone, which the supported list leaves out (Etc/GMT+5, Etc/GMT-14),
 * UTC. Undefined when `input` is no time zone at all (`+01:00`, `Mars/Base`):
 * the caller answers 400. What is stored is what is shown.
 */
export function userTimeZone(input: string): string | undefined {
  const known = KNOWN.get(input.toLowerCase());
  if (known !== undefined) return supportedName(known) ?? UTC;
  return isIanaZone(input) ? UTC : undefined;
}

/** A stored user time zone as shown: itself when supported, its supported zone, else UTC. */
export function shownTimeZone(stored: string): string {
  return supportedName(stored) ?? UTC;
}
