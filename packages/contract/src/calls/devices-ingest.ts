import { z } from 'zod';
import { zRowId } from '../ids';
import { defineCall } from '../call';
import {
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
import { changeReasonShape } from '../entities/alarms';
import type { TPermissionName } from '../permissions';
import { ZRecordReference } from '../entities/records';
import { ZRequestResult } from '../entities/telemetry';
import { ZTripEditResult } from '../entities/uploads';

/**
 * The write side of the shipment data (spec section 7): what the phone app,
 * real-time (rt) tags and nanotags upload. The bodies are the upload entities
 * of spec section 3 ("Tag messages and uploads"), with the bounds the server
 * enforces (decisions: docs/decisions/shipment-ingest.md):
 *
 * - at most {@link MAX_POINTS_PER_UPLOAD} points per upload, and no point at
 *   an index of {@link MAX_POINTS_PER_RECORD} or beyond (offset + length);
 * - temperatures finite within -100..200 °C;
 * - latitude -90..90 or -91 (unknown), longitude -180..180 or -181 (unknown);
 * - intervals 1..86400 s; times ISO 8601 with an offset, or Unix seconds,
 *   between 2000-01-01 and 2100-01-01.
 *
 * Paths: the spec's table lists the action paths without a trailing slash
 * ("POST start-action, stop-action, ..."); like every other call of the API
 * they are served with one (`/api/devices/xt1/start-action/`).
 *
 * Every upload answers the record it went to (`RecordReference`); an upload
 * sent again (a retry) changes nothing and answers the same.
 */

export const MAX_POINTS_PER_UPLOAD = 100_000;
export const MAX_POINTS_PER_RECORD = 100_000;
export const MIN_TEMPERATURE_C = -100;
export const MAX_TEMPERATURE_C = 200;
export const MAX_INTERVAL_SECONDS = 86_400;
/** Longest start delay accepted: 30 days. */
export const MAX_START_DELAY_SECONDS = 30 * 86_400;
/** 2000-01-01T00:00:00Z and 2100-01-01T00:00:00Z: the times an upload may carry. */
export const MIN_EPOCH_SECONDS = 946_684_800;
export const MAX_EPOCH_SECONDS = 4_102_444_800;
/** Body limit of the upload calls: 100,000 points as JSON fit with room to spare. */
export const INGEST_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

/** Record action types written by the uploads, and how they are shown (`action_type_display`). */
export const RECORD_ACTION_TYPES = {
  START: 'Start',
  STOP: 'Stop',
  CONFIGURE: 'Configure',
  CREATE_SHIPMENT: 'Create shipment',
  UPDATE_SHIPMENT: 'Update shipment',
  TRIP_EDIT: 'Trip edit',
  FIRST_SAMPLE: 'First sample',
  STATUS: 'Status',
  HEALTH: 'Health',
} as const;
export type TRecordActionType = keyof typeof RECORD_ACTION_TYPES;

// ---------------------------------------------------------------- field schemas

/** A tag id (the Tag's number as decimal text) or, when not a known number, a serial number. */
const zTagId = z.string().trim().min(1).max(64);
const zSerialNumber = z.string().trim().min(1).max(64);
/** Ids of records and travel locations: decimal text. */
const zId = zRowId();
const zText = (max = 255) => z.string().max(max).nullable().optional();

const zTemperature = z.number().min(MIN_TEMPERATURE_C).max(MAX_TEMPERATURE_C);
const zTemps = z.array(zTemperature).max(MAX_POINTS_PER_UPLOAD);
const zThreshold = zTemperature;

const zLatitude = z.number().refine((v) => v === UNKNOWN_LATITUDE || (v >= -90 && v <= 90), {
  message: `must be from -90 to 90, or ${UNKNOWN_LATITUDE} (unknown)`,
});
const zLongitude = z.number().refine((v) => v === UNKNOWN_LONGITUDE || (v >= -180 && v <= 180), {
  message: `must be from -180 to 180, or ${UNKNOWN_LONGITUDE} (unknown)`,
});

const zInterval = z.number().int().min(1).max(MAX_INTERVAL_SECONDS);
/** The interval the tag measured (may have a fraction of a second). */
const zCalculatedInterval = z.number().min(1).max(MAX_INTERVAL_SECONDS);
const zStartDelay = z.number().int().min(0).max(MAX_START_DELAY_SECONDS);
const zConsecutive = z.number().int().min(1).max(MAX_POINTS_PER_RECORD);
const zOffset = z.number().int().min(0).max(MAX_POINTS_PER_RECORD);

/** Unix seconds (whole) between 2000 and 2100. */
const zEpochSeconds = z.number().int().min(MIN_EPOCH_SECONDS).max(MAX_EPOCH_SECONDS);

/** ISO 8601 date and time with `Z` or an offset, between 2000 and 2100. */
const zTimestamp = z.iso.datetime({ offset: true }).refine(
  (v) => {
    const ms = Date.parse(v);
    return ms >= MIN_EPOCH_SECONDS * 1000 && ms <= MAX_EPOCH_SECONDS * 1000;
  },
  { message: 'must be between 2000-01-01 and 2100-01-01' },
);

const DURATION_TEXT = /^(?:(\d{1,5}) +)?(\d{1,5}):(\d{1,2}):(\d{1,2})$/;
/** `[DD ]HH:MM:SS` (domain rules §2). */
const zDuration = z
  .string()
  .trim()
  .max(32)
  .refine(
    (v) => {
      const m = DURATION_TEXT.exec(v);
      if (m === null) return false;
      const [, days, hours = '0', minutes = '0', seconds = '0'] = m;
      return (
        Number(minutes) < 60 && Number(seconds) < 60 && (days === undefined || Number(hours) < 24)
      );
    },
    { message: 'must be a duration [DD ]HH:MM:SS' },
  );

const referenceShape = {
  primary_reference: zText(),
  secondary_reference: zText(),
  shipping_reference: zText(),
};

const shipmentShape = {
  program_name: zText(),
  po_number: zText(),
  carrier: zText(),
  product_designation: zText(),
  shipper_name_address_id: zId.nullable().optional(),
  receiver_name_address_id: zId.nullable().optional(),
  planned_arrival: zTimestamp.nullable().optional().meta({
    description:
      'When the shipment is planned to arrive (ours): the stability budget projects to it; null clears',
  }),
};

const cumulativeShape = {
  cumulative_high_threshold: zThreshold.nullable().optional(),
  cumulative_low_threshold: zThreshold.nullable().optional(),
  cumulative_duration_high: zDuration.nullable().optional(),
  cumulative_duration_low: zDuration.nullable().optional(),
};

interface PointsInput {
  temps?: readonly number[] | undefined;
  temperatures_offset_index?: number | undefined;
}

/** Points may not reach index MAX_POINTS_PER_RECORD (named on `temps`). */
function checkPointLimit(value: PointsInput, ctx: z.core.$RefinementCtx): void {
  const length = value.temps?.length ?? 0;
  const offset = value.temperatures_offset_index ?? 0;
  if (length > 0 && offset + length > MAX_POINTS_PER_RECORD) {
    ctx.addIssue({
      code: 'custom',
      path: ['temps'],
      message: `points ${offset}..${offset + length - 1} reach beyond the ${MAX_POINTS_PER_RECORD} points a record may hold`,
      input: value.temps,
    });
  }
}

interface ThresholdInput {
  high_threshold?: number | null | undefined;
  low_threshold?: number | null | undefined;
}

function checkThresholdOrder(value: ThresholdInput, ctx: z.core.$RefinementCtx): void {
  const { high_threshold: high, low_threshold: low } = value;
  if (typeof high === 'number' && typeof low === 'number' && low > high) {
    ctx.addIssue({
      code: 'custom',
      path: ['low_threshold'],
      message: 'must not be above high_threshold',
      input: low,
    });
  }
}

// ---------------------------------------------------------------- xt1 upload bodies

/**
 * The tag report / scan upload with its variants (spec section 3), bounded:
 * body of POST scans/ and of the xt1 actions. Required as in the report form:
 * tag_id, timestamp, high_threshold, low_threshold, measurement_interval,
 * start_delay.
 */
const xt1UploadShape = {
  tag_id: zTagId,
  tag_serial_number: zSerialNumber.optional(),
  timestamp: zTimestamp,
  ...referenceShape,
  latitude: zLatitude.default(UNKNOWN_LATITUDE),
  longitude: zLongitude.default(UNKNOWN_LONGITUDE),
  tag_status: ZTagStatus.optional(),
  tag_type: ZTagType.optional(),
  mobile_device_type: ZClientType.optional(),
  mobile_app_version: z.string().max(120).optional(),
  battery_health: ZBatteryHealth.optional(),
  memory_health: ZMemoryHealth.optional(),
  header_data: z.string().max(65_536).optional(),
  high_threshold: zThreshold,
  low_threshold: zThreshold,
  measurement_interval: zInterval,
  calculated_measurement_interval: zCalculatedInterval.optional(),
  start_delay: zStartDelay,
  num_consecutive_excursions: zConsecutive.optional().meta({
    description:
      "Left out: the tag's configured value, else the value of the product named by " +
      'product_designation, else 1; a configured value is never reset by leaving it out',
  }),
  start_time_seconds: zEpochSeconds.optional(),
  stop_time_seconds: zEpochSeconds.nullable().optional(),
  record_id: zId.optional(),
  ...shipmentShape,
  ...cumulativeShape,
  /** Temperatures (°C) of points temperatures_offset_index, temperatures_offset_index + 1, ... */
  temps: zTemps.optional(),
  status: ZAlarmStatus.optional(),
  temperatures_offset_index: zOffset.default(DEFAULT_TEMPERATURES_OFFSET_INDEX),
};

export const ZXt1Upload = z
  .object(xt1UploadShape)
  .superRefine(checkPointLimit)
  .superRefine(checkThresholdOrder)
  .meta({ id: 'Xt1Upload' });
export type TXt1Upload = z.infer<typeof ZXt1Upload>;

/** start-action: as the scan upload, and start_time_seconds is required (it identifies the run). */
export const ZXt1StartUpload = z
  .object({ ...xt1UploadShape, start_time_seconds: zEpochSeconds })
  .superRefine(checkPointLimit)
  .superRefine(checkThresholdOrder)
  .meta({ id: 'Xt1StartUpload' });
export type TXt1StartUpload = z.infer<typeof ZXt1StartUpload>;

/**
 * The permission each field of update-shipment needs (docs/decisions/
 * shipment-ingest.md): the server checks it, the web shows a field the user
 * may not change read-only.
 */
export const SHIPMENT_FIELD_PERMISSIONS = {
  primary_reference: 'readerEditRef1',
  program_name: 'readerEditRef1',
  po_number: 'readerEditRef1',
  carrier: 'readerEditRef1',
  product_designation: 'readerEditRef1',
  shipper_name_address_id: 'readerEditRef1',
  receiver_name_address_id: 'readerEditRef1',
  planned_arrival: 'readerEditRef1',
  secondary_reference: 'readerEditRef2',
  shipping_reference: 'readerEditRefShip',
  high_threshold: 'readerConfig',
  low_threshold: 'readerConfig',
  num_consecutive_excursions: 'readerConfig',
  cumulative_high_threshold: 'readerConfig',
  cumulative_low_threshold: 'readerConfig',
  cumulative_duration_high: 'readerConfig',
  cumulative_duration_low: 'readerConfig',
} as const satisfies Record<string, TPermissionName>;
export type TShipmentEditField = keyof typeof SHIPMENT_FIELD_PERMISSIONS;

/**
 * The update-shipment fields whose change re-evaluates the alarms, so a reason
 * for change is needed when the record has alarms (docs/decisions/
 * alarm-lifecycle.md), by the cause an alarm they close gets.
 */
export const REGULATED_SHIPMENT_FIELDS = {
  THRESHOLD_CHANGE: [
    'high_threshold',
    'low_threshold',
    'num_consecutive_excursions',
    'cumulative_high_threshold',
    'cumulative_low_threshold',
    'cumulative_duration_high',
    'cumulative_duration_low',
  ],
  PRODUCT_CHANGE: ['product_designation'],
  // Moves the record between shipments: their stability budgets (docs/decisions/stability-budget.md).
  SHIPMENT_CHANGE: ['shipping_reference'],
  LOCATION_CHANGE: ['shipper_name_address_id', 'receiver_name_address_id'],
} as const satisfies Record<string, readonly TShipmentEditField[]>;

/**
 * Update-shipment upload (spec section 3), bounded. The record is named by
 * record_id, or by tag_id (with start_time_seconds, else its active record).
 * A field left out stays as it is; null clears it.
 */
export const ZXt1UpdateShipmentUpload = z
  .object({
    tag_id: zTagId.optional(),
    record_id: zId.optional(),
    timestamp: zTimestamp.optional(),
    ...referenceShape,
    ...shipmentShape,
    high_threshold: zThreshold.nullable().optional(),
    low_threshold: zThreshold.nullable().optional(),
    num_consecutive_excursions: zConsecutive.optional(),
    ...cumulativeShape,
    tag_status: ZTagStatus.optional(),
    mobile_device_type: ZClientType.optional(),
    mobile_app_version: z.string().max(120).optional(),
    header_data: z.string().max(65_536).optional(),
    start_time_seconds: zEpochSeconds.optional(),
    latitude: zLatitude.default(UNKNOWN_LATITUDE),
    longitude: zLongitude.default(UNKNOWN_LONGITUDE),
    ...changeReasonShape,
  })
  .superRefine((value, ctx) => {
    if (value.record_id === undefined && value.tag_id === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['record_id'],
        message: 'record_id or tag_id is required',
        input: undefined,
      });
    }
  })
  .superRefine(checkThresholdOrder)
  .meta({ id: 'Xt1UpdateShipmentUpload' });
