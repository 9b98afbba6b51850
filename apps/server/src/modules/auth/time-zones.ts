/** Time zones the server accepts: the IANA names this Node's Intl knows, spelled as Intl lists them. */
const LISTED = new Map<string, string>(
  [...Intl.supportedValuesOf('timeZone'), 'UTC'].map((zone) => [zone.toLowerCase(), zone]),
);

const ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;

/**
 * The canonical spelling of an IANA time zone, or undefined when it is not one.
 * Aliases Intl accepts without listing them (e.g. Asia/Kolkata on some ICU
 * versions, Etc/GMT+1) are kept as given; offsets such as `+01:00` are refused.
 */
export function canonicalTimeZone(input: string): string | undefined {
  const listed = LISTED.get(input.toLowerCase());
  if (listed !== undefined) return listed;
  if (!ZONE_SHAPE.test(input)) return undefined;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: input });
    return input;
  } catch {
    return undefined;
  }
}
