import type { TExcursionAlarm } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import {
  awaitsOwnSignature,
  closeCauseLabel,
  closedByLabel,
  foldSuperseded,
  isAlarmClosed,
  openAlarmsFirst,
} from './alarm-state';

const alarm = (over: Partial<TExcursionAlarm>): TExcursionAlarm => ({ id: '1', ...over });

describe('alarm state [RULE-ALARM-6, RULE-ALARM-2]', () => {
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

  it('folds superseded alarms under the alarm that holds their run now, through later merges', () => {
    const list = [
      alarm({ id: '9', state: 'OPEN' }),
      alarm({ id: '7', state: 'OPEN' }),
      alarm({ id: '5', state: 'CLOSED', superseded_by: '7', first_point_idx: 20 }),
      alarm({ id: '4', state: 'CLOSED', superseded_by: '5', first_point_idx: 10 }),
      // Its survivor is not listed: it stays on its own.
      alarm({ id: '3', state: 'CLOSED', superseded_by: '99' }),
    ];
    expect(foldSuperseded(list).map((f) => [f.alarm.id, f.absorbed.map((a) => a.id)])).toEqual([
      ['9', []],
      ['7', ['4', '5']],
      ['3', []],
    ]);
  });

  it('a superseded alarm needs no signature of its own', () => {
    expect(awaitsOwnSignature(alarm({ acknowledged: false }))).toBe(true);
    expect(awaitsOwnSignature(alarm({ acknowledged: false, superseded_by: '2' }))).toBe(false);
    expect(awaitsOwnSignature(alarm({ acknowledged: true }))).toBe(false);
  });
});