export type TXt1UpdateShipmentUpload = z.infer<typeof ZXt1UpdateShipmentUpload>;

/**
 * Trip edit upload (spec section 3): the record's trip times set by a person.
 * record_id is required; begin_time / end_time null clear them, left out keep
 * them. The trip status follows from the times (domain rules §4).
 */
export const ZXt1TripEditUpload = z
  .object({
    tag_id: zTagId.optional(),
    record_id: zId,
    begin_time: zTimestamp.nullable().optional(),
    end_time: zTimestamp.nullable().optional(),
    timestamp: zTimestamp.optional(),
    ...changeReasonShape,
  })
  .superRefine((value, ctx) => {
    if (typeof value.begin_time === 'string' && typeof value.end_time === 'string') {
      if (Date.parse(value.end_time) < Date.parse(value.begin_time)) {
        ctx.addIssue({
          code: 'custom',
          path: ['end_time'],
          message: 'must not be before begin_time',
          input: value.end_time,
        });
      }
    }
  })
  .meta({ id: 'Xt1TripEditUpload' });
export type TXt1TripEditUpload = z.infer<typeof ZXt1TripEditUpload>;

// ---------------------------------------------------------------- rt bodies

const rtSettingsShape = {
  high_threshold: zThreshold.nullable().optional(),
  low_threshold: zThreshold.nullable().optional(),
  start_delay: zStartDelay.optional(),
  num_consecutive_excursions: zConsecutive.optional().meta({
    description:
      "Left out: the tag's configured value, else 1; a configured value is never reset by leaving it out",
  }),
};

