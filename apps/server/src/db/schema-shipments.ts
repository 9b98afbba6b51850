import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  unique,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { organizations, users } from './schema';
import type { PendingCommand, TagConfiguration, TripInputs } from './schema-json';
import { id64, orgRef, ref64, timestamptz } from './columns';
export {
  carrierDefinitions,
  productDefinitions,
  type ProductDefinitionRow,
} from './schema-configuration';

/**
 * Shipment data (issue 3): configuration, tags, records, the compact
 * temperature series, scans, actions, location samples and alarms.
 * Every tenant table carries `organization_id`. Temperatures in °C, times UTC.
 * Ids the contract calls strings are bigint identities rendered as decimal
 * strings (the Tag id is a number in the contract).
 */

// ---------------------------------------------------------------- configuration

/** Name-and-address location (travel location): shipper (origin) and receiver (destination). */
export const travelLocations = pgTable(
  'travel_locations',
  {
    id: id64(),
    organizationId: orgRef(),
    created: timestamptz('created').notNull().defaultNow(),
    name: text('name').notNull(),
    address: text('address').notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    origin: boolean('origin').notNull().default(false),
    destination: boolean('destination').notNull().default(false),
    timezone: text('timezone'),
  },
  (t) => [index('travel_locations_org_idx').on(t.organizationId)],
);

/** Organization settings: the geo-fence (radii kept in metres plus the unit the user chose). */
export const organizationSettings = pgTable('organization_settings', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  arrivalRadiusMeters: doublePrecision('arrival_radius_meters').notNull().default(1000),
  arrivalRadiusUnits: text('arrival_radius_units').notNull().default('m'),
  departureRadiusMeters: doublePrecision('departure_radius_meters').notNull().default(1000),
  departureRadiusUnits: text('departure_radius_units').notNull().default('m'),
  numPointsToArrive: integer('num_points_to_arrive').notNull().default(2),
  numPointsToDepart: integer('num_points_to_depart').notNull().default(2),
  /** Calibration lifecycle (issue 14 item 7): validity of a certificate without a due date. */
  calibrationValidityMonths: integer('calibration_validity_months').notNull().default(12),
  /** A tag's calibration is DUE_SOON this many days before its due date. */
  calibrationDueSoonDays: integer('calibration_due_soon_days').notNull().default(30),
  /** Starting a shipment on a tag whose calibration expired: WARN or REFUSE. */
  expiredCalibrationStart: text('expired_calibration_start').notNull().default('WARN'),
  /** A running rt or nanotag record silent this many transmit intervals raises no_data (no-data-alarm.md). */
  noDataFactor: doublePrecision('no_data_factor').notNull().default(3),
  /** A release before the trip has ended, with a reason (issue 35, disposition.md); off: a 409. */
  allowReleaseInTransit: boolean('allow_release_in_transit').notNull().default(false),
  /** TOTP or a recovery code at every signature, and at administrators' sign-in (second-factor.md). */
  secondFactorForSigners: boolean('second_factor_for_signers').notNull().default(false),
  secondFactorForAdministrators: boolean('second_factor_for_administrators')
    .notNull()
    .default(false),
});

// ---------------------------------------------------------------- tags and records

/** A physical tag. `id` is the Tag id (a number); the serial number is printed on it. */
export const tags = pgTable(
  'tags',
  {
    id: id64(),
    organizationId: orgRef(),
    serialNumber: text('serial_number').notNull(),
    tagType: text('tag_type').notNull(),
    created: timestamptz('created').notNull().defaultNow(),
    lastRecordId: ref64('last_record_id'),
    running: boolean('running').notNull().default(false),
    /**
     * The settings the tag was last configured with (configure actions,
     * generalized data, transmit interval): used when a record starts without
     * them (rt packets, nanotag first sample). Merged field by field.
     */
    configuration: jsonb('configuration')
      .$type<TagConfiguration>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    /** The last accepted rt request (configure, start or stop) the tag has not confirmed yet. */
    pendingCommand: jsonb('pending_command').$type<PendingCommand>(),
  },
  (t) => [
    /**
     * A serial number names a tag within an organization only: another
     * organization's tag of the same serial is another tag (no squatting).
     * Also the organization's index of its tags.
     */
    unique('tags_org_serial_number_key').on(t.organizationId, t.serialNumber),
  ],
);

/**
 * A record is one run of one tag (domain rules section 1). The summary
 * columns are recomputed from the series on every change.
 */
