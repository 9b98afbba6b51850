import type { TExcursionAlarm } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { closeCauseLabel, closedByLabel, isAlarmClosed, openAlarmsFirst } from './alarm-state';

const alarm = (over: Partial<TExcursionAlarm>): TExcursionAlarm => ({ id: '1', ...over });

describe('alarm state', () => {
  it('is closed when the state says so, or when an older server says resolved', () => {
    expect(isAlarmClosed(alarm({ state: 'CLOSED' }))).toBe(true);
    expect(isAlarmClosed(alarm({ resolved: true }))).toBe(true);
    expect(isAlarmClosed(alarm({ state: 'OPEN', resolved: false }))).toBe(false);
    expect(isAlarmClosed(alarm({}))).toBe(false);
  });

  it('lists open alarms first, keeping the order within open and closed', () => {
    const list = [
      alarm({ id: 'c1', state: 'CLOSED' }),
      alarm({ id: 'o1', state: 'OPEN' }),
      alarm({ id: 'c2', resolved: true }),
      alarm({ id: 'o2' }),
    ];
    expect(openAlarmsFirst(list).map((a) => a.id)).toEqual(['o1', 'o2', 'c1', 'c2']);
  });

  it('names who closed it (the system when nobody did) and the cause in words', () => {
    expect(closedByLabel(alarm({ closed_by: 'qa.lead' }))).toBe('qa.lead');
    expect(closedByLabel(alarm({ closed_by: null }))).toBe('System');
    expect(closeCauseLabel(alarm({ close_cause: 'THRESHOLD_CHANGE' }))).toBe('Thresholds changed');
    expect(closeCauseLabel(alarm({ close_cause: 'TRIP_WINDOW' }))).toBe('Outside the trip window');
    expect(closeCauseLabel(alarm({ close_cause: null }))).toBe('');
  });
});
