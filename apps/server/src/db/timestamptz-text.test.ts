import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTimestamptz } from './timestamptz-text';

const FALLBACK = new Date(-1);
const fallback = () => FALLBACK;
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * An instant as PostgreSQL writes it in a zone `offset` seconds east of UTC:
 * its text output (`YYYY-MM-DD HH:MM:SS.ffffff+HH[:MM[:SS]]`) or its JSON
 * output (`…T…+HH:MM[:SS]`), the fraction without its trailing zeros.
 */
function pgText(ms: number, micro: number, offset: number, json: boolean): string {
  const local = new Date(ms + offset * 1000);
  const fraction = pad(local.getUTCMilliseconds() * 1000 + micro, 6).replace(/0+$/, '');
  const abs = Math.abs(offset);
  const [h, m, s] = [Math.floor(abs / 3600), Math.floor(abs / 60) % 60, abs % 60];
  const zone =
    (offset < 0 ? '-' : '+') +
    pad(h) +
    (json || m !== 0 || s !== 0 ? `:${pad(m)}` : '') +
    (s !== 0 ? `:${pad(s)}` : '');
  return (
    `${pad(local.getUTCFullYear(), 4)}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())}` +
    `${json ? 'T' : ' '}${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:${pad(local.getUTCSeconds())}` +
    (fraction === '' ? '' : `.${fraction}`) +
    zone
  );
}

/** From 0001-01-02 to 275759-12-30 UTC: the years a Date holds, less a day at each end for the offset. */
const instants = fc.integer({ min: -62135510400000, max: 8639999913600000 });
const minuteOffsets = fc.oneof(
  fc.constant(0),
  fc.integer({ min: -15 * 60, max: 15 * 60 }).map((minutes) => minutes * 60),
);
/** Whole minutes, and seconds too (PostgreSQL writes those for the local mean times of old dates). */
const offsets = fc.oneof(minuteOffsets, fc.integer({ min: -15 * 3600, max: 15 * 3600 }));

/** Over instants, microseconds, offsets and both forms: the parsed time is `expected(text, ms)`. */
function forEveryText(
  times: fc.Arbitrary<number>,
  zones: fc.Arbitrary<number>,
  expected: (text: string, ms: number) => number,
  numRuns: number,
) {
  const micros = fc.integer({ min: 0, max: 999 });
  fc.assert(
    fc.property(times, micros, zones, fc.boolean(), (ms, micro, offset, json) => {
      const text = pgText(ms, micro, offset, json);
      expect(parseTimestamptz(text, fallback).getTime(), text).toBe(expected(text, ms));
    }),
    { numRuns },
  );
}

describe('parseTimestamptz [FEAT-PERFORMANCE, SPEC-3]', () => {
  it('reads both forms PostgreSQL writes, at any year, offset and fraction (the microseconds dropped)', () => {
    forEveryText(instants, offsets, (_, ms) => ms, 5000);
  });

  it('reads what the Date parser reads for years 1000 to 9999, offsets in minutes (Drizzle’s own decoder)', () => {
    const years = fc.integer({ min: Date.UTC(1000, 0, 2), max: Date.UTC(9999, 11, 30) });
    forEveryText(years, minuteOffsets, (text) => new Date(text).getTime(), 2000);
  });

  it('reads years before 100 and after 9999 as written', () => {
    expect(parseTimestamptz('0050-03-01 10:00:00+00', fallback).toISOString()).toBe(
      '0050-03-01T10:00:00.000Z',
    );
    expect(parseTimestamptz('0000-02-29T23:30:00-01:00', fallback).toISOString()).toBe(
      '0000-03-01T00:30:00.000Z',
    );
    expect(parseTimestamptz('10000-06-01T12:00:00.123456+00:00', fallback).toISOString()).toBe(
      '+010000-06-01T12:00:00.123Z',
    );
  });

  it('leaves anything else to the fallback', () => {
    for (const text of [
      'infinity',
      '-infinity',
      '0044-03-15 00:00:00+00 BC',
      '2026-11-17',
      '2026-11-17 12:05+00',
      '2026-11-17 12:05:46',
      '2026-11-17 12:05:46.+00',
      '2026-11-17 12:05:46+0',
      '2026-11-17 12:05:46+00:0',
      '2026-11-17 12:05:46+00 ',
      '2026-1-17 12:05:46+00',
      '026-11-17 12:05:46+00',
      '2026-11-17X12:05:46+00',
      '',
    ]) {
      expect(parseTimestamptz(text, fallback), text).toBe(FALLBACK);
    }
  });
});
