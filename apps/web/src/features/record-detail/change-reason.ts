import { REGULATED_SHIPMENT_FIELDS } from '@coldtrace/contract';
import type { ShipmentField, ShipmentFormValues } from './shipment-form';

/**
 * The shipment fields whose change needs a reason when the record has alarms
 * (they decide which alarms hold: thresholds, limits, product, origin and
 * destination; docs/decisions/alarm-lifecycle.md): the contract's list, the
 * one the server checks. References, carrier, PO and program do not.
 */
export const REASON_FIELDS: readonly ShipmentField[] =
  Object.values(REGULATED_SHIPMENT_FIELDS).flat();

/** True when the edit changes a field that needs a reason for change. */
export function touchesReasonFields(
  initial: ShipmentFormValues,
  values: ShipmentFormValues,
): boolean {
  return REASON_FIELDS.some((field) => values[field].trim() !== initial[field].trim());
}
