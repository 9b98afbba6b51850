import { z } from 'zod';
import { UNKNOWN_LATITUDE, UNKNOWN_LONGITUDE } from '../constants';
import {
  ZAlarmStatus,
  ZBatteryHealth,
  ZClientType,
  ZMemoryHealth,
  ZTagStatus,
  ZTagType,
  ZTripStatus,
} from '../enums';
import { ZCalibrationState, ZRecordCalibration } from './calibration';
import { ZNameAddressRef, cumulativeFields, referenceFields, thresholdFields } from './common';
import { ZRecordDisposition } from './disposition';
import { ZReviewState } from './review-state';
import { ZRecordStabilityBudget } from './stability-budget';

/**
 * Records, trips, scans and record actions of spec section 3 ("Records, scans,
 * alarms and tags"). The spec lists no required field for any of them, so every
 * field is optional. Times are ISO 8601 strings; `*_seconds` fields are Unix
 * seconds; temperatures are degrees Celsius; intervals and delays are seconds.
 */

/** Record, "Trip: trip (begin_time, end_time, trip_status)". Trip status: NOT_DEPARTED, IN_TRANSIT, ARRIVED. */
export const ZTrip = z
  .object({
    begin_time: z.string().nullable().optional(),
    end_time: z.string().nullable().optional(),
    trip_status: ZTripStatus.optional(),
  })
  .meta({ id: 'Trip' });
export type TTrip = z.infer<typeof ZTrip>;

/** "Record" (every bullet of the entity, in the spec's order). */
export const ZRecord = z
  .object({
    // Identity: id, tag_id, tag_serial_number, tag_type, tag_status, tag_calibration, created, last_modified, temps_last_updated.
    id: z.string().optional(),
    tag_id: z.string().optional(),
    tag_serial_number: z.string().optional(),
    tag_type: ZTagType.optional(),
    tag_status: ZTagStatus.optional(),
    tag_calibration: ZRecordCalibration.nullable().optional(),
    created: z.string().optional(),
    last_modified: z.string().optional(),
    temps_last_updated: z.string().nullable().optional(),
    // References: primary_reference, secondary_reference, shipping_reference, program_name, carrier, product_designation, po_number.
    ...referenceFields,
    program_name: z.string().nullable().optional(),
    carrier: z.string().nullable().optional(),
    product_designation: z.string().nullable().optional(),
    po_number: z.string().nullable().optional(),
    // Parties: shipper_name_address and receiver_name_address (each with id, name).
    shipper_name_address: ZNameAddressRef.nullable().optional(),
    receiver_name_address: ZNameAddressRef.nullable().optional(),
    // Thresholds and excursions.
    ...thresholdFields,
    ...cumulativeFields,
    num_consecutive_excursions: z.number().int().optional(),
    // Temperature summary.
    highest_recorded_temperature: z.number().nullable().optional(),
    lowest_recorded_temperature: z.number().nullable().optional(),
    mean_kinetic_temp: z.number().nullable().optional(),
    /** The last point's temperature, °C (ours: the spec has it on scans only; lists show it for every tag type). */
    latest_temp: z.number().nullable().optional(),
    // Timing.
    start_time_seconds: z.number().nullable().optional(),
    start_time: z.string().nullable().optional(),
    stop_time: z.string().nullable().optional(),
    measurement_interval: z.number().optional(),
    calculated_measurement_interval: z.number().nullable().optional(),
    transmit_interval: z.number().nullable().optional(),
    start_delay: z.number().optional(),
    /** Timestamp of the first point of the series. */
    first_point: z.string().nullable().optional(),
    /** Timestamp of the last point of the series. */
    last_point: z.string().nullable().optional(),
    number_of_points: z.number().int().optional(),
    /** Seconds from the first to the last point. */
    record_duration: z.number().nullable().optional(),
    // Scans and actions.
    /** Ids of the record's scans (the scans themselves come from records/scans/). */
    scans: z.array(z.string()).optional(),
    last_scanned: z.string().nullable().optional(),
    last_scanned_user: z.string().nullable().optional(),
    last_action_taken: z.string().nullable().optional(),
    last_transmission: z
      .string()
      .nullable()
      .optional()
      .describe(
        'rt and nanotag records only (ours, issue 35 item 6): when the server last received new points for the record ' +
          '(server time; null: nothing received yet). Absent on xt1 records, which are scanned (last_scanned)',
      ),
    // Notification and alarm.
    alarm_recipients: z.array(z.string()).optional(),
    status: ZAlarmStatus.optional(),
    computed_status: ZAlarmStatus.optional(),
    // Position and health.
    last_latitude: z.number().nullable().optional(),
    last_longitude: z.number().nullable().optional(),
    memory_health: ZMemoryHealth.nullable().optional(),
    battery_health: ZBatteryHealth.nullable().optional(),
    // Trip.
    trip: ZTrip.optional(),
    // Report.
    report_exists: z.boolean().optional(),
    // Calibration lifecycle (issue 14 item 7; ours, beyond the spec).
    calibration_state: ZCalibrationState.optional().describe(
      "The tag's calibration state at the shipment's start (start_time; now while it has not " +
        'started), from the certificate in force then: was the tag in calibration for this shipment',
    ),
    calibration_due: z
      .string()
      .nullable()
      .optional()
      .describe('Due date of the certificate in force at the start (null: none)'),
    calibration_warning: z
      .string()
      .nullable()
      .optional()
      .describe(
        "Set when the shipment was started on a tag whose calibration had expired (the organization's expired_calibration_start is WARN)",
      ),
    // Release decision (issue 14 item 2; ours, beyond the spec).
    disposition: ZRecordDisposition.nullable()
      .optional()
      .describe('The current signed release decision (the latest one), or null: none yet'),
    // Review state (issue 14 item 1; ours, beyond the spec).
    review_state: ZReviewState.optional().describe(
      'Computed from the alarms and the release decision: QUARANTINED or REJECTED when that is the latest decision (whatever the alarms); else AWAITING_ACKNOWLEDGEMENT (an alarm neither acknowledged nor dismissed, a release given a later alarm too), AWAITING_DECISION (no decision yet), else the latest decision (RELEASED)',
    ),
    // Whether the alarms still ask for work (issue 35; ours, beyond the spec).
    alarm_awaits_acknowledgement: z
      .boolean()
      .optional()
      .describe(
        'True while an alarm of the record is neither acknowledged, dismissed nor superseded; false once every alarm is (a record in alarm then shows "Alarms acknowledged")',
      ),
    // Stability budget (issue 14 item 3; ours, beyond the spec). The single-record reply only.
    stability_budget: ZRecordStabilityBudget.nullable()
      .optional()
      .describe(
        "The product's stability budget summed across the shipment's legs; null: the product has none (or the record names no product). Sent by the single-record calls only",
      ),
    planned_arrival: z
      .string()
      .nullable()
      .optional()
      .describe('When the shipment is planned to arrive (ours; set by start or update-shipment)'),
  })
  .meta({ id: 'Record' });