/** rt configure-action: the start command the tag was configured with (spec section 3). */
export const ZRtConfigureUpload = z
  .object({
    tag_id: zTagId,
    request_id: z.string().max(64).optional(),
    timestamp: zTimestamp.optional(),
    ...rtSettingsShape,
    measurement_interval: zInterval,
    max_transmit_interval: zInterval.optional(),
  })
  .superRefine(checkThresholdOrder)
  .meta({ id: 'RtConfigureUpload' });
export type TRtConfigureUpload = z.infer<typeof ZRtConfigureUpload>;

/**
 * rt start-action: the start confirmation (spec section 3). start_time_seconds
 * is required (it identifies the run); settings left out come from the tag's
 * configuration.
 */
export const ZRtStartUpload = z
  .object({
    tag_id: zTagId,
    request_id: z.string().max(64).optional(),
    timestamp: zTimestamp.optional(),
    ...rtSettingsShape,
    measurement_interval: zInterval.optional(),
    start_time_seconds: zEpochSeconds,
  })
  .superRefine(checkThresholdOrder)
  .meta({ id: 'RtStartUpload' });
export type TRtStartUpload = z.infer<typeof ZRtStartUpload>;

/** rt stop-action: the stop command (spec section 3). */
export const ZRtStopUpload = z
  .object({
    tag_id: zTagId,
    request_id: z.string().max(64).optional(),
    timestamp: zTimestamp.optional(),
    start_time_seconds: zEpochSeconds.optional(),
    stop_time_seconds: zEpochSeconds.optional(),
  })
  .meta({ id: 'RtStopUpload' });
