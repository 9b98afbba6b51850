import {
  MAX_TEMPERATURE_C,
  MIN_TEMPERATURE_C,
  SHIPMENT_FIELD_PERMISSIONS as CONTRACT_FIELD_PERMISSIONS,
  type TDegreesUnit,
  type TDropdownInfo,
  type TPermissionName,
  type TProductDefinition,
  type TRecord,
  type TXt1UpdateShipmentUpload,
} from '@coldtrace/contract';
import { fromDisplayUnit, parseDurationString, toDisplayUnit } from '@coldtrace/domain';

/**
 * The "Edit shipment details" form (pure, tested): its values from a record
 * (thresholds in the user's unit), validation, the update body (only what
 * changed, thresholds back in °C), the product defaults and the optimistic
 * record (spec section 4: "updates the local record, sends the update").
 */

export const TEXT_FIELDS = [
  'primary_reference',
  'secondary_reference',
  'shipping_reference',
  'program_name',
  'po_number',
  'carrier',
  'product_designation',
] as const;
export const PARTY_FIELDS = ['shipper_name_address_id', 'receiver_name_address_id'] as const;
export const THRESHOLD_FIELDS = [
  'high_threshold',
  'low_threshold',
  'cumulative_high_threshold',
  'cumulative_low_threshold',
] as const;
export const DURATION_FIELDS = ['cumulative_duration_high', 'cumulative_duration_low'] as const;
export const CONSECUTIVE_FIELD = 'num_consecutive_excursions';

export type ShipmentField =
  | (typeof TEXT_FIELDS)[number]
  | (typeof PARTY_FIELDS)[number]
  | (typeof THRESHOLD_FIELDS)[number]
  | (typeof DURATION_FIELDS)[number]
  | typeof CONSECUTIVE_FIELD;

export type ShipmentFormValues = Record<ShipmentField, string>;
export type ShipmentFormErrors = Partial<Record<ShipmentField, string>>;

/** The body fields the form may send (record_id and the client fields are added by the caller). */
export type ShipmentChanges = Partial<
  Pick<
    TXt1UpdateShipmentUpload,
    | (typeof TEXT_FIELDS)[number]
    | (typeof PARTY_FIELDS)[number]
    | (typeof THRESHOLD_FIELDS)[number]
    | (typeof DURATION_FIELDS)[number]
    | typeof CONSECUTIVE_FIELD
    | 'planned_arrival'
  >
>;

/**
 * The permission each field needs on the server (update-shipment-action,
 * docs/decisions/shipment-ingest.md): a field the user may not change is
 * shown read-only.
 */
export const SHIPMENT_FIELD_PERMISSIONS: Record<ShipmentField, TPermissionName> =
  CONTRACT_FIELD_PERMISSIONS;

/** Permissions that open the dialog at all (any one). */
export const SHIPMENT_EDIT_PERMISSIONS = [
  'readerEditRef1',
  'readerEditRef2',
  'readerEditRefShip',
  'readerConfig',
] as const satisfies readonly TPermissionName[];

export const TEXT_MAX_LENGTH = 255;
export const MAX_CONSECUTIVE_EXCURSIONS = 100_000;
export const DURATION_HELP = 'Days optional: 1 12:00:00 or 36:00:00';

const shownThreshold = (celsius: number | null | undefined, unit: TDegreesUnit): string =>
  celsius == null || !Number.isFinite(celsius) ? '' : toDisplayUnit(celsius, unit).toFixed(1);

/** The form's values for a record: texts as stored, thresholds in the user's unit (one decimal). */
export function shipmentFormFrom(record: TRecord, unit: TDegreesUnit): ShipmentFormValues {
  return {
    primary_reference: record.primary_reference ?? '',
    secondary_reference: record.secondary_reference ?? '',
    shipping_reference: record.shipping_reference ?? '',
    program_name: record.program_name ?? '',
    po_number: record.po_number ?? '',
    carrier: record.carrier ?? '',
    product_designation: record.product_designation ?? '',
    shipper_name_address_id: record.shipper_name_address?.id ?? '',
    receiver_name_address_id: record.receiver_name_address?.id ?? '',
    high_threshold: shownThreshold(record.high_threshold, unit),
    low_threshold: shownThreshold(record.low_threshold, unit),
    cumulative_high_threshold: shownThreshold(record.cumulative_high_threshold, unit),
    cumulative_low_threshold: shownThreshold(record.cumulative_low_threshold, unit),
    cumulative_duration_high: record.cumulative_duration_high ?? '',
    cumulative_duration_low: record.cumulative_duration_low ?? '',
    num_consecutive_excursions:
      record.num_consecutive_excursions == null ? '' : String(record.num_consecutive_excursions),
  };
}

/** A number as typed (`8`, `-2.5`, `+3`, `.5`), or null. */
function parseNumber(text: string): number | null {
  const trimmed = text.trim();
  if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(trimmed)) return null;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : null;
}

