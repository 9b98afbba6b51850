import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  formatAge,
  formatDate,
  formatDateTime,
  parseInstant,
  timeZoneAbbreviation,
} from './date-format';

const INSTANT = '2026-11-22T19:05:09Z';

describe('parseInstant [SPEC-9.2]', () => {
  it('reads Dates, epoch milliseconds and ISO date-times', () => {
    expect(parseInstant(new Date(INSTANT))?.toISOString()).toBe('2026-11-22T19:05:09.000Z');
    expect(parseInstant(Date.UTC(2026, 10, 22, 19, 5, 9))?.toISOString()).toBe(
      '2026-11-22T19:05:09.000Z',
    );
    expect(parseInstant('2026-11-22T19:05:09.123456Z')?.toISOString()).toBe(
      '2026-11-22T19:05:09.123Z',
    );
    expect(parseInstant('2026-11-22T19:05:09.5+05:30')?.toISOString()).toBe(
      '2026-11-22T13:35:09.500Z',
    );
    expect(parseInstant('2026-11-22T19:05:09-0500')?.toISOString()).toBe(
      '2026-11-23T00:05:09.000Z',
    );
    expect(parseInstant('2026-11-22 19:05')?.toISOString()).toBe('2026-11-22T19:05:00.000Z');
  });

  it('reads a date-time without an offset as UTC', () => {
    expect(parseInstant('2026-11-22T19:05:09')?.toISOString()).toBe('2026-11-22T19:05:09.000Z');
  });

  it('does not share the Date it was given', () => {
    const given = new Date(INSTANT);
    parseInstant(given)?.setTime(0);
    expect(given.toISOString()).toBe('2026-11-22T19:05:09.000Z');
  });

  it('answers null for what is not an instant', () => {
    for (const value of [
      null,
      undefined,
      '',
      'yesterday',
      '2026-11-22',
      '2026-02-30T00:00:00Z',
      '2026-11-22T24:00:00Z',
      '2026-13-01T00:00:00Z',
      'Sun Nov 22 2026',
      Number.NaN,
      8.64e15 + 1,
      new Date(Number.NaN),
    ]) {
      expect(parseInstant(value), String(value)).toBeNull();
    }
  });
});

describe('formatDateTime [SPEC-9.2]', () => {
  it('shows en-US, 24-hour, in the given zone', () => {
    expect(formatDateTime(INSTANT, 'America/New_York')).toBe('11/22/2026, 14:05:09');
    expect(formatDateTime(INSTANT, 'UTC')).toBe('11/22/2026, 19:05:09');
    expect(formatDateTime(INSTANT, 'Asia/Calcutta')).toBe('11/23/2026, 00:35:09');
    expect(formatDateTime('2026-11-22T05:00:00Z', 'America/New_York')).toBe('11/22/2026, 00:00:00');
    expect(formatDateTime(Date.UTC(2026, 6, 1, 12), 'Europe/Berlin')).toBe('07/01/2026, 14:00:00');
  });

  it('falls back like resolveTimeZone', () => {
    expect(formatDateTime(INSTANT, 'Asia/Kolkata')).toBe('11/23/2026, 00:35:09');
    expect(formatDateTime(INSTANT, 'Not/A_Zone')).toBe('11/22/2026, 19:05:09');
    expect(formatDateTime(INSTANT, null)).toBe('11/22/2026, 19:05:09');
  });

  it('shows a dash for what is not an instant', () => {
    expect(formatDateTime('2026-11-22', 'UTC')).toBe('—');
    expect(formatDateTime('nonsense', 'UTC')).toBe('—');
    expect(formatDateTime(null, 'UTC')).toBe('—');
  });

  it('always has the MM/DD/YYYY, HH:MM:SS shape and reads back in UTC', () => {
    fc.assert(
      fc.property(
        fc.date({
          min: new Date('1970-01-01T00:00:00Z'),
          max: new Date('9999-12-31T23:59:59Z'),
          noInvalidDate: true,
        }),
        (date) => {
          const text = formatDateTime(date, 'UTC');
          const match = /^(\d{2})\/(\d{2})\/(\d{4}), (\d{2}):(\d{2}):(\d{2})$/.exec(text);
          expect(match).not.toBeNull();
          const [, month, day, year, hour, minute, second] = match ?? [];
          const back = Date.parse(`${year}-${month}-${day}T${hour}:${minute}:${second}Z`);
          expect(back).toBe(Math.floor(date.getTime() / 1000) * 1000);
        },
      ),
    );
  });
});

describe('formatAge [SPEC-9.2]', () => {
  const now = Date.parse('2026-11-22T14:05:09Z');
  it('reads the time before now in days, hours and minutes', () => {
    expect(formatAge('2026-11-22T14:02:09Z', now)).toBe('3m ago');
    expect(formatAge('2026-11-22T12:59:30Z', now)).toBe('1h 5m ago');
    expect(formatAge(now - (2 * 86_400 + 4 * 3600) * 1000, now)).toBe('2d 4h ago');
  });
  it('is just now under a minute and for an instant a little ahead', () => {
    expect(formatAge(now - 59_999, now)).toBe('just now');
    expect(formatAge(now + 5_000, now)).toBe('just now');
    expect(formatAge(now - 60_000, now)).toBe('1m ago');
  });
  it('shows the missing value for what is not an instant', () => {
    expect(formatAge(null, now)).toBe('—');
    expect(formatAge('yesterday', now)).toBe('—');
  });
});

describe('formatDate [SPEC-9.2]', () => {
  it('shows the date in the given zone', () => {
    expect(formatDate(INSTANT, 'America/New_York')).toBe('11/22/2026');
    expect(formatDate(INSTANT, 'Asia/Calcutta')).toBe('11/23/2026');
  });

  it('shows a date-only string as written, whatever the zone', () => {
    expect(formatDate('2026-11-22', 'America/Los_Angeles')).toBe('11/22/2026');
    expect(formatDate('2026-11-22', 'Pacific/Kiritimati')).toBe('11/22/2026');
    expect(formatDate('2026-02-30', 'UTC')).toBe('—');
    expect(formatDate(undefined, 'UTC')).toBe('—');
  });
});

describe('timeZoneAbbreviation [SPEC-9.2, RULE-REPORT-3]', () => {
  it('names the zone at that instant', () => {
    expect(timeZoneAbbreviation('UTC', INSTANT)).toBe('UTC');
    expect(timeZoneAbbreviation('America/New_York', '2026-07-01T12:00:00Z')).toBe('EDT');
    expect(timeZoneAbbreviation('America/New_York', '2026-01-01T12:00:00Z')).toBe('EST');
    expect(timeZoneAbbreviation('Asia/Kolkata', INSTANT)).toBe('GMT+5:30');
    expect(timeZoneAbbreviation('Not/A_Zone', INSTANT)).toBe('UTC');
    expect(timeZoneAbbreviation('UTC', 'nonsense')).toBe('—');
  });
});