export type TRtStopUpload = z.infer<typeof ZRtStopUpload>;

/**
 * rt temperature packet (spec section 3): temps begin at point
 * temperatures_offset_index (default 0) of the run that started at
 * start_time_seconds (default: the tag's running record).
 */
export const ZRtPacketUpload = z
  .object({
    tag_id: zTagId,
    temps: zTemps.min(1),
    start_time_seconds: zEpochSeconds.optional(),
    packet_end_time_seconds: zEpochSeconds.optional(),
    temperatures_offset_index: zOffset.default(DEFAULT_TEMPERATURES_OFFSET_INDEX),
  })
  .superRefine(checkPointLimit)
  .meta({ id: 'RtPacketUpload' });
export type TRtPacketUpload = z.infer<typeof ZRtPacketUpload>;

/** rt configure-, start- and stop-request: "carry only tag_id" (spec section 4). */
export const ZRtRequest = z.object({ tag_id: zTagId }).meta({ id: 'RtRequest' });
export type TRtRequest = z.infer<typeof ZRtRequest>;

// ---------------------------------------------------------------- nanotag bodies

/** nanotag generalized-data: the tag settings (spec section 3, "Tag settings", all required). */
export const ZNanotagSettingsUpload = z
  .object({
    tag_id: zTagId,
    high_threshold: zThreshold,
    low_threshold: zThreshold,
    measurement_interval: zInterval,
    start_delay: zStartDelay,
    num_consecutive_excursions: zConsecutive,
  })
  .superRefine(checkThresholdOrder)
  .meta({ id: 'NanotagSettingsUpload' });
