import {
  ALARM_CLOSE_CAUSE_LABELS,
  NOTIFICATION_BADGE_MAX,
  type TNotification,
} from '@coldtrace/contract';

/** The bell's label (spec section 2): the count, 'More than 99 notifications' above, 'No notifications' at none. */
export function bellLabel(total: number): string {
  if (total === 0) return 'No notifications';
  if (total > NOTIFICATION_BADGE_MAX) return `More than ${NOTIFICATION_BADGE_MAX} notifications`;
  return `${total} notification${total === 1 ? '' : 's'}`;
}

/** 'Record {id} has an alarm' (spec section 2). */
export const notificationText = (n: TNotification) => `Record ${n.record_id} has an alarm`;

/**
 * A second line for a notification whose alarm has closed since ("Alarm
 * closed: Thresholds changed"), so the bell does not point at an alarm that
 * seems to be gone; null while the alarm is open.
 */
export function notificationDetail(n: TNotification): string | null {
  if (n.state !== 'CLOSED' && n.resolved !== true) return null;
  return n.close_cause
    ? `Alarm closed: ${ALARM_CLOSE_CAUSE_LABELS[n.close_cause]}`
    : 'Alarm closed';
}
