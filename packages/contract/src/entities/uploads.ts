import { z } from 'zod';
import {
  DEFAULT_NUM_CONSECUTIVE_EXCURSIONS,
  DEFAULT_TEMPERATURES_OFFSET_INDEX,
  UNKNOWN_LATITUDE,
  UNKNOWN_LONGITUDE,
} from '../constants';
import {
  ZAlarmStatus,
  ZBatteryHealth,
  ZClientType,
  ZMemoryHealth,
  ZTagStatus,
  ZTagType,
} from '../enums';
import { cumulativeFields, referenceFields, thresholdFields } from './common';
import { ZTrip } from './records';

/**
 * Tag uploads of spec section 3 ("Tag messages and uploads"): what the phone
 * app and the web application send about a tag (scans, actions, shipment
 * details, trip edits). Real-time commands, packets and telemetry are in
 * `telemetry.ts`. Times are ISO 8601 strings, `*_seconds` Unix seconds.
 */

/** Free-text shipment fields shared by the upload forms. */
const shipmentTextFields = {
  program_name: z.string().nullable().optional(),
  po_number: z.string().nullable().optional(),
  carrier: z.string().nullable().optional(),
  product_designation: z.string().nullable().optional(),
  shipper_name_address_id: z.string().nullable().optional(),
  receiver_name_address_id: z.string().nullable().optional(),
};

/**
 * "Tag report / scan upload", the report form. "Required in the report form:
 * tag_id, timestamp, high_threshold, low_threshold, measurement_interval,
 * start_delay." Latitude and longitude default to the unknown sentinels -91 and
 * -181; num_consecutive_excursions defaults to 1.
 */
export const ZTagReportUpload = z
  .object({
    tag_id: z.string(),
    tag_serial_number: z.string().optional(),
    timestamp: z.string(),
    ...referenceFields,
    latitude: z.number().default(UNKNOWN_LATITUDE),
    longitude: z.number().default(UNKNOWN_LONGITUDE),
    tag_status: ZTagStatus.optional(),
    tag_type: ZTagType.optional(),
    mobile_device_type: ZClientType.optional(),
    mobile_app_version: z.string().optional(),
    battery_health: ZBatteryHealth.optional(),
    memory_health: ZMemoryHealth.optional(),
    /** Raw header block read from the tag, as the reader encodes it. */
    header_data: z.string().optional(),
    high_threshold: z.number(),
    low_threshold: z.number(),
    measurement_interval: z.number(),
    calculated_measurement_interval: z.number().optional(),
    start_delay: z.number(),
    num_consecutive_excursions: z.number().int().default(DEFAULT_NUM_CONSECUTIVE_EXCURSIONS),
    start_time_seconds: z.number().optional(),
  })
  .meta({ id: 'TagReportUpload' });
export type TTagReportUpload = z.infer<typeof ZTagReportUpload>;

/**
 * The variants of the tag report ("Variants add: stop_time_seconds, record_id,
 * begin_time, end_time, program_name, po_number, shipper_name_address_id,
 * receiver_name_address_id, carrier, product_designation, thresholds, temps,
 * status, temperatures_offset_index (default 0)"), as one form: the scan upload
 * (POST scans/) and the xt1 and rt action uploads (start-action, stop-action,
 * configure-action, create-shipment-action). Required fields stay those of the
 * report form. The report form already carries high and low thresholds, so the
 * variants' "thresholds" are the cumulative thresholds and durations.
 */
export const ZTagScanUpload = ZTagReportUpload.extend({
  stop_time_seconds: z.number().nullable().optional(),
  record_id: z.string().optional(),
  begin_time: z.string().nullable().optional(),
  end_time: z.string().nullable().optional(),
  ...shipmentTextFields,
  ...cumulativeFields,
  /** Temperatures (degrees Celsius) beginning at point `temperatures_offset_index`. */
  temps: z.array(z.number()).optional(),
  status: ZAlarmStatus.optional(),
  temperatures_offset_index: z.number().int().min(0).default(DEFAULT_TEMPERATURES_OFFSET_INDEX),
}).meta({ id: 'TagScanUpload' });
export type TTagScanUpload = z.infer<typeof ZTagScanUpload>;

/**
 * "Tag settings: tag_id, high_threshold, low_threshold, measurement_interval,
 * start_delay, num_consecutive_excursions (all required)."
 */
export const ZTagSettings = z
  .object({
    tag_id: z.string(),
    high_threshold: z.number(),
    low_threshold: z.number(),
    measurement_interval: z.number(),
    start_delay: z.number(),
    num_consecutive_excursions: z.number().int(),
  })
  .meta({ id: 'TagSettings' });
export type TTagSettings = z.infer<typeof ZTagSettings>;

/**
 * "Tag start data: serial_number, tag_type, references, program_name,
 * shipper_name_address_id, receiver_name_address_id, carrier,
 * product_designation, po_number, thresholds, num_consecutive_excursions,
 * cumulative thresholds and durations. Durations are strings."
 * num_consecutive_excursions defaults to 1 (spec section 9).
 */
export const ZTagStartData = z
  .object({
    serial_number: z.string().optional(),
    tag_type: ZTagType.optional(),
    ...referenceFields,
    ...shipmentTextFields,
    ...thresholdFields,
    num_consecutive_excursions: z.number().int().default(DEFAULT_NUM_CONSECUTIVE_EXCURSIONS),
    ...cumulativeFields,
  })
  .meta({ id: 'TagStartData' });
export type TTagStartData = z.infer<typeof ZTagStartData>;

/**
 * "Update-shipment upload: tag_id, record_id, timestamp, references,
 * program_name, po_number, receiver and shipper ids, product_designation,
 * carrier, thresholds, cumulative limits and durations, tag_status,
 * mobile_device_type (WEB), mobile_app_version, header_data,
 * start_time_seconds." Body of update-shipment-action.
 */
export const ZUpdateShipmentUpload = z
  .object({
    tag_id: z.string().optional(),
    record_id: z.string().optional(),
    timestamp: z.string().optional(),
    ...referenceFields,
    ...shipmentTextFields,
    ...thresholdFields,
    ...cumulativeFields,
    tag_status: ZTagStatus.optional(),
    mobile_device_type: ZClientType.optional(),
    mobile_app_version: z.string().optional(),
    header_data: z.string().optional(),
    start_time_seconds: z.number().optional(),
  })
  .meta({ id: 'UpdateShipmentUpload' });
export type TUpdateShipmentUpload = z.infer<typeof ZUpdateShipmentUpload>;

/**
 * "Trip edit upload: tag_id, record_id, begin_time, end_time, timestamp."
 * A null begin_time or end_time clears it (domain rules §4).
 */
export const ZTripEditUpload = z
  .object({
    tag_id: z.string().optional(),
    record_id: z.string().optional(),
    begin_time: z.string().nullable().optional(),
    end_time: z.string().nullable().optional(),
    timestamp: z.string().optional(),
  })
  .meta({ id: 'TripEditUpload' });
export type TTripEditUpload = z.infer<typeof ZTripEditUpload>;

/**
 * "The reply carries the trip status." The trip edit reply: the record's trip
 * (begin_time, end_time, trip_status) and the record id it applies to.
 */
export const ZTripEditResult = ZTrip.extend({
  record_id: z.string().optional(),
}).meta({ id: 'TripEditResult' });
export type TTripEditResult = z.infer<typeof ZTripEditResult>;