export type TNanotagSettingsUpload = z.infer<typeof ZNanotagSettingsUpload>;

/** nanotag configure-action: record and report periods (the measurement and transmit intervals). */
export const ZNanotagConfigureUpload = z
  .object({
    tag_id: zTagId,
    record_period_seconds: zInterval,
    report_period_seconds: zInterval.optional(),
  })
  .meta({ id: 'NanotagConfigureUpload' });
export type TNanotagConfigureUpload = z.infer<typeof ZNanotagConfigureUpload>;

/** nanotag first-sample-action: the time of point 0; the record starts there. */
export const ZNanotagFirstSampleUpload = z
  .object({ tag_id: zTagId, first_sample_timestamp: zTimestamp })
  .meta({ id: 'NanotagFirstSampleUpload' });
export type TNanotagFirstSampleUpload = z.infer<typeof ZNanotagFirstSampleUpload>;

/** nanotag health-action: the battery report. */
export const ZNanotagHealthUpload = z
  .object({ tag_id: zTagId, battery_health: ZBatteryHealth })
  .meta({ id: 'NanotagHealthUpload' });
export type TNanotagHealthUpload = z.infer<typeof ZNanotagHealthUpload>;

/** nanotag status-action: the last sample the tag took. */
export const ZNanotagStatusUpload = z
  .object({
    tag_id: zTagId,
    last_sample_number: z.number().int().min(0).max(MAX_POINTS_PER_RECORD),
    last_sample_timestamp: zTimestamp,
  })
  .meta({ id: 'NanotagStatusUpload' });
export type TNanotagStatusUpload = z.infer<typeof ZNanotagStatusUpload>;

/** nanotag transmit-interval. */
export const ZNanotagTransmitIntervalUpload = z
  .object({ tag_id: zTagId, transmit_interval: zInterval })
  .meta({ id: 'NanotagTransmitIntervalUpload' });
export type TNanotagTransmitIntervalUpload = z.infer<typeof ZNanotagTransmitIntervalUpload>;

