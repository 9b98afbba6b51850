/**
 * A `timestamp with time zone` as PostgreSQL writes it, to a Date, without
 * the Date constructor's string parser: the text output
 * (`2026-11-17 12:05:46.838123+00`) and the JSON output
 * (`2026-11-17T12:05:46.838123+00:00`), any year of four digits or more, any
 * offset. Fractions of a millisecond are dropped, as the Date parser drops
 * them. Anything else (`infinity`, a year BC, …) goes to `fallback`, the
 * column's own decoder.
 *
 * Why: a record list page decodes 240 of them, and `new Date(text)` was a
 * tenth of the app's own CPU for the page (docs/decisions/list-performance.md,
 * "Timestamps as text"). It also reads years before 100 and after 9999 as
 * written, where the Date parser reads `0099-…` as 1999 and the JSON form of
 * a year after 9999 not at all.
 */
export function parseTimestamptz(text: string, fallback: (text: string) => Date): Date {
  const n = text.length;
  let i = 0;
  let year = 0;
  for (let c = text.charCodeAt(i); c >= 48 && c <= 57; c = text.charCodeAt(++i)) {
    year = year * 10 + c - 48;
  }
  // YYYY-MM-DD?HH:MM:SS: 15 characters after the year.
  if (i < 4 || i + 15 > n || text.charCodeAt(i) !== 45 || text.charCodeAt(i + 3) !== 45) {
    return fallback(text);
  }
  const sep = text.charCodeAt(i + 6);
  if (
    (sep !== 32 && sep !== 84) ||
    text.charCodeAt(i + 9) !== 58 ||
    text.charCodeAt(i + 12) !== 58
  ) {
    return fallback(text);
  }
  const month = two(text, i + 1);
  const day = two(text, i + 4);
  const hour = two(text, i + 7);
  const minute = two(text, i + 10);
  const second = two(text, i + 13);
  if (month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return fallback(text);
  i += 15;
  let ms = 0;
  if (text.charCodeAt(i) === 46) {
    let digits = 0;
    for (let c = text.charCodeAt(++i); c >= 48 && c <= 57; c = text.charCodeAt(++i)) {
      if (digits < 3) ms = ms * 10 + c - 48;
      digits++;
    }
    if (digits === 0) return fallback(text);
    for (; digits < 3; digits++) ms *= 10;
  }
  // The offset: +HH, +HH:MM or +HH:MM:SS (PostgreSQL writes what it needs).
  const sign = text.charCodeAt(i);
  if ((sign !== 43 && sign !== 45) || i + 3 > n) return fallback(text);
  let offset = two(text, i + 1) * 3600;
  i += 3;
  for (let unit = 60; unit >= 1 && text.charCodeAt(i) === 58; unit /= 60) {
    const part = two(text, i + 1);
    if (part < 0) return fallback(text);
    offset += part * unit;
    i += 3;
  }
  if (offset < 0 || i !== n) return fallback(text);
  const shift = (sign === 43 ? -offset : offset) * 1000;
  if (year >= 100)
    return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) + shift);
  // Date.UTC reads years 0 to 99 as 1900 to 1999: set the year on its own
  // (from a leap year, so that every month and day of the year exists).
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, ms));
  date.setUTCFullYear(year);
  return new Date(date.getTime() + shift);
}

/** Two decimal digits at `at`, or -1. */
function two(text: string, at: number): number {
  const a = text.charCodeAt(at) - 48;
  const b = text.charCodeAt(at + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}