/** Messages per field; empty when the form may be sent. */
export function validateShipmentForm(
  values: ShipmentFormValues,
  unit: TDegreesUnit,
  initial?: ShipmentFormValues,
): ShipmentFormErrors {
  const errors: ShipmentFormErrors = {};
  for (const field of TEXT_FIELDS) {
    if (values[field].trim().length > TEXT_MAX_LENGTH) {
      errors[field] = `At most ${TEXT_MAX_LENGTH} characters`;
    }
  }
  const celsius: Partial<Record<(typeof THRESHOLD_FIELDS)[number], number>> = {};
  const lowest = toDisplayUnit(MIN_TEMPERATURE_C, unit).toFixed(0);
  const highest = toDisplayUnit(MAX_TEMPERATURE_C, unit).toFixed(0);
  for (const field of THRESHOLD_FIELDS) {
    const text = values[field].trim();
    if (text === '') continue;
    const n = parseNumber(text);
    if (n === null) {
      errors[field] = 'Enter a number';
      continue;
    }
    const c = fromDisplayUnit(n, unit);
    if (c < MIN_TEMPERATURE_C || c > MAX_TEMPERATURE_C) {
      errors[field] = `Must be from ${lowest} to ${highest} °${unit}`;
      continue;
    }
    celsius[field] = c;
  }
  if (
    celsius.low_threshold !== undefined &&
    celsius.high_threshold !== undefined &&
    celsius.low_threshold > celsius.high_threshold
  ) {
    errors.low_threshold = 'Must not be above the high threshold';
  }
  if (
    celsius.cumulative_low_threshold !== undefined &&
    celsius.cumulative_high_threshold !== undefined &&
    celsius.cumulative_low_threshold > celsius.cumulative_high_threshold
  ) {
    errors.cumulative_low_threshold = 'Must not be above the cumulative high threshold';
  }
  for (const field of DURATION_FIELDS) {
    const text = values[field].trim();
    if (text !== '' && parseDurationString(text) === null) {
      errors[field] = 'Use [DD ]HH:MM:SS, e.g. 1 12:00:00';
    }
  }
  const consecutive = values.num_consecutive_excursions.trim();
  if (consecutive === '') {
    if (initial && initial.num_consecutive_excursions.trim() !== '') {
      errors.num_consecutive_excursions = 'Enter a whole number, 1 or more';
    }
  } else if (
    !/^\d+$/.test(consecutive) ||
    Number(consecutive) < 1 ||
    Number(consecutive) > MAX_CONSECUTIVE_EXCURSIONS
  ) {
    errors.num_consecutive_excursions = `Enter a whole number from 1 to ${MAX_CONSECUTIVE_EXCURSIONS.toLocaleString('en-US')}`;
  }
  return errors;
}

/**
 * What changed, as update-shipment-action fields: only fields whose text
 * changed are sent (the server checks each field's permission, and an
 * unchanged threshold is never rounded through the other unit); an emptied
 * field is sent as null (clears it). Call after `validateShipmentForm`.
 */
export function shipmentChanges(
  initial: ShipmentFormValues,
  values: ShipmentFormValues,
  unit: TDegreesUnit,
): ShipmentChanges {
  const changes: ShipmentChanges = {};
  const changed = (field: ShipmentField) => values[field].trim() !== initial[field].trim();
  for (const field of [...TEXT_FIELDS, ...PARTY_FIELDS, ...DURATION_FIELDS]) {
    if (!changed(field)) continue;
    const text = values[field].trim();
    changes[field] = text === '' ? null : text;
  }
  for (const field of THRESHOLD_FIELDS) {
    if (!changed(field)) continue;
    const n = parseNumber(values[field]);
    changes[field] = n === null ? null : fromDisplayUnit(n, unit);
  }
  if (changed(CONSECUTIVE_FIELD) && values.num_consecutive_excursions.trim() !== '') {
    changes.num_consecutive_excursions = Number(values.num_consecutive_excursions.trim());
  }
  return changes;
}

/**
 * Choosing a product fills its thresholds, consecutive excursions and
 * cumulative limits (a limit the product leaves empty is emptied; its
 * consecutive excursions default to 1).
 */
export function applyProduct(
  values: ShipmentFormValues,
  product: TProductDefinition,
  unit: TDegreesUnit,
): ShipmentFormValues {
  return {
    ...values,
    product_designation: product.product_name ?? values.product_designation,
    high_threshold: shownThreshold(product.high_threshold, unit),
    low_threshold: shownThreshold(product.low_threshold, unit),
    cumulative_high_threshold: shownThreshold(product.cumulative_high_threshold, unit),
    cumulative_low_threshold: shownThreshold(product.cumulative_low_threshold, unit),
    cumulative_duration_high: product.cumulative_duration_high ?? '',
    cumulative_duration_low: product.cumulative_duration_low ?? '',
    num_consecutive_excursions: String(product.num_consecutive_excursions ?? 1),
  };
}

function partyName(
  id: string,
  lists: readonly (TDropdownInfo['origin_locations'] | undefined)[],
  current: TRecord['shipper_name_address'],
): string {
  for (const list of lists) {
    const found = list?.find((l) => l.id === id);
    if (found) return found.name ?? '';
  }
  return current?.id === id ? (current.name ?? '') : '';
}

/** The record as it will be once the changes are saved (shown at once, spec section 4). */
export function optimisticRecord(
  record: TRecord,
  changes: ShipmentChanges,
  dropdown: TDropdownInfo | undefined,
): TRecord {
  const next: TRecord = { ...record };
  for (const field of TEXT_FIELDS) {
    if (changes[field] !== undefined) next[field] = changes[field];
  }
  const lists = [dropdown?.origin_locations, dropdown?.destination_locations];
  if (changes.shipper_name_address_id !== undefined) {
    const id = changes.shipper_name_address_id;
    next.shipper_name_address =
      id === null ? null : { id, name: partyName(id, lists, record.shipper_name_address) };
  }
  if (changes.receiver_name_address_id !== undefined) {
    const id = changes.receiver_name_address_id;
    next.receiver_name_address =
      id === null ? null : { id, name: partyName(id, lists, record.receiver_name_address) };
  }
  for (const field of THRESHOLD_FIELDS) {
    if (changes[field] !== undefined) next[field] = changes[field];
  }
  for (const field of DURATION_FIELDS) {
    if (changes[field] !== undefined) next[field] = changes[field];
  }
  if (changes.num_consecutive_excursions !== undefined) {
    next.num_consecutive_excursions = changes.num_consecutive_excursions;
  }
  return next;
}