/**
 * nanotag temperature packet (spec section 3): the frame's points end at
 * packet_end_time_seconds; the server places them by the record's start,
 * start delay and interval. A known location becomes a location sample.
 */
export const ZNanotagPacketUpload = z
  .object({
    tag_id: zTagId,
    location: z
      .object({ latitude: zLatitude, longitude: zLongitude })
      .optional()
      .describe('Where the frame was received; -91 / -181 mean unknown'),
    temps: zTemps.min(1),
    packet_end_time_seconds: zEpochSeconds,
    frame_id: z.string().max(64).optional(),
  })
  .meta({ id: 'NanotagPacketUpload' });
export type TNanotagPacketUpload = z.infer<typeof ZNanotagPacketUpload>;

// ---------------------------------------------------------------- calls

const XT1 = '/api/devices/xt1/';
const RT = '/api/devices/rt/';
const NANOTAG = '/api/devices/nanotag/';
const REPLY_NOTE =
  'Answers the record the upload went to. Sending the same upload again (a retry) changes ' +
  'nothing and answers the same.';

/** Uploads that bring points: those timed after the record's stop are set aside. */
const POINTS_NOTE =
  `${REPLY_NOTE} Points timed after the record's stop are not added (200 all the same): ` +
  '`set_aside` says how many and from which point and time.';

export const xt1ScanUpload = defineCall({
  operationId: 'xt1ScanUpload',
  method: 'POST',
  path: `${XT1}scans/`,
  summary:
    "Upload a scan (tag report): merges its temperatures into the record's series, records its position",
  description: POINTS_NOTE,
  tag: 'xt1',
  auth: 'session',
  scope: 'organization',
  apiKey: 'write',
  permission: 'readerScan',
  body: ZXt1Upload,
  reply: ZRecordReference,
});

export const xt1StartAction = defineCall({
  operationId: 'xt1StartAction',
  method: 'POST',
  path: `${XT1}start-action/`,
  summary: 'A tag was started: begins the record of the run that starts at start_time_seconds',
  description: POINTS_NOTE,
  tag: 'xt1',
  auth: 'session',
  scope: 'organization',
  apiKey: 'write',
  permission: 'readerStart',
  body: ZXt1StartUpload,
  reply: ZRecordReference,
});

export const xt1StopAction = defineCall({
  operationId: 'xt1StopAction',
  method: 'POST',
  path: `${XT1}stop-action/`,
  summary: 'A tag was stopped: ends its record',
  description: POINTS_NOTE,
  tag: 'xt1',
  auth: 'session',
  scope: 'organization',
  apiKey: 'write',
  permission: 'readerStop',
  body: ZXt1Upload,
  reply: ZRecordReference,
});

export const xt1ConfigureAction = defineCall({
  operationId: 'xt1ConfigureAction',
  method: 'POST',
  path: `${XT1}configure-action/`,
  summary: 'A tag was configured (thresholds, interval, start delay)',
  description: POINTS_NOTE,
  tag: 'xt1',
  auth: 'session',
  scope: 'organization',
  apiKey: 'write',
  permission: ['readerConfig', 'readerConfigCustom'],
  body: ZXt1Upload,
  reply: ZRecordReference,
});

export const xt1CreateShipmentAction = defineCall({
  operationId: 'xt1CreateShipmentAction',
  method: 'POST',
  path: `${XT1}create-shipment-action/`,
  summary: "A shipment was created for the tag: sets the record's shipment details",
  description: `${POINTS_NOTE} Shipper and receiver must be travel locations of the organization (else 404).`,
  tag: 'xt1',
  auth: 'session',
  scope: 'organization',
  apiKey: 'write',
  permission: 'readerEditRef1',
  body: ZXt1Upload,
  reply: ZRecordReference,
});

export const xt1UpdateShipmentAction = defineCall({
  operationId: 'xt1UpdateShipmentAction',
  method: 'POST',
  path: `${XT1}update-shipment-action/`,
  summary: 'Edit the shipment details, thresholds and cumulative limits of a record',
  description:
    `${REPLY_NOTE} Needs readerEditRef1 for the primary reference and the other shipment ` +
    'details, readerEditRef2 for the secondary reference, readerEditRefShip for the shipping ' +
    'reference and readerConfig for thresholds and limits (403 naming the field otherwise). ' +
    'A threshold change re-evaluates the alarms.',
  tag: 'xt1',
  auth: 'session',
  scope: 'organization',
  apiKey: 'write',
  permission: ['readerEditRef1', 'readerEditRef2', 'readerEditRefShip', 'readerConfig'],
  body: ZXt1UpdateShipmentUpload,
  reply: ZRecordReference,
});

