import { describe, expect, it } from 'vitest';
import {
  calibrationDueFrom,
  calibrationState,
  certificateInForce,
  tagCalibrationStateAt,
} from './calibration';

const DAY = 86_400_000;
const due = new Date('2027-06-15T09:30:00Z');
const at = (ms: number) => new Date(due.getTime() + ms);

describe('calibrationState [FEAT-CALIBRATION]', () => {
  it('is NONE without a certificate', () => {
    expect(calibrationState(null, due, 30)).toBe('NONE');
    expect(calibrationState(undefined, due, 30)).toBe('NONE');
  });

  it('is EXPIRED from the due instant on, DUE_SOON the millisecond before', () => {
    expect(calibrationState(due, at(0), 30)).toBe('EXPIRED');
    expect(calibrationState(due, at(1), 30)).toBe('EXPIRED');
    expect(calibrationState(due, at(-1), 30)).toBe('DUE_SOON');
  });

  it('is DUE_SOON exactly dueSoonDays before, VALID one millisecond earlier', () => {
    expect(calibrationState(due, at(-30 * DAY), 30)).toBe('DUE_SOON');
    expect(calibrationState(due, at(-30 * DAY - 1), 30)).toBe('VALID');
    expect(calibrationState(due, at(-7 * DAY - 1), 7)).toBe('VALID');
    // No warning window: valid up to the due instant.
    expect(calibrationState(due, at(-1), 0)).toBe('VALID');
  });

  it('compares instants: the zone a time is written in does not matter', () => {
    // 11:29:59 in Berlin (summer) is 09:29:59 UTC: one second before the due instant.
    const berlin = new Date('2027-06-15T11:29:59+02:00');
    const newYork = new Date('2027-06-15T05:30:00-04:00');
    expect(calibrationState(due, berlin, 0)).toBe('VALID');
    expect(calibrationState(due, newYork, 0)).toBe('EXPIRED');
    expect(calibrationState(new Date('2027-06-15T11:30:00+02:00'), newYork, 0)).toBe('EXPIRED');
  });
});

describe('calibrationDueFrom [FEAT-CALIBRATION]', () => {
  it('adds calendar months in UTC', () => {
    expect(calibrationDueFrom(new Date('2026-06-15T09:30:00Z'), 12).toISOString()).toBe(
      '2027-06-15T09:30:00.000Z',
    );
    expect(calibrationDueFrom(new Date('2026-11-30T23:00:00-05:00'), 3).toISOString()).toBe(
      '2027-03-01T04:00:00.000Z',
    );
  });

  it('ends on the last day of a shorter month', () => {
    expect(calibrationDueFrom(new Date('2028-02-29T12:00:00Z'), 12).toISOString()).toBe(
      '2029-02-28T12:00:00.000Z',
    );
    expect(calibrationDueFrom(new Date('2027-01-31T00:00:00Z'), 1).toISOString()).toBe(
      '2027-02-28T00:00:00.000Z',
    );
  });

  it('refuses a validity that is not a positive whole number of months', () => {
    expect(() => calibrationDueFrom(new Date(), 0)).toThrow(RangeError);
    expect(() => calibrationDueFrom(new Date(), 1.5)).toThrow(RangeError);
  });
});

describe('certificateInForce and tagCalibrationStateAt [FEAT-CALIBRATION]', () => {
  const older = {
    calibratedAt: new Date('2025-06-01T00:00:00Z'),
    due: new Date('2026-06-01T00:00:00Z'),
  };
  const newer = {
    calibratedAt: new Date('2026-05-20T00:00:00Z'),
    due: new Date('2027-05-20T00:00:00Z'),
  };

  it('takes the latest certificate calibrated at or before the time asked', () => {
    expect(certificateInForce([newer, older], new Date('2026-05-19T23:59:59Z'))).toBe(older);
    expect(certificateInForce([older, newer], new Date('2026-05-20T00:00:00Z'))).toBe(newer);
    expect(certificateInForce([older, newer], new Date('2025-05-31T00:00:00Z'))).toBeUndefined();
  });

  it('answers the state and due date of that certificate', () => {
    expect(tagCalibrationStateAt([older, newer], new Date('2026-05-19T00:00:00Z'), 30)).toEqual({
      state: 'DUE_SOON',
      due: older.due,
    });
    expect(tagCalibrationStateAt([older], new Date('2026-06-01T00:00:00Z'), 30)).toEqual({
      state: 'EXPIRED',
      due: older.due,
    });
    expect(tagCalibrationStateAt([older, newer], new Date('2026-07-01T00:00:00Z'), 30)).toEqual({
      state: 'VALID',
      due: newer.due,
    });
    expect(tagCalibrationStateAt([], new Date(), 30)).toEqual({ state: 'NONE', due: null });
  });
});
