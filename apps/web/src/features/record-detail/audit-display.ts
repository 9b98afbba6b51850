import type { TAuditEvent, TDegreesUnit } from '@coldtrace/contract';
import { auditActionLabel, auditChangeText } from '@coldtrace/domain';

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

/** What happened, in the words the reports use (`Alarm acknowledged 12`, `Trip times changed`). */
export function auditWhat(entry: TAuditEvent): string {
  const target = entry.entity_type === 'alarm' ? ` ${entry.entity_id}` : '';
  return `${auditActionLabel(entry.action)}${target}`;
}

/**
 * The change as the reports print it (packages/domain audit-display.ts): the
 * field in words, threshold temperatures in the user's unit with one decimal
 * and the unit, times in the user's zone, codes in words
 * (`Trip status: Not departed → In transit`); `(hidden)` values when the
 * display rule hides the field.
 */
export function auditChange(
  entry: TAuditEvent,
  options: { unit: TDegreesUnit; timeZone: string; hidden: boolean },
): string {
  return auditChangeText(
    {
      field: entry.field,
      oldValue: options.hidden ? HIDDEN_AUDIT_VALUE : entry.old_value,
      newValue: options.hidden ? HIDDEN_AUDIT_VALUE : entry.new_value,
    },
    options,
  );
}
