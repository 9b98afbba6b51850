import {
  ALARM_CLOSE_CAUSE_LABELS,
  NOTIFICATION_BADGE_MAX,
  type TDegreesUnit,
  type TNotification,
} from '@coldtrace/contract';
import { MISSING_VALUE, formatDateTime, formatTemperature } from '@coldtrace/domain';

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

/**
 * What kind of alarm, in which direction, against which limit: 'High
 * temperature: above 8.0 °C', 'Cumulative time below 2.0 °C' (issue 14).
 */
export function notificationDirection(n: TNotification, unit: TDegreesUnit): string {
  const above = n.above_or_below !== 'BELOW';
  const limit = above ? n.high_threshold : n.low_threshold;
  const beyond = `${above ? 'above' : 'below'} ${formatTemperature(limit, unit)}`;
  switch (n.kind) {
    case 'cumulative':
      return `Cumulative time ${beyond}`;
    case 'no_data':
      // The record sent nothing for too long (issue 14 item 4): no temperature limit.
      return 'No data';
    case 'budget':
      // A band of the product's stability budget is used up across the shipment's legs (item 3).
      return `Stability budget used up: time ${beyond}`;
    case 'excursion':
    case undefined:
      return `${above ? 'High' : 'Low'} temperature: ${beyond}`;
    default:
      return `${kindLabel(String(n.kind))}: ${beyond}`;
  }
}

/** A kind the bell has no words of its own for ('NO_DATA' reads 'No data'). */
const kindLabel = (kind: string) => {
  const words = kind.replace(/[_-]+/g, ' ').trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** When the alarm happened, in the user's time zone (its first point, else when it was raised). */
export function notificationTime(n: TNotification, timeZone: string): string {
  const at = n.occurred_at ?? n.start_time ?? n.created;
  return at ? formatDateTime(at, timeZone) : MISSING_VALUE;
}

/**
 * The shipment's primary reference ('Reference PO-1'), unless it has none or
 * the user's display rule hides it; the first line already names the record.
 */
export function notificationReference(
  n: TNotification,
  hiddenFields: readonly string[],
): string | null {
  if (hiddenFields.includes('primary_reference')) return null;
  const reference = n.primary_reference?.trim();
  return reference ? `Reference ${reference}` : null;
}

/** The lines under 'Record {id} has an alarm': direction, time, reference, closing. */
export function notificationLines(
  n: TNotification,
  settings: { degreesUnit: TDegreesUnit; timeZone: string; hiddenFields: readonly string[] },
): string[] {
  return [
    notificationDirection(n, settings.degreesUnit),
    notificationTime(n, settings.timeZone),
    notificationReference(n, settings.hiddenFields),
    notificationDetail(n),
  ].filter((line): line is string => line !== null);
}

const notificationsOf = (count: number) => `${count} notification${count === 1 ? '' : 's'}`;

/** The confirmation's title: 'Dismiss 12 notifications?'. */
export const dismissAllQuestion = (count: number) => `Dismiss ${notificationsOf(count)}?`;

/** What dismissing them does (and, past a page, that the rest stay). */
export function dismissAllText(count: number, total: number): string {
  const rest =
    total > count
      ? ` The other ${notificationsOf(total - count)} stay until you dismiss them.`
      : '';
  return (
    `The ${notificationsOf(count)} listed leave your bell. The alarms stay on their records ` +
    `and still need to be acknowledged; other users keep their notifications.${rest}`
  );
}