export const records = pgTable(
  'records',
  {
    id: id64(),
    organizationId: orgRef(),
    tagId: ref64('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'restrict' }),
    tagSerialNumber: text('tag_serial_number').notNull(),
    tagType: text('tag_type').notNull(),
    tagStatus: text('tag_status').notNull().default('XT1_ACTIVE'),
    created: timestamptz('created').notNull().defaultNow(),
    lastModified: timestamptz('last_modified').notNull().defaultNow(),
    tempsLastUpdated: timestamptz('temps_last_updated'),
    // references
    primaryReference: text('primary_reference').notNull().default(''),
    secondaryReference: text('secondary_reference').notNull().default(''),
    shippingReference: text('shipping_reference').notNull().default(''),
    programName: text('program_name').notNull().default(''),
    carrier: text('carrier').notNull().default(''),
    productDesignation: text('product_designation').notNull().default(''),
    poNumber: text('po_number').notNull().default(''),
    shipperLocationId: ref64('shipper_location_id').references(() => travelLocations.id, {
      onDelete: 'set null',
    }),
    receiverLocationId: ref64('receiver_location_id').references(() => travelLocations.id, {
      onDelete: 'set null',
    }),
    // thresholds
    highThreshold: doublePrecision('high_threshold'),
    lowThreshold: doublePrecision('low_threshold'),
    cumulativeHighThreshold: doublePrecision('cumulative_high_threshold'),
    cumulativeLowThreshold: doublePrecision('cumulative_low_threshold'),
    cumulativeDurationHigh: text('cumulative_duration_high'),
    cumulativeDurationLow: text('cumulative_duration_low'),
    numConsecutiveExcursions: integer('num_consecutive_excursions').notNull().default(1),
    // timing (seconds)
    startTimeSeconds: bigint('start_time_seconds', { mode: 'number' }),
    stopTime: timestamptz('stop_time'),
    measurementInterval: integer('measurement_interval').notNull(),
    calculatedMeasurementInterval: doublePrecision('calculated_measurement_interval'),
    transmitInterval: integer('transmit_interval'),
    startDelay: integer('start_delay').notNull().default(0),
    // summary (recomputed)
    highestRecordedTemperature: doublePrecision('highest_recorded_temperature'),
    lowestRecordedTemperature: doublePrecision('lowest_recorded_temperature'),
    meanKineticTemp: doublePrecision('mean_kinetic_temp'),
    firstPoint: timestamptz('first_point'),
    lastPoint: timestamptz('last_point'),
    numberOfPoints: integer('number_of_points').notNull().default(0),
    /** Length of the series (highest index + 1), gaps included. */
    seriesLength: integer('series_length').notNull().default(0),
    recordDuration: doublePrecision('record_duration'),
    latestTemp: doublePrecision('latest_temp'),
    // scans and actions
    lastScanned: timestamptz('last_scanned'),
    lastScannedUserId: uuid('last_scanned_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    lastActionTaken: timestamptz('last_action_taken'),
    // notification and alarm
    alarmRecipients: text('alarm_recipients')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    status: text('status').notNull().default('OK'),
    computedStatus: text('computed_status').notNull().default('OK'),
    // position and health
    lastLatitude: doublePrecision('last_latitude'),
    lastLongitude: doublePrecision('last_longitude'),
    memoryHealth: text('memory_health'),
    batteryHealth: text('battery_health'),
    /** Set when the shipment started on a tag whose calibration had expired (WARN; issue 14 item 7). */
    calibrationWarning: text('calibration_warning'),
    /** When the shipment is planned to arrive (issue 14 item 3: the stability budget's projection). */
    plannedArrival: timestamptz('planned_arrival'),
    // trip
    tripBeginTime: timestamptz('trip_begin_time'),
    tripEndTime: timestamptz('trip_end_time'),
    tripStatus: text('trip_status').notNull().default('NOT_DEPARTED'),
    /** A manual trip edit is never overwritten by automatic detection. */
    tripManual: boolean('trip_manual').notNull().default(false),
    /**
     * What trip detection works from, kept with the record (origin, destination
     * and the geo-fence as they were): a later geo-fence or location change
     * reaches a record only when it is made, for the active records it affects,
     * audited; never later as a side effect. Null: taken from the settings at
     * the next evaluation (docs/decisions/alarm-lifecycle.md).
     */
    tripInputs: jsonb('trip_inputs').$type<TripInputs>(),
    reportExists: boolean('report_exists').notNull().default(false),
    /** Device time of the report battery_health / memory_health come from (the latest report wins). */
    healthReportedAt: timestamptz('health_reported_at'),
    /** Active until a stop action. */
    active: boolean('active').notNull().default(true),
  },
  (t) => [
    // The records list's default order, ties by id (docs/decisions/list-performance.md, "Indexes").
    index('records_org_last_action_idx').on(
      t.organizationId,
      t.lastActionTaken.desc().nullsLast(),
      t.id.desc().nullsFirst(),
    ),
    // Records created in a range, with their tag (statistics of a range: the
    // tags with a record in it, read from this index alone).
    index('records_org_created_idx').on(t.organizationId, t.created, t.tagId),
    // Lane and carrier KPIs: the shipments that started in a period (docs/decisions/kpis.md).
    index('records_org_start_idx').on(t.organizationId, t.startTimeSeconds),
    // The no-data job (issue 14 item 4): running rt and nanotag records, by their last data.
    index('records_live_idx')
      .on(t.tempsLastUpdated)
      .where(sql`${t.active} AND ${t.stopTime} IS NULL AND ${t.tagType} IN ('XT1_RT', 'NanoTag')`),
    // The legs of a shipment (stability budgets): same organization and shipping reference.
    index('records_org_shipping_ref_idx')
      .on(t.organizationId, t.shippingReference)
      .where(sql`${t.shippingReference} <> ''`),
    // A tag's latest record (the tag list's LATERAL probe): the highest id of the tag in the organization.
    index('records_org_tag_id_idx').on(t.organizationId, t.tagId, t.id.desc()),
    index('records_shipper_location_idx').on(t.shipperLocationId),
    index('records_receiver_location_idx').on(t.receiverLocationId),
    // The search box's text (records/fields.ts RECORD_SEARCH_TEXT), trigram-indexed for
    // contains; the tag serial number is searched through record_tag_serials.
    // Every upload's update of the record adds its entries (not a HOT update:
    // the row's indexed columns change) to the index's pending list, which
    // every search reads through: 64 kB at most, not the default 4 MB (a
    // search took 2.7 ms instead of 0.5 with 2.7 MB pending; migration 0020).
    index('records_search_fields_idx')
      .using(
        'gin',
        sql`(${t.id}::text || E'\\n' || ${t.primaryReference} || E'\\n' || ${t.secondaryReference} || E'\\n' || ${t.shippingReference} || E'\\n' || ${t.programName} || E'\\n' || ${t.carrier} || E'\\n' || ${t.productDesignation} || E'\\n' || ${t.poNumber}) extensions.gin_trgm_ops`,
      )
      .with({ gin_pending_list_limit: 64 }),
    /**
     * One record per run: a run of a tag is identified, within the
     * organization, by its start_time_seconds (NULL: not started yet). A tag
     * that moved keeps its old organization's records; the new one's are its own.
     */
    unique('records_org_tag_start_key').on(t.organizationId, t.tagId, t.startTimeSeconds),
  ],
);

/**
 * The temperature series, stored compactly: chunks of SERIES_CHUNK_SIZE points
 * per record as `real[]` (°C, NULL for a gap), merged by index.
 */
export const recordSeriesChunks = pgTable(
  'record_series_chunks',
  {
    recordId: ref64('record_id')
      .notNull()
      .references(() => records.id, { onDelete: 'cascade' }),
    chunkNo: integer('chunk_no').notNull(),
    organizationId: orgRef(),
    temps: real('temps').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.recordId, t.chunkNo] })],
);

