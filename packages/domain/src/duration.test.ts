import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration, formatDurationString, parseDurationString } from './duration';

const DAY = 86_400;
const HOUR = 3600;
const MINUTE = 60;

describe('formatDuration [SPEC-9.2, RULE-ALARM-5]', () => {
  it('shows days, hours and minutes, leaving out zero parts', () => {
    expect(formatDuration(2 * DAY + 3 * HOUR + 15 * MINUTE)).toBe('2d 3h 15m');
    expect(formatDuration(45 * MINUTE)).toBe('45m');
    expect(formatDuration(DAY)).toBe('1d');
    expect(formatDuration(DAY + 5 * MINUTE)).toBe('1d 5m');
    expect(formatDuration(3 * HOUR)).toBe('3h');
  });

  it('truncates seconds, so under a minute is 0m', () => {
    expect(formatDuration(0)).toBe('0m');
    expect(formatDuration(59.9)).toBe('0m');
    expect(formatDuration(60)).toBe('1m');
    expect(formatDuration(HOUR - 1)).toBe('59m');
  });

  it('keeps the sign of a negative duration and shows a dash for a missing one', () => {
    expect(formatDuration(-(HOUR + 30 * MINUTE))).toBe('-1h 30m');
    expect(formatDuration(-30)).toBe('0m');
    expect(formatDuration(Number.NaN)).toBe('—');
    expect(formatDuration(Number.POSITIVE_INFINITY)).toBe('—');
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(undefined)).toBe('—');
  });

  it('adds back up to the whole minutes of the input', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), (seconds) => {
        const text = formatDuration(seconds);
        expect(text).toMatch(/^(\d+d)?( ?\d+h)?( ?\d+m)?$/);
        const value = (unit: string): number =>
          Number(new RegExp(`(\\d+)${unit}`).exec(text)?.[1] ?? 0);
        const minutes = value('d') * 1440 + value('h') * 60 + value('m');
        expect(minutes).toBe(Math.floor(seconds / 60));
        expect(value('h')).toBeLessThan(24);
        expect(value('m')).toBeLessThan(60);
      }),
    );
  });
});

describe('formatDurationString [SPEC-9.2, RULE-ALARM-5]', () => {
  it('writes [DD ]HH:MM:SS', () => {
    expect(formatDurationString(0)).toBe('00:00:00');
    expect(formatDurationString(HOUR + 2 * MINUTE + 3)).toBe('01:02:03');
    expect(formatDurationString(DAY - 1)).toBe('23:59:59');
    expect(formatDurationString(DAY + HOUR + MINUTE + 1)).toBe('1 01:01:01');
    expect(formatDurationString(12 * DAY)).toBe('12 00:00:00');
    expect(formatDurationString(59.99)).toBe('00:00:59');
  });

  it('gives null for negative or non-finite seconds', () => {
    expect(formatDurationString(-1)).toBeNull();
    expect(formatDurationString(Number.NaN)).toBeNull();
    expect(formatDurationString(Number.POSITIVE_INFINITY)).toBeNull();
  });
});

describe('parseDurationString [SPEC-9.2, RULE-ALARM-5]', () => {
  it('reads [DD ]HH:MM:SS', () => {
    expect(parseDurationString('01:02:03')).toBe(HOUR + 2 * MINUTE + 3);
    expect(parseDurationString('1 01:01:01')).toBe(DAY + HOUR + MINUTE + 1);
    expect(parseDurationString('00:00:00')).toBe(0);
    expect(parseDurationString(' 2 00:30:00 ')).toBe(2 * DAY + 30 * MINUTE);
  });

  it('accepts one-digit parts and hours past a day when no days are given', () => {
    expect(parseDurationString('1:2:3')).toBe(HOUR + 2 * MINUTE + 3);
    expect(parseDurationString('36:00:00')).toBe(36 * HOUR);
  });

  it('gives null for anything else', () => {
    for (const text of [
      '',
      '01:02',
      '1 24:00:00',
      '00:60:00',
      '00:00:60',
      '-01:00:00',
      '01:00:00.5',
      '1d 01:00:00',
      '01-00-00',
      'abc',
      '1 day, 01:00:00',
      '999999999999 00:00:00',
    ]) {
      expect(parseDurationString(text), text).toBeNull();
    }
  });

  it('round-trips seconds through the string', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), (seconds) => {
        const text = formatDurationString(seconds);
        expect(text).not.toBeNull();
        expect(parseDurationString(text ?? '')).toBe(seconds);
      }),
    );
  });

  it('round-trips canonical strings and canonicalises lenient ones', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 59 }),
        (days, hours, minutes, seconds) => {
          const pad = (n: number): string => String(n).padStart(2, '0');
          const clock = `${pad(hours)}:${pad(minutes)}:${pad(seconds)}`;
          const canonical = days > 0 ? `${days} ${clock}` : clock;
          expect(formatDurationString(parseDurationString(canonical) ?? -1)).toBe(canonical);
          const lenient = `${days} ${hours}:${minutes}:${seconds}`;
          expect(formatDurationString(parseDurationString(lenient) ?? -1)).toBe(canonical);
        },
      ),
    );
  });
});
