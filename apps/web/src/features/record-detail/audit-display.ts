import { SIGNATURE_MEANING_LABELS, type TAuditEvent } from '@coldtrace/contract';
import { formatDateTime } from '@coldtrace/domain';

/** What an entry did, in words. */
const ACTION_LABELS: Record<string, string> = {
  'alarm.acknowledge': 'Acknowledged alarm',
  'alarm.dismiss': 'Dismissed alarm',
  'record.shipment.update': 'Edited shipment details',
  'record.trip.update': 'Edited trip times',
  'record.alarm_recipients.update': 'Edited alarm recipients',
};

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** A value of an entry as text: times in the user's zone, yes/no, JSON for the rest; a dash for none. */
export function auditValue(value: unknown, timeZone: string): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') {
    if (ISO_INSTANT.test(value)) return formatDateTime(value, timeZone);
    if (value in SIGNATURE_MEANING_LABELS) {
      return SIGNATURE_MEANING_LABELS[value as keyof typeof SIGNATURE_MEANING_LABELS];
    }
    return value;
  }
  if (typeof value === 'number') return String(value);
  return JSON.stringify(value);
}

/** What an audit entry shows instead of a value the display rule hides (as the reports do). */
export const HIDDEN_AUDIT_VALUE = '(hidden)';

/**
 * True when the entry changed a field the display rule hides: the change stays
 * listed (what, who, when) but its values read `(hidden)`.
 */
export function isAuditValueHidden(
  entry: Pick<TAuditEvent, 'action' | 'field'>,
  hiddenFields: readonly string[],
): boolean {
  if (entry.action === 'record.alarm_recipients.update') {
    return hiddenFields.includes('alarm_recipients');
  }
  return entry.field != null && hiddenFields.includes(entry.field);
}

export function auditWhat(entry: TAuditEvent): string {
  const label = ACTION_LABELS[entry.action] ?? entry.action;
  const target = entry.entity_type === 'alarm' ? ` ${entry.entity_id}` : '';
  return `${label}${target}${entry.field ? ` · ${entry.field.replace(/_/g, ' ')}` : ''}`;
}
