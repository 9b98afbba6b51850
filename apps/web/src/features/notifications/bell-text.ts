import { NOTIFICATION_BADGE_MAX, type TNotification } from '@coldtrace/contract';

/** The bell's label (spec section 2): the count, 'More than 99 notifications' above, 'No notifications' at none. */
export function bellLabel(total: number): string {
  if (total === 0) return 'No notifications';
  if (total > NOTIFICATION_BADGE_MAX) return `More than ${NOTIFICATION_BADGE_MAX} notifications`;
  return `${total} notification${total === 1 ? '' : 's'}`;
}

/** 'Record {id} has an alarm' (spec section 2). */
export const notificationText = (n: TNotification) => `Record ${n.record_id} has an alarm`;
