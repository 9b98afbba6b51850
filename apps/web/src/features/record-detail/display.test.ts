import type { TExcursionAlarm, TRecordAction } from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';
import { describe, expect, it } from 'vitest';
import {
  alarmPeak,
  alarmTitle,
  formatCount,
  formatDegreeMinutes,
  formatInterval,
  formatPosition,
  formatThresholds,
  isKnownPosition,
  knownPositions,
  newestFirst,
  recordAlarmStatus,
  silenceOf,
} from './display';

describe('positions [SPEC-9.2, SPEC-9.1, RULE-TRIP-4]', () => {
  it('never treats the -91 / -181 sentinels (or impossible values) as a position', () => {
    expect(isKnownPosition(52.37, 4.9)).toBe(true);
    expect(isKnownPosition(0, 0)).toBe(true);
    expect(isKnownPosition(-91, -181)).toBe(false);
    expect(isKnownPosition(-91, 4.9)).toBe(false);
    expect(isKnownPosition(52.37, -181)).toBe(false);
    expect(isKnownPosition(95, 4)).toBe(false);
    expect(isKnownPosition(null, 4)).toBe(false);
    expect(isKnownPosition(Number.NaN, 4)).toBe(false);
  });

  it('formats a position, else the given word', () => {
    expect(formatPosition(52.37, 4.9)).toBe('52.3700, 4.9000');
    expect(formatPosition(-91, -181)).toBe('Unknown');
    expect(formatPosition(undefined, undefined, 'Position unknown')).toBe('Position unknown');
  });

  it('keeps only known positions, in order', () => {
    expect(
      knownPositions([
        { latitude: 1, longitude: 2, timestamp: 'a' },
        { latitude: -91, longitude: -181, timestamp: 'b' },
        { latitude: 3, longitude: 4 },
      ]),
    ).toEqual([
      { latitude: 1, longitude: 2, timestamp: 'a' },
      { latitude: 3, longitude: 4, timestamp: undefined },
    ]);
  });
});

describe('alarms [SPEC-9.2, SPEC-9.1, RULE-TRIP-4]', () => {
  const alarm: TExcursionAlarm = {
    above_or_below: 'ABOVE',
    kind: 'excursion',
    highest_recorded_temperature: 9.5,
    lowest_recorded_temperature: 8.5,
    degree_minutes: 2.25,
  };

  it('names direction and kind', () => {
    expect(alarmTitle(alarm)).toBe('High excursion');
    expect(alarmTitle({ ...alarm, above_or_below: 'BELOW', kind: 'cumulative' })).toBe(
      'Low cumulative',
    );
  });

  it('shows the peak beyond the threshold in the user unit', () => {
    expect(alarmPeak(alarm, 'C')).toBe('9.5 °C');
    expect(alarmPeak({ ...alarm, above_or_below: 'BELOW' }, 'F')).toBe('47.3 °F');
  });

  it('converts degree-minutes by 1.8 alone', () => {
    expect(formatDegreeMinutes(2.25, 'C')).toBe('2.3 °C·min');
    expect(formatDegreeMinutes(10, 'F')).toBe('18.0 °F·min');
    expect(formatDegreeMinutes(null, 'F')).toBe('—');
  });
});

describe('record display [SPEC-9.2, SPEC-9.1, RULE-TRIP-4]', () => {
  it('shows computed_status (dismissed alarms left out), else status', () => {
    expect(recordAlarmStatus({ status: 'Alarm', computed_status: 'OK' })).toBe('OK');
    expect(recordAlarmStatus({ status: 'Alarm' })).toBe('Alarm');
    expect(recordAlarmStatus({})).toBeNull();
  });

  it('formats thresholds', () => {
    expect(formatThresholds(2, 8, 'C')).toBe('2.0 °C to 8.0 °C');
    expect(formatThresholds(null, 8, 'F')).toBe('Up to 46.4 °F');
    expect(formatThresholds(2, null, 'C')).toBe('From 2.0 °C');
    expect(formatThresholds(null, undefined, 'C')).toBe('None set');
  });

  it('orders actions newest first', () => {
    const actions: TRecordAction[] = [
      { id: '1', timestamp: '2025-01-01T00:00:00Z', latitude: -91, longitude: -181 },
      { id: '3', timestamp: '2025-01-02T00:00:00Z', latitude: -91, longitude: -181 },
      { id: '2', timestamp: '2025-01-02T00:00:00Z', latitude: -91, longitude: -181 },
    ];
    expect(newestFirst(actions).map((a) => a.id)).toEqual(['3', '2', '1']);
  });

  it('groups counts en-US', () => {
    expect(formatCount(100000)).toBe('100,000');
    expect(formatCount(undefined)).toBe('—');
  });
});

describe('formatInterval [SPEC-9.2, SPEC-9.1, RULE-TRIP-4]', () => {
  it('shows seconds under a minute, else days, hours and minutes', () => {
    expect(formatInterval(30)).toBe('30 s');
    expect(formatInterval(1.25)).toBe('1.3 s');
    expect(formatInterval(300)).toBe('5m');
    expect(formatInterval(5400)).toBe('1h 30m');
    expect(formatInterval(null)).toBe('—');
    expect(formatInterval(0)).toBe('—');
  });
});

describe('silenceOf (the no-data alarm) [FEAT-NO-DATA-ALARM]', () => {
  const start = '2026-03-01T10:00:00.000Z';
  it('an open one: silent since, expected every, for as long as until now', () => {
    const now = Date.parse(start) + (2 * 3600 + 5 * 60) * 1000;
    const alarm: TExcursionAlarm = {
      kind: 'no_data',
      state: 'OPEN',
      start_time: start,
      expected_interval: 600,
    };
    expect(silenceOf(alarm, 'UTC', now)).toEqual({
      text: `Silent since ${formatDateTime(start, 'UTC')}, expected every 10m`,
      duration: 'for 2h 5m',
    });
  });
  it('a closed one: until data arrived again; the interval left out when unknown', () => {
    const closed = '2026-03-01T10:45:00.000Z';
    const alarm: TExcursionAlarm = {
      kind: 'no_data',
      state: 'CLOSED',
      start_time: start,
      closed_at: closed,
      expected_interval: null,
    };
    expect(silenceOf(alarm, 'UTC', Date.now())).toEqual({
      text: `Silent from ${formatDateTime(start, 'UTC')} to ${formatDateTime(closed, 'UTC')}`,
      duration: 'for 45m',
    });
  });
});
