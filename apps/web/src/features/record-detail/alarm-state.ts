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

/** Merged into a longer alarm (close cause MERGED): its survivor's acknowledgement covers it. */
export function isSuperseded(alarm: TExcursionAlarm): boolean {
  return alarm.superseded_by != null;
}

/** Still needs a signature of its own: not acknowledged and not merged into another alarm. */
export function awaitsOwnSignature(alarm: TExcursionAlarm): boolean {
  return alarm.acknowledged !== true && !isSuperseded(alarm);
}

/** An alarm of the list with the alarms merged into it (at any depth), oldest merge first. */
export interface FoldedAlarm {
  alarm: TExcursionAlarm;
  absorbed: TExcursionAlarm[];
}

/**
 * The record page's list: every superseded alarm folded under the alarm that
 * holds its run now (following `superseded_by` through later merges), the
 * others in the given order. A superseded alarm whose survivor is not listed
 * stays on its own.
 */
export function foldSuperseded(alarms: readonly TExcursionAlarm[]): FoldedAlarm[] {
  const byId = new Map(alarms.map((a) => [a.id, a]));
  const rootOf = (alarm: TExcursionAlarm): TExcursionAlarm => {
    const seen = new Set<TExcursionAlarm>();
    let current = alarm;
    while (current.superseded_by != null && !seen.has(current)) {
      seen.add(current);
      const next = byId.get(current.superseded_by);
      if (next === undefined) break;
      current = next;
    }
    return current;
  };
  const folded = new Map<TExcursionAlarm, TExcursionAlarm[]>();
  for (const alarm of alarms) {
    const root = rootOf(alarm);
    if (root === alarm) {
      if (!folded.has(alarm)) folded.set(alarm, []);
    } else {
      folded.set(root, [...(folded.get(root) ?? []), alarm]);
    }
  }
  return alarms
    .filter((a) => folded.has(a))
    .map((alarm) => ({
      alarm,
      absorbed: folded
        .get(alarm)!
        .sort((x, y) => (x.first_point_idx ?? 0) - (y.first_point_idx ?? 0)),
    }));
}