export type TRecord = z.infer<typeof ZRecord>;

/** "Scan" (Identity, Position, Temperature summary, Excursions, Tag state, Context). */
export const ZScan = z
  .object({
    // Identity: id, start_time, stop_time, temperatures, tag_id, tag_serial_number, record, timestamp, created, created_by_user.
    id: z.string().optional(),
    start_time: z.string().nullable().optional(),
    stop_time: z.string().nullable().optional(),
    temperatures: z.array(z.number()).optional(),
    tag_id: z.string().optional(),
    tag_serial_number: z.string().optional(),
    /** Id of the record the scan belongs to. */
    record: z.string().nullable().optional(),
    timestamp: z.string().optional(),
    created: z.string().optional(),
    created_by_user: z.string().nullable().optional(),
    // Position: latitude, longitude.
    latitude: z.number().nullable().optional(),
    longitude: z.number().nullable().optional(),
    // Temperature summary: highest_recorded_temp, lowest_recorded_temp, mean_kinetic_temp, latest_temp.
    highest_recorded_temp: z.number().nullable().optional(),
    lowest_recorded_temp: z.number().nullable().optional(),
    mean_kinetic_temp: z.number().nullable().optional(),
    latest_temp: z.number().nullable().optional(),
    // Excursions: excursion_duration_above, excursion_duration_below (seconds).
    excursion_duration_above: z.number().nullable().optional(),
    excursion_duration_below: z.number().nullable().optional(),
    // Tag state: tag_status, measurement_interval, start_delay, thresholds.
    tag_status: ZTagStatus.optional(),
    measurement_interval: z.number().optional(),
    start_delay: z.number().optional(),
    ...thresholdFields,
    // Context: references, description, status, device type, app version.
    ...referenceFields,
    description: z.string().nullable().optional(),
    status: ZAlarmStatus.optional(),
    mobile_device_type: ZClientType.optional(),
    mobile_app_version: z.string().optional(),
  })
  .meta({ id: 'Scan' });