export const xt1TripEdit = defineCall({
  operationId: 'xt1TripEdit',
  method: 'POST',
  path: `${XT1}records/trips/`,
  summary: "Set a record's trip times by hand; answers the trip status",
  description:
    'A manual trip is never overwritten by geo-fence detection. The alarms are re-evaluated ' +
    'over the new trip window.',
  tag: 'xt1',
  auth: 'session',
  scope: 'organization',
  apiKey: 'write',
  permission: 'readerEditRefShip',
  body: ZXt1TripEditUpload,
  reply: ZTripEditResult,
});

export const rtConfigureAction = defineCall({
  operationId: 'rtConfigureAction',
  method: 'POST',
  path: `${RT}configure-action/`,
  summary: 'An rt tag was configured',
  description: REPLY_NOTE,
  tag: 'rt',
  auth: 'device',
  scope: 'organization',
  apiKey: 'write',
  permission: 'readerConfig',
  body: ZRtConfigureUpload,
  reply: ZRecordReference,
});

export const rtStartAction = defineCall({
  operationId: 'rtStartAction',
  method: 'POST',
  path: `${RT}start-action/`,
  summary: 'An rt tag confirms it started: begins the record of the run',
  description: REPLY_NOTE,
  tag: 'rt',
  auth: 'device',
  scope: 'organization',
  apiKey: 'write',
  permission: 'readerStart',
  body: ZRtStartUpload,
  reply: ZRecordReference,
});

export const rtStopAction = defineCall({
  operationId: 'rtStopAction',
  method: 'POST',
  path: `${RT}stop-action/`,
  summary: 'An rt tag confirms it stopped: ends its record',
  description: REPLY_NOTE,
  tag: 'rt',
  auth: 'device',
  scope: 'organization',
  apiKey: 'write',
  permission: 'readerStop',
  body: ZRtStopUpload,
  reply: ZRecordReference,
});

export const rtPackets = defineCall({
  operationId: 'rtPackets',
  method: 'POST',
  path: `${RT}packets/`,
  summary: 'A temperature packet of an rt tag: merged into the series by index',
  description: POINTS_NOTE,
  tag: 'rt',
  auth: 'device',
  scope: 'organization',
  apiKey: 'write',
  permission: 'awsPacketUpload',
  body: ZRtPacketUpload,
  reply: ZRecordReference,
});

const REQUEST_NOTE =
  'Accepted: status accepted, reject_reason NA. Rejected: record-missing (unknown tag, or no ' +
  'running record to stop) or empty-data (the tag has no configuration to start with).';

export const rtConfigureRequest = defineCall({
  operationId: 'rtConfigureRequest',
  method: 'POST',
  path: `${RT}configure-request/`,
  summary: 'Ask an rt tag to apply its configuration',
  description: REQUEST_NOTE,
  tag: 'rt',
  auth: 'device',
  scope: 'organization',
  apiKey: 'write',
  permission: 'readerConfig',
  body: ZRtRequest,
  reply: ZRequestResult,
});

export const rtStartRequest = defineCall({
  operationId: 'rtStartRequest',
  method: 'POST',
  path: `${RT}start-request/`,
  summary: 'Ask an rt tag to start',
  description: REQUEST_NOTE,
  tag: 'rt',
  auth: 'device',
  scope: 'organization',
  apiKey: 'write',
  permission: 'readerStart',
  body: ZRtRequest,
  reply: ZRequestResult,
});

export const rtStopRequest = defineCall({
  operationId: 'rtStopRequest',
  method: 'POST',
  path: `${RT}stop-request/`,
  summary: 'Ask an rt tag to stop',
  description: REQUEST_NOTE,
  tag: 'rt',
  auth: 'device',
  scope: 'organization',
  apiKey: 'write',
  permission: 'readerStop',
  body: ZRtRequest,
  reply: ZRequestResult,
});

