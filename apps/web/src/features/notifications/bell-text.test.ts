import { describe, expect, it } from 'vitest';
import type { TNotification } from '@coldtrace/contract';
import {
  bellLabel,
  dismissAllQuestion,
  dismissAllText,
  notificationDetail,
  notificationDirection,
  notificationLines,
  notificationReference,
  notificationText,
  notificationTime,
} from './bell-text';

describe('the bell texts (spec section 2) [SPEC-2.6]', () => {
  it('labels the count, none, and more than 99 [SPEC-9.4]', () => {
    expect(bellLabel(0)).toBe('No notifications');
    expect(bellLabel(1)).toBe('1 notification');
    expect(bellLabel(99)).toBe('99 notifications');
    expect(bellLabel(100)).toBe('More than 99 notifications');
  });

  it("says 'Record {id} has an alarm'", () => {
    expect(notificationText({ id: '7', record_id: '42' })).toBe('Record 42 has an alarm');
  });

  it('says when the alarm has closed since, and why', () => {
    expect(notificationDetail({ id: '7', state: 'OPEN' })).toBeNull();
    expect(notificationDetail({ id: '7', state: 'CLOSED', close_cause: 'THRESHOLD_CHANGE' })).toBe(
      'Alarm closed: Thresholds changed',
    );
    expect(notificationDetail({ id: '7', resolved: true })).toBe('Alarm closed');
  });
});

describe('what each notification says (issue 14) [SPEC-2.6]', () => {
  const base = {
    id: '7',
    record_id: '42',
    kind: 'excursion' as const,
    high_threshold: 8,
    low_threshold: 2,
    occurred_at: '2026-11-24T21:05:00.000Z',
  };
  const settings = { degreesUnit: 'C' as const, timeZone: 'Europe/Berlin', hiddenFields: [] };

  it('names the kind and direction against its limit, in the user unit', () => {
    expect(notificationDirection({ ...base, above_or_below: 'ABOVE' }, 'C')).toBe(
      'High temperature: above 8.0 °C',
    );
    expect(notificationDirection({ ...base, above_or_below: 'BELOW' }, 'F')).toBe(
      'Low temperature: below 35.6 °F',
    );
    expect(
      notificationDirection({ ...base, kind: 'cumulative', above_or_below: 'ABOVE' }, 'C'),
    ).toBe('Cumulative time above 8.0 °C');
    // A kind the bell does not know yet still reads as words.
    const noData = {
      ...base,
      kind: 'NO_DATA',
      above_or_below: 'BELOW',
    } as unknown as TNotification;
    expect(notificationDirection(noData, 'C')).toBe('No data: below 2.0 °C');
  });

  it('shows when the alarm happened in the user time zone, and the reference unless hidden', () => {
    const n = { ...base, above_or_below: 'ABOVE' as const, primary_reference: 'PO-77' };
    const berlin = notificationTime(n, 'Europe/Berlin');
    const utc = notificationTime(n, 'UTC');
    expect(berlin).toContain('22:05');
    expect(utc).toContain('21:05');
    expect(notificationLines(n, settings)).toEqual([
      'High temperature: above 8.0 °C',
      berlin,
      'Reference PO-77',
    ]);
    expect(notificationLines(n, { ...settings, hiddenFields: ['primary_reference'] })).toEqual([
      'High temperature: above 8.0 °C',
      berlin,
    ]);
    expect(notificationReference({ ...n, primary_reference: null }, [])).toBeNull();
    expect(
      notificationLines({ ...n, state: 'CLOSED', close_cause: 'TRIP_EDIT' }, settings).at(-1),
    ).toMatch(/^Alarm closed: /);
  });

  it('asks before Dismiss All, naming how many', () => {
    expect(dismissAllQuestion(1)).toBe('Dismiss 1 notification?');
    expect(dismissAllQuestion(12)).toBe('Dismiss 12 notifications?');
    expect(dismissAllText(12, 12)).toContain('The 12 notifications listed leave your bell.');
    expect(dismissAllText(100, 130)).toContain('The other 30 notifications stay');
  });
});