export type TScan = z.infer<typeof ZScan>;

/**
 * "Record action: id, record_id, tag_id, tag_serial_number, action_type,
 * action_type_display, latitude, longitude, timestamp, created_by_user, tag_type,
 * mobile_device_type, mobile_app_version. Latitude and longitude default to -91
 * and -181."
 */
export const ZRecordAction = z
  .object({
    id: z.string().optional(),
    record_id: z.string().optional(),
    tag_id: z.string().optional(),
    tag_serial_number: z.string().optional(),
    action_type: z.string().optional(),
    action_type_display: z.string().optional(),
    latitude: z.number().default(UNKNOWN_LATITUDE),
    longitude: z.number().default(UNKNOWN_LONGITUDE),
    timestamp: z.string().optional(),
    created_by_user: z.string().nullable().optional(),
    tag_type: ZTagType.optional(),
    mobile_device_type: ZClientType.optional(),
    mobile_app_version: z.string().optional(),
  })
  .meta({ id: 'RecordAction' });
export type TRecordAction = z.infer<typeof ZRecordAction>;

/**
 * Points of an upload timed after its record's stop: not added to the record
 * (domain rules §1). They are the upload's points from `from_index` on; the
 * record's audit trail keeps them (`record.points.set_aside`).
 */
export const ZSetAsidePoints = z
  .object({
    /** How many points (values, not gaps) were set aside. */
    count: z.number().int(),
    /** Index of the first point set aside; every later point of the upload was set aside too. */
    from_index: z.number().int(),
    /** When the first point set aside was taken (ISO 8601, UTC). */
    from_time: z.string(),
    /** The record's stop (ISO 8601, UTC). */
    stop_time: z.string(),
  })
  .meta({ id: 'SetAsidePoints' });
export type TSetAsidePoints = z.infer<typeof ZSetAsidePoints>;

/**
 * "Record reference: record_id, tag_id, tag_serial_number." (reply of record-ids/).
 * An upload whose points reach past its record's stop also answers `set_aside`.
 */
export const ZRecordReference = z
  .object({
    record_id: z.string().optional(),
    tag_id: z.string().optional(),
    tag_serial_number: z.string().optional(),
    set_aside: ZSetAsidePoints.optional(),
  })
  .meta({ id: 'RecordReference' });
export type TRecordReference = z.infer<typeof ZRecordReference>;

/**
 * "Record statistics: num_records, num_alarm_records, num_no_alarm_records,
 * num_active_records, num_stopped_records, scans_made. Tag counts: running_tags,
 * idle_tags."
 */
export const ZRecordStatistics = z
  .object({
    num_records: z.number().int().optional(),
    num_alarm_records: z.number().int().optional(),
    num_no_alarm_records: z.number().int().optional(),
    num_active_records: z.number().int().optional(),
    num_stopped_records: z.number().int().optional(),
    scans_made: z.number().int().optional(),
    running_tags: z.number().int().optional(),
    idle_tags: z.number().int().optional(),
    // Ours (issue 14 item 1): the filtered statistics only.
    num_alarm_started_records: z
      .number()
      .int()
      .optional()
      .describe(
        'Filtered statistics only: records (created whenever) with an alarm, not dismissed, that started in the period (alarm time; the other counts are by shipment time, the record creation)',
      ),
  })
  .meta({ id: 'RecordStatistics' });
export type TRecordStatistics = z.infer<typeof ZRecordStatistics>;

/**
 * "File reference (reports): url, localUrl, fileName." Report generation
 * answers it; localUrl and fileName identify the file to fetch (spec section 7).
 */
export const ZFileReference = z
  .object({
    url: z.string().optional(),
    localUrl: z.string().optional(),
    fileName: z.string().optional(),
  })
  .meta({ id: 'FileReference' });
export type TFileReference = z.infer<typeof ZFileReference>;