export const nanotagGeneralizedData = defineCall({
  operationId: 'nanotagGeneralizedData',
  method: 'POST',
  path: `${NANOTAG}generalized-data/`,
  summary: "A nanotag's settings (thresholds, interval, start delay)",
  description: REPLY_NOTE,
  tag: 'nanotag',
  auth: 'device',
  scope: 'organization',
  apiKey: 'write',
  permission: 'awsPacketUpload',
  body: ZNanotagSettingsUpload,
  reply: ZRecordReference,
});

export const nanotagConfigureAction = defineCall({
  operationId: 'nanotagConfigureAction',
  method: 'POST',
  path: `${NANOTAG}configure-action/`,
  summary: 'A nanotag was configured (record and report periods)',
  description: REPLY_NOTE,
  tag: 'nanotag',
  auth: 'device',
  scope: 'organization',
  apiKey: 'write',
  permission: 'readerConfig',
  body: ZNanotagConfigureUpload,
  reply: ZRecordReference,
});

export const nanotagFirstSampleAction = defineCall({
  operationId: 'nanotagFirstSampleAction',
  method: 'POST',
  path: `${NANOTAG}first-sample-action/`,
  summary: 'A nanotag took its first sample: begins the record of the run',
  description: REPLY_NOTE,
  tag: 'nanotag',
  auth: 'device',
  scope: 'organization',
  apiKey: 'write',
  permission: 'readerStart',
  body: ZNanotagFirstSampleUpload,
  reply: ZRecordReference,
});

export const nanotagHealthAction = defineCall({
  operationId: 'nanotagHealthAction',
  method: 'POST',
  path: `${NANOTAG}health-action/`,
  summary: "A nanotag's battery report",
  description: REPLY_NOTE,
  tag: 'nanotag',
  auth: 'device',
  scope: 'organization',
  apiKey: 'write',
  permission: 'awsPacketUpload',
  body: ZNanotagHealthUpload,
  reply: ZRecordReference,
});

export const nanotagPackets = defineCall({
  operationId: 'nanotagPackets',
  method: 'POST',
  path: `${NANOTAG}packets/`,
  summary: 'A temperature frame of a nanotag, placed by its end time',
  description: POINTS_NOTE,
  tag: 'nanotag',
  auth: 'device',
  scope: 'organization',
  apiKey: 'write',
  permission: 'awsPacketUpload',
  body: ZNanotagPacketUpload,
  reply: ZRecordReference,
});

export const nanotagStatusAction = defineCall({
  operationId: 'nanotagStatusAction',
  method: 'POST',
  path: `${NANOTAG}status-action/`,
  summary: "A nanotag's status: its last sample",
  description: REPLY_NOTE,
  tag: 'nanotag',
  auth: 'device',
  scope: 'organization',
  apiKey: 'write',
  permission: 'awsPacketUpload',
  body: ZNanotagStatusUpload,
  reply: ZRecordReference,
});

export const nanotagTransmitInterval = defineCall({
  operationId: 'nanotagTransmitInterval',
  method: 'POST',
  path: `${NANOTAG}transmit-interval/`,
  summary: "A nanotag's transmit interval",
  description: REPLY_NOTE,
  tag: 'nanotag',
  auth: 'device',
  scope: 'organization',
  apiKey: 'write',
  permission: 'readerConfig',
  body: ZNanotagTransmitIntervalUpload,
  reply: ZRecordReference,
});

export const devicesIngestCalls = [
  xt1ScanUpload,
  xt1StartAction,
  xt1StopAction,
  xt1ConfigureAction,
  xt1CreateShipmentAction,
  xt1UpdateShipmentAction,
  xt1TripEdit,
  rtConfigureAction,
  rtStartAction,
  rtStopAction,
  rtPackets,
  rtConfigureRequest,
  rtStartRequest,
  rtStopRequest,
  nanotagGeneralizedData,
  nanotagConfigureAction,
  nanotagFirstSampleAction,
  nanotagHealthAction,
  nanotagPackets,
  nanotagStatusAction,
  nanotagTransmitInterval,
] as const;
