import {
  CONSECUTIVE_FIELD,
  DURATION_FIELDS,
  PARTY_FIELDS,
  THRESHOLD_FIELDS,
  type ShipmentField,
  type ShipmentFormValues,
} from './shipment-form';

/**
 * The shipment fields whose change needs a reason when the record has alarms
 * (they decide which alarms hold: thresholds, limits, product, origin and
 * destination; docs/decisions/alarm-lifecycle.md). References, carrier, PO
 * and program do not.
 */
export const REASON_FIELDS: readonly ShipmentField[] = [
  ...THRESHOLD_FIELDS,
  ...DURATION_FIELDS,
  CONSECUTIVE_FIELD,
  'product_designation',
  ...PARTY_FIELDS,
];

/** True when the edit changes a field that needs a reason for change. */
export function touchesReasonFields(
  initial: ShipmentFormValues,
  values: ShipmentFormValues,
): boolean {
  return REASON_FIELDS.some((field) => values[field].trim() !== initial[field].trim());
}
