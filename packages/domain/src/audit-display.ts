import { SIGNATURE_MEANING_LABELS, type TDegreesUnit } from '@coldtrace/contract';
import { formatDateTime } from './date-format';
import { formatDuration, parseDurationString } from './duration';
import { MISSING_VALUE } from './missing-value';
import { toDisplayUnit } from './temperature';

/**
 * An audit entry as people read it, the same on the record page and in every
 * report (issue 11): the action and the field in words, temperatures in the
 * reader's unit with one decimal and the unit, durations in days, hours and
 * minutes, instants en-US 24-hour in the reader's zone, trip states and yes/no
 * in words (spec section 9). The stored values never change; only the display.
 */

export interface AuditDisplayOptions {
  unit: TDegreesUnit;
  timeZone: string;
  /** How an instant (epoch ms) is written; `formatDateTime` in `timeZone` by default. */
  formatInstant?: (epochMs: number) => string;
}

const ACTION_LABELS: Record<string, string> = {
  'alarm.acknowledge': 'Alarm acknowledged',
  'alarm.dismiss': 'Alarm dismissed',
  'alarm.create': 'Alarm raised',
  'alarm.raise': 'Alarm raised',
  'alarm.close': 'Alarm closed',
  'record.shipment.update': 'Shipment details changed',
  'record.trip.update': 'Trip times changed',
  'record.alarm_recipients.update': 'Alarm recipients changed',
  'calibration.expired_start': 'Started on an expired calibration',
  'record.disposition': 'Release decision signed',
};

const FIELD_LABELS: Record<string, string> = {
  high_threshold: 'High threshold',
  low_threshold: 'Low threshold',
  cumulative_high_threshold: 'Cumulative high threshold',
  cumulative_low_threshold: 'Cumulative low threshold',
  cumulative_duration_high: 'Cumulative duration high',
  cumulative_duration_low: 'Cumulative duration low',
  num_consecutive_excursions: 'Consecutive points for an excursion',
  begin_time: 'Trip begin',
  end_time: 'Trip end',
  trip_status: 'Trip status',
  primary_reference: 'Primary reference',
  secondary_reference: 'Secondary reference',
  shipping_reference: 'Shipping reference',
  program_name: 'Program',
  po_number: 'PO number',
  product_designation: 'Product',
  shipper_name_address_id: 'Shipper',
  receiver_name_address_id: 'Receiver',
  alarm_recipients: 'Alarm recipients',
  acknowledged: 'Acknowledged',
  dismissed: 'Dismissed',
  state: 'State',
  calibration_due: 'Calibration due',
};

/** An alarm's states (`state` entries of `alarm.raise` and `alarm.close`). */
const ALARM_STATE_LABELS: Record<string, string> = { OPEN: 'Open', CLOSED: 'Closed' };

const TRIP_STATUS_LABELS: Record<string, string> = {
  NOT_DEPARTED: 'Not departed',
  IN_TRANSIT: 'In transit',
  ARRIVED: 'Arrived',
};

const TEMPERATURE_FIELDS = new Set([
  'high_threshold',
  'low_threshold',
  'cumulative_high_threshold',
  'cumulative_low_threshold',
]);
const DURATION_FIELDS = new Set(['cumulative_duration_high', 'cumulative_duration_low']);
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** `record.trip.update` as `Trip times changed`; unknown actions de-dotted, first letter capital. */
export function auditActionLabel(action: string): string {
  return ACTION_LABELS[action] ?? capitalise(action.replace(/[._]+/g, ' '));
}

/** `high_threshold` as `High threshold`; unknown fields de-underscored, first letter capital. */
export function auditFieldLabel(field: string): string {
  return FIELD_LABELS[field] ?? capitalise(field.replace(/[._]+/g, ' '));
}

/** A value of an entry (old or new) of `field` as the reader reads it; `—` for none. */
export function auditValueText(
  field: string | null | undefined,
  value: unknown,
  options: AuditDisplayOptions,
): string {
  if (value === null || value === undefined) return MISSING_VALUE;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') {
    if (field != null && TEMPERATURE_FIELDS.has(field) && Number.isFinite(value)) {
      return `${toDisplayUnit(value, options.unit).toFixed(1)} °${options.unit}`;
    }
    return String(value);
  }
  if (typeof value === 'string') {
    if (value === '') return '(empty)';
    if (field === 'state' && ALARM_STATE_LABELS[value] !== undefined) {
      return ALARM_STATE_LABELS[value];
    }
    if (field != null && DURATION_FIELDS.has(field)) {
      const seconds = parseDurationString(value);
      return seconds === null ? value : formatDuration(seconds);
    }
    const trip = TRIP_STATUS_LABELS[value];
    if (trip !== undefined) return trip;
    if (ISO_INSTANT.test(value)) {
      const ms = new Date(value).getTime();
      if (!Number.isNaN(ms)) {
        return options.formatInstant
          ? options.formatInstant(ms)
          : formatDateTime(new Date(ms), options.timeZone);
      }
    }
    const meaning = (SIGNATURE_MEANING_LABELS as Record<string, string>)[value];
    return meaning ?? value;
  }
  if (Array.isArray(value)) {
    return value.length === 0
      ? '(none)'
      : value.map((v) => auditValueText(null, v, options)).join(', ');
  }
  return JSON.stringify(value);
}

/**
 * The change of an entry in one line: `High threshold: 46.4 °F → 48.2 °F`;
 * without a field `old → new`, or the new value alone when there was none.
 */
export function auditChangeText(
  entry: { field?: string | null; oldValue: unknown; newValue: unknown },
  options: AuditDisplayOptions,
): string {
  const field = entry.field ?? null;
  const value = (v: unknown) => auditValueText(field, v, options);
  if (field)
    return `${auditFieldLabel(field)}: ${value(entry.oldValue)} → ${value(entry.newValue)}`;
  if (entry.oldValue !== undefined && entry.oldValue !== null) {
    return `${value(entry.oldValue)} → ${value(entry.newValue)}`;
  }
  return value(entry.newValue);
}