/** A scan of a tag by the phone app (or an xt1 upload), with the summary it carried. */
export const scans = pgTable(
  'scans',
  {
    id: id64(),
    organizationId: orgRef(),
    recordId: ref64('record_id').references(() => records.id, { onDelete: 'cascade' }),
    tagId: ref64('tag_id').notNull(),
    tagSerialNumber: text('tag_serial_number').notNull(),
    timestamp: timestamptz('timestamp').notNull(),
    created: timestamptz('created').notNull().defaultNow(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    highestRecordedTemp: doublePrecision('highest_recorded_temp'),
    lowestRecordedTemp: doublePrecision('lowest_recorded_temp'),
    meanKineticTemp: doublePrecision('mean_kinetic_temp'),
    latestTemp: doublePrecision('latest_temp'),
    excursionDurationAbove: doublePrecision('excursion_duration_above'),
    excursionDurationBelow: doublePrecision('excursion_duration_below'),
    tagStatus: text('tag_status'),
    measurementInterval: integer('measurement_interval'),
    startDelay: integer('start_delay'),
    highThreshold: doublePrecision('high_threshold'),
    lowThreshold: doublePrecision('low_threshold'),
    primaryReference: text('primary_reference').notNull().default(''),
    secondaryReference: text('secondary_reference').notNull().default(''),
    shippingReference: text('shipping_reference').notNull().default(''),
    description: text('description').notNull().default(''),
    status: text('status').notNull().default('OK'),
    mobileDeviceType: text('mobile_device_type'),
    mobileAppVersion: text('mobile_app_version'),
    numberOfPoints: integer('number_of_points').notNull().default(0),
    /** start_time_seconds and stop_time the scan reported. */
    startTimeSeconds: bigint('start_time_seconds', { mode: 'number' }),
    stopTime: timestamptz('stop_time'),
    /**
     * The scan's temperatures are points [temps_offset_index, temps_offset_index
     * + temps_length) of the record's series (stored once, in the series chunks).
     */
    tempsOffsetIndex: integer('temps_offset_index').notNull().default(0),
    tempsLength: integer('temps_length').notNull().default(0),
    /** Hash of the upload: a replayed scan changes nothing. */
    uploadKey: text('upload_key').notNull(),
  },
  (t) => [
    unique('scans_upload_key').on(t.organizationId, t.uploadKey),
    // A record's scans in order, and the record view's scan ids read from the
    // index alone: in order, no sort, no row read (list-performance.md,
    // "Record view").
    index('scans_record_idx').on(t.recordId, t.timestamp, t.id, t.organizationId),
    index('scans_org_created_idx').on(t.organizationId, t.created),
    index('scans_org_timestamp_idx').on(t.organizationId, t.timestamp),
  ],
);

/** An action on a record (start, stop, configure, create or update shipment, trip edit). */
export const recordActions = pgTable(
  'record_actions',
  {
    id: id64(),
    organizationId: orgRef(),
    recordId: ref64('record_id')
      .notNull()
      .references(() => records.id, { onDelete: 'cascade' }),
    tagId: ref64('tag_id').notNull(),
    tagSerialNumber: text('tag_serial_number').notNull(),
    actionType: text('action_type').notNull(),
    latitude: doublePrecision('latitude').notNull().default(-91),
    longitude: doublePrecision('longitude').notNull().default(-181),
    timestamp: timestamptz('timestamp').notNull(),
    created: timestamptz('created').notNull().defaultNow(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    tagType: text('tag_type'),
    mobileDeviceType: text('mobile_device_type'),
    mobileAppVersion: text('mobile_app_version'),
    /** Hash of the upload: a replayed action changes nothing. */
    uploadKey: text('upload_key').notNull(),
    /** The reply the upload got; a replay answers it again. */
    reply: jsonb('reply'),
    /** For edits by a person (shipment details, trip times): `{ field: { old, new } }`. */
    changes: jsonb('changes').$type<Record<string, { old: unknown; new: unknown }>>(),
  },
  (t) => [
    unique('record_actions_upload_key').on(t.organizationId, t.uploadKey),
    index('record_actions_record_idx').on(t.recordId, t.timestamp),
  ],
);

/** A position of a record's tag (scan positions, nanotag frames); never the -91/-181 sentinels. */
export const locationSamples = pgTable(
  'location_samples',
  {
    id: id64(),
    organizationId: orgRef(),
    recordId: ref64('record_id')
      .notNull()
      .references(() => records.id, { onDelete: 'cascade' }),
    tagId: ref64('tag_id').notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
    timestamp: timestamptz('timestamp').notNull(),
    frameId: text('frame_id'),
    temperature: doublePrecision('temperature'),
  },
  (t) => [
    unique('location_samples_record_time_key').on(t.recordId, t.timestamp, t.latitude, t.longitude),
    index('location_samples_record_idx').on(t.recordId, t.timestamp),
  ],
);

/**
 * Excursion and cumulative alarms, keyed by record, direction, kind and first
 * point: re-evaluation updates in place and never loses an acknowledgement.
 */
export const alarms = pgTable(
  'alarms',
  {
    id: id64(),
    organizationId: orgRef(),
    recordId: ref64('record_id')
      .notNull()
      .references(() => records.id, { onDelete: 'cascade' }),
    tagId: ref64('tag_id').notNull(),
    tagSerialNumber: text('tag_serial_number').notNull(),
    created: timestamptz('created').notNull().defaultNow(),
    /** no_data: a running rt or nanotag record sent nothing for too long (docs/decisions/no-data-alarm.md). */
    kind: text('kind', { enum: ['excursion', 'cumulative', 'no_data', 'budget'] }).notNull(),
    aboveOrBelow: text('above_or_below', { enum: ['ABOVE', 'BELOW'] }).notNull(),
    firstPointIdx: integer('first_point_idx').notNull(),
    lastPointIdx: integer('last_point_idx').notNull(),
    degreeMinutes: doublePrecision('degree_minutes').notNull(),
    startTime: timestamptz('start_time'),
    endTime: timestamptz('end_time'),
    duration: doublePrecision('duration').notNull(),
    highThreshold: doublePrecision('high_threshold'),
    lowThreshold: doublePrecision('low_threshold'),
    highestRecordedTemperature: doublePrecision('highest_recorded_temperature'),
    lowestRecordedTemperature: doublePrecision('lowest_recorded_temperature'),
    /** Points in the run (cumulative: contributing points). */
    numberOfPoints: integer('number_of_points').notNull().default(0),
    /**
     * OPEN while it holds; CLOSED for good when it stops holding, with the
     * cause, reason, who (null: the system) and when. Never deleted, never
     * opened again (docs/decisions/alarm-lifecycle.md).
     */
    state: text('state', { enum: ['OPEN', 'CLOSED'] })
      .notNull()
      .default('OPEN'),
    closedAt: timestamptz('closed_at'),
    closedByUserId: uuid('closed_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    closeCause: text('close_cause'),
    closeReason: text('close_reason'),
    /** Close cause MERGED: the alarm whose longer run absorbed this one (alarm-lifecycle.md). */
    supersededBy: bigint('superseded_by', { mode: 'number' }).references(
      (): AnyPgColumn => alarms.id,
      { onDelete: 'restrict' },
    ),
    /** no_data alarms: the interval (seconds) the record was expected to send at when raised. */
    expectedInterval: doublePrecision('expected_interval'),
    acknowledged: boolean('acknowledged').notNull().default(false),
    acknowledgedByUserId: uuid('acknowledged_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    acknowledgedAt: timestamptz('acknowledged_at'),
    acknowledgeComment: text('acknowledge_comment'),
    acknowledgeClientType: text('acknowledge_client_type'),
    dismissed: boolean('dismissed').notNull().default(false),
    dismissedByUserId: uuid('dismissed_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    dismissedAt: timestamptz('dismissed_at'),
    dismissReason: text('dismiss_reason'),
  },
  (t) => [
    // One open alarm per record, direction, kind and first point; closed ones stay beside it.
    uniqueIndex('alarms_open_key')
      .on(t.recordId, t.aboveOrBelow, t.kind, t.firstPointIdx)
      .where(sql`${t.state} = 'OPEN' AND ${t.kind} <> 'budget'`),
    // A stability budget alarm: one open per record and band (direction, limit).
    uniqueIndex('alarms_open_budget_key')
      .on(t.recordId, t.aboveOrBelow, sql`coalesce(${t.highThreshold}, ${t.lowThreshold})`)
      .where(sql`${t.state} = 'OPEN' AND ${t.kind} = 'budget'`),
    index('alarms_record_idx').on(t.recordId),
    // The record view's "an alarm awaits acknowledgement" (review-state.ts):
    // the few such alarms, read from the index alone (superseded ones await nothing).
    index('alarms_record_awaiting_idx')
      .on(t.recordId, t.organizationId)
      .where(
        sql`${t.acknowledged} = false AND ${t.dismissed} = false AND ${t.supersededBy} IS NULL`,
      ),
    index('alarms_org_created_idx').on(t.organizationId, t.created),
    // Statistics of a range: the records with a not-dismissed alarm that started in it.
    index('alarms_org_start_idx')
      .on(t.organizationId, t.startTime, t.recordId)
      .where(sql`${t.dismissed} = false`),
    // The default alarm list: neither acknowledged nor dismissed, newest first.
    index('alarms_org_unacknowledged_idx')
      .on(t.organizationId, t.startTime.desc().nullsLast(), t.id.desc().nullsFirst())
      .where(sql`${t.acknowledged} = false AND ${t.dismissed} = false`),
  ],
);

export type { PendingCommand, TagConfiguration, TripInputs } from './schema-json';

export type TagRow = typeof tags.$inferSelect;
export type LocationSampleRow = typeof locationSamples.$inferSelect;
export type RecordRow = typeof records.$inferSelect;
export type ScanRow = typeof scans.$inferSelect;
export type RecordActionRow = typeof recordActions.$inferSelect;
export type AlarmRow = typeof alarms.$inferSelect;
export type TravelLocationRow = typeof travelLocations.$inferSelect;
export type OrganizationSettingsRow = typeof organizationSettings.$inferSelect;
