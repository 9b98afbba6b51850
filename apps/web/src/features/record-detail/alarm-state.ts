import { ALARM_CLOSE_CAUSE_LABELS, type TExcursionAlarm } from '@coldtrace/contract';

/**
 * An alarm's state on the record page (docs/decisions/alarm-lifecycle.md): an
 * alarm is never deleted; once it stops holding it is CLOSED for good, with
 * the cause, the reason, who and when. `resolved` is what older servers send.
 */
export function isAlarmClosed(alarm: TExcursionAlarm): boolean {
  return alarm.state === 'CLOSED' || alarm.resolved === true;
}

/** Open alarms first, then closed ones; the server's order (newest first) within each. */
export function openAlarmsFirst(alarms: readonly TExcursionAlarm[]): TExcursionAlarm[] {
  return [...alarms.filter((a) => !isAlarmClosed(a)), ...alarms.filter((a) => isAlarmClosed(a))];
}

/** Who closed it: the person's username, or "System" when a re-evaluation did. */
export function closedByLabel(alarm: TExcursionAlarm): string {
  return alarm.closed_by ?? 'System';
}

/** Why it closed, in words ("Thresholds changed"); empty when the server does not say. */
export function closeCauseLabel(alarm: TExcursionAlarm): string {
  return alarm.close_cause ? ALARM_CLOSE_CAUSE_LABELS[alarm.close_cause] : '';
}
