import { describe, expect, it } from 'vitest';
import {
  addDays,
  formatOffset,
  isCalendarDay,
  todayInZone,
  zoneOffsetMinutes,
  zonedDayBounds,
} from './zoned-day';

describe('days in a time zone [SPEC-5.7, SPEC-9.2]', () => {
  it('reads zone offsets', () => {
    expect(zoneOffsetMinutes(Date.UTC(2025, 0, 15), 'UTC')).toBe(0);
    expect(zoneOffsetMinutes(Date.UTC(2025, 0, 15), 'Europe/Paris')).toBe(60);
    expect(zoneOffsetMinutes(Date.UTC(2025, 6, 15), 'Europe/Paris')).toBe(120);
    expect(zoneOffsetMinutes(Date.UTC(2025, 0, 15), 'Asia/Calcutta')).toBe(330);
    expect(zoneOffsetMinutes(Date.UTC(2025, 0, 15), 'America/New_York')).toBe(-300);
  });

  it('formats offsets', () => {
    expect(formatOffset(0)).toBe('+00:00');
    expect(formatOffset(330)).toBe('+05:30');
    expect(formatOffset(-300)).toBe('-05:00');
  });

  it('names a day by its first and last minute', () => {
    expect(zonedDayBounds('2025-03-01', 'UTC')).toEqual({
      start: '2025-03-01T00:00+00:00',
      end: '2025-03-01T23:59+00:00',
      utc: true,
    });
    expect(zonedDayBounds('2025-11-02', 'America/New_York')).toEqual({
      start: '2025-11-02T00:00-04:00',
      end: '2025-11-02T23:59-05:00',
      utc: false,
    });
    expect(zonedDayBounds('2025-02-30', 'UTC')).toBeNull();
    expect(zonedDayBounds('yesterday', 'UTC')).toBeNull();
  });

  it('knows calendar days, today and day arithmetic', () => {
    expect(isCalendarDay('2024-02-29')).toBe(true);
    expect(isCalendarDay('2025-02-29')).toBe(false);
    // 23:30 UTC on March 1st is already March 2nd in Paris.
    expect(todayInZone('Europe/Paris', Date.UTC(2025, 2, 1, 23, 30))).toBe('2025-03-02');
    expect(todayInZone('UTC', Date.UTC(2025, 2, 1, 23, 30))).toBe('2025-03-01');
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
  });
});
