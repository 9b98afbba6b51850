import { SIGNATURE_MEANING_LABELS, type TDegreesUnit } from '@coldtrace/contract';
import {
  formatDuration,
  MISSING_VALUE,
  parseDurationString,
  toDisplayUnit,
} from '@coldtrace/domain';
import { formatWall, tripStatusText, wallClock, type ReportAuditLine } from './report-model';

/**
 * One audit entry as every report format prints it (PDF, CSV, XLSX), so the
 * formats tell the same story: the time en-US 24-hour in the reader's zone,
 * the action and field in words, temperatures in the reader's unit with one
 * decimal and the unit, durations in days, hours and minutes, trip states and
 * yes/no in words (spec section 9). Stored values stay as they are; only the
 * display changes.
 */
export interface AuditDisplay {
  when: string;
  who: string;
  what: string;
  /** `High threshold: 46.4 °F → 50.0 °F`, or the value of an entry without a field. */
  change: string;
  reason: string;
}

export interface AuditDisplayOptions {
  unit: TDegreesUnit;
  timeZone: string;
}

const ACTIONS: Record<string, string> = {
  'alarm.acknowledge': 'Alarm acknowledged',
  'alarm.dismiss': 'Alarm dismissed',
  'alarm.create': 'Alarm raised',
  'alarm.close': 'Alarm closed',
  'record.shipment.update': 'Shipment details changed',
  'record.trip.update': 'Trip times changed',
  'record.alarm_recipients.update': 'Alarm recipients changed',
};

const FIELDS: Record<string, string> = {
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
};

const TEMPERATURE_FIELDS = new Set([
  'high_threshold',
  'low_threshold',
  'cumulative_high_threshold',
  'cumulative_low_threshold',
]);
const DURATION_FIELDS = new Set(['cumulative_duration_high', 'cumulative_duration_low']);
const TRIP_STATES = new Set(['IN_TRANSIT', 'ARRIVED', 'NOT_DEPARTED']);
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

/** `record.trip.update` as words ("Trip times changed"); unknown actions de-dotted, first letter capital. */
export function auditActionText(action: string): string {
  return ACTIONS[action] ?? capitalise(action.replace(/[._]+/g, ' '));
}

/** `high_threshold` as `High threshold`; unknown fields de-underscored, first letter capital. */
export function auditFieldText(field: string): string {
  return FIELDS[field] ?? capitalise(field.replace(/[._]+/g, ' '));
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A value of an entry (old or new) as the reader reads it. */
export function auditValueDisplay(
  field: string | null,
  value: unknown,
  options: AuditDisplayOptions & { wall?: (ms: number) => number },
): string {
  if (value === null || value === undefined) return MISSING_VALUE;
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') {
    if (field !== null && TEMPERATURE_FIELDS.has(field) && Number.isFinite(value)) {
      return `${toDisplayUnit(value, options.unit).toFixed(1)} °${options.unit}`;
    }
    return String(value);
  }
  if (typeof value === 'string') {
    if (value === '') return '(empty)';
    if (field !== null && DURATION_FIELDS.has(field)) {
      const seconds = parseDurationString(value);
      return seconds === null ? value : formatDuration(seconds);
    }
    if (TRIP_STATES.has(value)) return tripStatusText(value);
    if (ISO_INSTANT.test(value)) {
      const ms = new Date(value).getTime();
      if (!Number.isNaN(ms)) {
        return formatWall((options.wall ?? wallClock(options.timeZone))(ms));
      }
    }
    const meaning = (SIGNATURE_MEANING_LABELS as Record<string, string>)[value];
    return meaning ?? value;
  }
  if (Array.isArray(value)) {
    return value.length === 0
      ? '(none)'
      : value.map((v) => auditValueDisplay(null, v, options)).join(', ');
  }
  return JSON.stringify(value);
}

/**
 * A function that turns an audit entry into display text for one report
 * (the zone's offsets are looked up once for all entries).
 */
export function auditDisplayer(options: AuditDisplayOptions): (e: ReportAuditLine) => AuditDisplay {
  const wall = wallClock(options.timeZone);
  const opts = { ...options, wall };
  return (e) => {
    const value = (v: unknown) => auditValueDisplay(e.field, v, opts);
    let change: string;
    if (e.field) {
      change = `${auditFieldText(e.field)}: ${value(e.oldValue)} → ${value(e.newValue)}`;
    } else if (e.oldValue !== undefined && e.oldValue !== null) {
      change = `${value(e.oldValue)} → ${value(e.newValue)}`;
    } else {
      change = value(e.newValue);
    }
    return {
      when: formatWall(wall(e.occurredAt.getTime())),
      who: e.actorName,
      what: auditActionText(e.action),
      change,
      reason: e.reason ?? '',
    };
  };
}
