import {
  ALARM_STATUSES,
  BATTERY_HEALTHS,
  MEMORY_HEALTHS,
  TAG_STATUSES,
  TAG_TYPES,
  TRIP_STATUSES,
} from '@coldtrace/contract';
import { and, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { users } from '../../db/schema';
import { records, tags, travelLocations } from '../../db/schema-shipments';
import { withNeverNull, type FieldCatalog } from './filter-sql';

/**
 * The tables of the record and tag lists, and the whitelists of fields their
 * `filter`, `order_by` and `search` may name (docs/decisions/record-queries.md).
 */

/** The shipper (origin) and receiver (destination) travel locations of a record. */
export const shipper = alias(travelLocations, 'shipper');
export const receiver = alias(travelLocations, 'receiver');
/** The user of a record's last scan. */
export const scannedBy = alias(users, 'scanned_by');
/** The latest record of a tag in the tag lists. */
export const lastRecord = alias(records, 'last_record');
export const lastShipper = alias(travelLocations, 'last_shipper');
export const lastReceiver = alias(travelLocations, 'last_receiver');

/** The join to a party (one of the aliases above): the location a record names, in its own organization only. */
export function partyOf(
  party: { id: AnyColumn; organizationId: AnyColumn },
  locationId: AnyColumn,
  organizationId: AnyColumn,
): SQL | undefined {
  return and(eq(party.id, locationId), eq(party.organizationId, organizationId));
}

/** `start_time` is `start_time_seconds` as a time. */
export const recordStartTime = sql`to_timestamp(${records.startTimeSeconds})`;

const text = (expr: FieldCatalog[string]['expr']) => ({ type: 'text', expr }) as const;
const num = (expr: FieldCatalog[string]['expr']) => ({ type: 'number', expr }) as const;
const date = (expr: FieldCatalog[string]['expr']) => ({ type: 'date', expr }) as const;
const oneOf = (expr: FieldCatalog[string]['expr'], values: readonly string[]) =>
  ({ type: 'enum', expr, values }) as const;

/** Fields of `GET records/` (and the order of the locations aggregate). */
export const RECORD_FIELDS: FieldCatalog = withNeverNull(
  {
    id: { type: 'id', expr: records.id },
    tag_id: { type: 'id', expr: records.tagId },
    tag_serial_number: text(records.tagSerialNumber),
    tag_type: oneOf(records.tagType, TAG_TYPES),
    tag_status: oneOf(records.tagStatus, TAG_STATUSES),
    primary_reference: text(records.primaryReference),
    secondary_reference: text(records.secondaryReference),
    shipping_reference: text(records.shippingReference),
    program_name: text(records.programName),
    carrier: text(records.carrier),
    product_designation: text(records.productDesignation),
    po_number: text(records.poNumber),
    shipper_name_address: text(shipper.name),
    'shipper_name_address.name': text(shipper.name),
    receiver_name_address: text(receiver.name),
    'receiver_name_address.name': text(receiver.name),
    status: oneOf(records.status, ALARM_STATUSES),
    computed_status: oneOf(records.computedStatus, ALARM_STATUSES),
    trip_status: oneOf(records.tripStatus, TRIP_STATUSES),
    'trip.trip_status': oneOf(records.tripStatus, TRIP_STATUSES),
    trip_begin_time: date(records.tripBeginTime),
    'trip.begin_time': date(records.tripBeginTime),
    trip_end_time: date(records.tripEndTime),
    'trip.end_time': date(records.tripEndTime),
    high_threshold: num(records.highThreshold),
    low_threshold: num(records.lowThreshold),
    cumulative_high_threshold: num(records.cumulativeHighThreshold),
    cumulative_low_threshold: num(records.cumulativeLowThreshold),
    num_consecutive_excursions: num(records.numConsecutiveExcursions),
    highest_recorded_temperature: num(records.highestRecordedTemperature),
    lowest_recorded_temperature: num(records.lowestRecordedTemperature),
    mean_kinetic_temp: num(records.meanKineticTemp),
    measurement_interval: num(records.measurementInterval),
    number_of_points: num(records.numberOfPoints),
    record_duration: num(records.recordDuration),
    last_latitude: num(records.lastLatitude),
    last_longitude: num(records.lastLongitude),
    created: date(records.created),
    last_modified: date(records.lastModified),
    temps_last_updated: date(records.tempsLastUpdated),
    start_time: date(recordStartTime),
    stop_time: date(records.stopTime),
    first_point: date(records.firstPoint),
    last_point: date(records.lastPoint),
    last_action_taken: date(records.lastActionTaken),
    last_scanned: date(records.lastScanned),
    last_scanned_user: text(scannedBy.username),
    battery_health: oneOf(records.batteryHealth, BATTERY_HEALTHS),
    memory_health: oneOf(records.memoryHealth, MEMORY_HEALTHS),
    active: { type: 'boolean', expr: records.active },
    report_exists: { type: 'boolean', expr: records.reportExists },
  },
  records,
);

/**
 * What `search` looks in (spec section 5, "Search filter"): the record's id,
 * references, program name, carrier, product designation and PO number as one
 * text, one field a line (all are NOT NULL), exactly the expression of the
 * trigram index `records_search_fields_idx` (migration 0017); and the tag
 * serial number, the shipper and receiver names (lists/search.ts `searchCondition`).
 */
export const RECORD_SEARCH_TEXT = sql`(${sql.join(
  [
    sql`${records.id}::text`,
    records.primaryReference,
    records.secondaryReference,
    records.shippingReference,
    records.programName,
    records.carrier,
    records.productDesignation,
    records.poNumber,
  ],
  sql.raw(` || E'\\n' || `),
)})`;

/** Fields of `GET details/` (tags in the extended view; references come from the latest record). */
export const TAG_FIELDS: FieldCatalog = withNeverNull(
  {
    id: { type: 'id', expr: tags.id },
    serial_number: text(tags.serialNumber),
    tag_type: oneOf(tags.tagType, TAG_TYPES),
    running: { type: 'boolean', expr: tags.running },
    created: date(tags.created),
    last_record_id: { type: 'id', expr: lastRecord.id },
    primary_reference: text(lastRecord.primaryReference),
    secondary_reference: text(lastRecord.secondaryReference),
    shipping_reference: text(lastRecord.shippingReference),
    program_name: text(lastRecord.programName),
    carrier: text(lastRecord.carrier),
    product_designation: text(lastRecord.productDesignation),
    po_number: text(lastRecord.poNumber),
    shipper_name_address: text(lastShipper.name),
    'shipper_name_address.name': text(lastShipper.name),
    receiver_name_address: text(lastReceiver.name),
    'receiver_name_address.name': text(lastReceiver.name),
    last_action_taken: date(lastRecord.lastActionTaken),
    last_scanned: date(lastRecord.lastScanned),
    last_temp: num(lastRecord.latestTemp),
  },
  tags,
);

/** Default order of both lists (the home list's, spec section 9). */
export const DEFAULT_ORDER_BY = ['-last_action_taken'] as const;
