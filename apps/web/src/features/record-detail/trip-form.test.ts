import { describe, expect, it } from 'vitest';
import { tripEditBody, validateTripTimes } from './trip-form';

const NOW = Date.UTC(2025, 5, 1, 12);
const HOUR = 3_600_000;

describe('validateTripTimes [RULE-TRIP-3]', () => {
  it('accepts empty times, a begin, and an end after the begin', () => {
    expect(validateTripTimes({ begin: null, end: null }, NOW)).toEqual({});
    expect(validateTripTimes({ begin: NOW - HOUR, end: null }, NOW)).toEqual({});
    expect(validateTripTimes({ begin: NOW - 2 * HOUR, end: NOW - HOUR }, NOW)).toEqual({});
  });

  it('refuses an end before the begin, future times and invalid dates', () => {
    expect(validateTripTimes({ begin: NOW - HOUR, end: NOW - 2 * HOUR }, NOW)).toEqual({
      end: 'Must not be before the departure',
    });
    expect(validateTripTimes({ begin: NOW + HOUR, end: null }, NOW)).toEqual({
      begin: 'Must not be in the future',
    });
    expect(validateTripTimes({ begin: Number.NaN, end: NOW + 1 }, NOW)).toEqual({
      begin: 'Enter a date and time',
      end: 'Must not be in the future',
    });
  });
});

describe('tripEditBody [RULE-TRIP-3]', () => {
  it('sends both times in UTC (null clears) and the time of the edit', () => {
    expect(tripEditBody('42', { begin: NOW - HOUR, end: null }, NOW)).toEqual({
      record_id: '42',
      begin_time: '2025-06-01T11:00:00.000Z',
      end_time: null,
      timestamp: '2025-06-01T12:00:00.000Z',
    });
  });
});
