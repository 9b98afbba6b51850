import {
  certificateUrl,
  isLiveTagType,
  ALARM_KINDS,
  ALARM_STATUSES,
  BATTERY_HEALTHS,
  CLIENT_TYPES,
  SIGNATURE_MEANINGS,
  SIGNATURE_PURPOSES,
  ALARM_CLOSE_CAUSES,
  type TAlarmSignature,
  MEMORY_HEALTHS,
  TAG_STATUSES,
  TAG_TYPES,
  TRIP_STATUSES,
  UNKNOWN_LATITUDE,
  UNKNOWN_LONGITUDE,
  type TCoordinates,
  type TExcursionAlarm,
  type TRecord,
  type TReviewState,
  type TRecordAction,
  type TScan,
  type TTagExtended,
} from '@coldtrace/contract';
import { calibrationState } from '@coldtrace/domain';
import type { AlarmSignatureRow } from '../../db/schema-notifications';
import type {
  AlarmRow,
  RecordActionRow,
  RecordRow,
  ScanRow,
  TagRow,
} from '../../db/schema-shipments';
import { roundStored } from '../../kernel/series-store';
import { presentDisposition, type DispositionJson } from './disposition';

/**
 * Database rows to the contract's entities (spec section 3): ids as decimal
 * strings (the Tag id and an alarm's tag_id stay numbers), times as ISO 8601
 * in UTC, temperatures in °C. A column holding a value outside its contract
 * enumeration is left out rather than failing the reply.
 */

/** A time as the API writes it (ISO 8601 in UTC, milliseconds). */
const isoOf = (d: Date): string => d.toISOString();

/** The same, or null. */
export const iso = (d: Date | null | undefined): string | null => (d ? isoOf(d) : null);

/** A temperature, or a value computed from temperatures, at the series' precision (no float noise). */
function temp<T extends number | null | undefined>(v: T): T {
  return (typeof v === 'number' ? roundStored(v) : v) as T;
}

function member<T extends string>(values: readonly T[], value: string | null | undefined) {
  return values.includes(value as T) ? (value as T) : undefined;
}

/** A usable position, or null for the -91 / -181 sentinels and anything off the globe. */
export function knownPosition(
  latitude: number | null | undefined,
  longitude: number | null | undefined,
): TCoordinates | null {
  if (latitude == null || longitude == null) return null;
  if (latitude === UNKNOWN_LATITUDE || longitude === UNKNOWN_LONGITUDE) return null;
  if (!(Math.abs(latitude) <= 90 && Math.abs(longitude) <= 180)) return null;
  return { latitude, longitude };
}

/** A travel location reference of a record. */
export interface PartyRef {
  id: number | null;
  name: string | null;
}

const party = (p: PartyRef) => (p.id === null ? null : { id: String(p.id), name: p.name ?? '' });

/** A record row with what the list and detail views join to it. */
export interface RecordView {
  record: RecordRow;
  shipper: PartyRef;
  receiver: PartyRef;
  lastScannedUser: string | null;
  scanIds: string[];
  /** The tag's latest calibration certificate in the record's organization, if any. */
  calibration?: {
    certificateId: string;
    tagType: string | null;
    calibrationTimestamp: Date | null;
    calibrationDue?: Date;
  } | null;
  /** The calibration at the record's start (issue 14 item 7). */
  calibrationAt?: CalibrationAt;
  /** The current release decision (issue 14 item 2), when the query read it. */
  disposition?: DispositionJson | null;
  /** The computed review state (issue 14 item 1), when the query read it. */
  reviewState?: TReviewState;
  /** Whether an alarm awaits acknowledgement (issue 35), when the query read it. */
  alarmAwaitsAcknowledgement?: boolean;
}

/** A tag's calibration at an instant: the due date of the certificate in force then. */
export interface CalibrationAt {
  due: Date | null;
  dueSoonDays: number;
  at: Date;
}

const calibrationStateOf = (c: CalibrationAt | undefined) =>
  c ? calibrationState(c.due, c.at, c.dueSoonDays) : undefined;

function tagCalibration(view: RecordView): TRecord['tag_calibration'] {
  const c = view.calibration;
  if (!c) return null;
  const tagType = member(TAG_TYPES, c.tagType);
  return {
    device_id: view.record.tagId,
    ...(tagType ? { tag_type: tagType } : {}),
    calibration_timestamp: iso(c.calibrationTimestamp),
    calibration_pdf_id: c.certificateId,
    pdf_url: certificateUrl(c.certificateId, view.record.tagId),
    ...(c.calibrationDue ? { calibration_due: isoOf(c.calibrationDue) } : {}),
  };
}

export function presentRecord(view: RecordView): TRecord {
  const r = view.record;
  const position = knownPosition(r.lastLatitude, r.lastLongitude);
  return {
    id: String(r.id),
    tag_id: String(r.tagId),
    tag_serial_number: r.tagSerialNumber,
    tag_type: member(TAG_TYPES, r.tagType),
    tag_status: member(TAG_STATUSES, r.tagStatus),
    tag_calibration: tagCalibration(view),
    created: isoOf(r.created),
    last_modified: isoOf(r.lastModified),
    temps_last_updated: iso(r.tempsLastUpdated),
    primary_reference: r.primaryReference,
    secondary_reference: r.secondaryReference,
    shipping_reference: r.shippingReference,
    program_name: r.programName,
    carrier: r.carrier,
    product_designation: r.productDesignation,
    po_number: r.poNumber,
    shipper_name_address: party(view.shipper),
    receiver_name_address: party(view.receiver),
    high_threshold: r.highThreshold,
    low_threshold: r.lowThreshold,
    cumulative_high_threshold: r.cumulativeHighThreshold,
    cumulative_low_threshold: r.cumulativeLowThreshold,
    cumulative_duration_high: r.cumulativeDurationHigh,
    cumulative_duration_low: r.cumulativeDurationLow,
    num_consecutive_excursions: r.numConsecutiveExcursions,
    highest_recorded_temperature: temp(r.highestRecordedTemperature),
    lowest_recorded_temperature: temp(r.lowestRecordedTemperature),
    mean_kinetic_temp: temp(r.meanKineticTemp),
    latest_temp: temp(r.latestTemp),
    start_time_seconds: r.startTimeSeconds,
    start_time: r.startTimeSeconds === null ? null : secondsIso(r.startTimeSeconds),
    stop_time: iso(r.stopTime),
    measurement_interval: r.measurementInterval,
    calculated_measurement_interval: r.calculatedMeasurementInterval,
    transmit_interval: r.transmitInterval,
    start_delay: r.startDelay,
    first_point: iso(r.firstPoint),
    last_point: iso(r.lastPoint),
    number_of_points: r.numberOfPoints,
    record_duration: r.recordDuration,
    scans: view.scanIds,
    last_scanned: iso(r.lastScanned),
    last_scanned_user: view.lastScannedUser,
    last_action_taken: iso(r.lastActionTaken),
    // rt and nanotag tags report by themselves: when their points last arrived (issue 35 item 6).
    ...(isLiveTagType(r.tagType) ? { last_transmission: iso(r.tempsLastUpdated) } : {}),
    alarm_recipients: r.alarmRecipients,
    status: member(ALARM_STATUSES, r.status),
    computed_status: member(ALARM_STATUSES, r.computedStatus),
    last_latitude: position?.latitude ?? null,
    last_longitude: position?.longitude ?? null,
    memory_health: member(MEMORY_HEALTHS, r.memoryHealth) ?? null,
    battery_health: member(BATTERY_HEALTHS, r.batteryHealth) ?? null,
    trip: {
      begin_time: iso(r.tripBeginTime),
      end_time: iso(r.tripEndTime),
      trip_status: member(TRIP_STATUSES, r.tripStatus),
    },
    report_exists: r.reportExists,
    ...(view.calibrationAt
      ? {
          calibration_state: calibrationStateOf(view.calibrationAt),
          calibration_due: iso(view.calibrationAt.due),
        }
      : {}),
    calibration_warning: r.calibrationWarning,
    planned_arrival: iso(r.plannedArrival),
    disposition: presentDisposition(view.disposition),
    ...(view.reviewState ? { review_state: view.reviewState } : {}),
    ...(view.alarmAwaitsAcknowledgement === undefined
      ? {}
      : { alarm_awaits_acknowledgement: view.alarmAwaitsAcknowledgement }),
  };
}

/** Unix seconds to ISO 8601 (null when out of the Date range). */
export function secondsIso(seconds: number): string | null {
  const d = new Date(seconds * 1000);
  return Number.isNaN(d.getTime()) ? null : isoOf(d);
}

/** A tag with its latest record in the organization (null when it has none). */
export interface TagView {
  tag: TagRow;
  last: RecordRow | null;
  lastShipper: PartyRef;
  lastReceiver: PartyRef;
  /** The tag's calibration now (issue 14 item 7). */
  calibrationAt?: CalibrationAt;
}

export function presentTag(view: TagView): TTagExtended {
  const { tag, last } = view;
  return {
    id: tag.id,
    created: isoOf(tag.created),
    serial_number: tag.serialNumber,
    belongs_to: tag.organizationId,
    primary_reference: last?.primaryReference ?? null,
    secondary_reference: last?.secondaryReference ?? null,
    shipping_reference: last?.shippingReference ?? null,
    program_name: last?.programName ?? null,
    shipper_name_address: party(view.lastShipper),
    receiver_name_address: party(view.lastReceiver),
    carrier: last?.carrier ?? null,
    product_designation: last?.productDesignation ?? null,
    po_number: last?.poNumber ?? null,
    last_record_id: last ? String(last.id) : null,
    tag_type: member(TAG_TYPES, tag.tagType),
    last_action_taken: iso(last?.lastActionTaken),
    last_scanned: iso(last?.lastScanned),
    last_scanned_location: last ? knownPosition(last.lastLatitude, last.lastLongitude) : null,
    last_temp: temp(last?.latestTemp ?? null),
    running: tag.running,
    ...(view.calibrationAt
      ? {
          calibration_state: calibrationStateOf(view.calibrationAt),
          calibration_due: iso(view.calibrationAt.due),
        }
      : {}),
  };
}

const ACTION_NAMES: Readonly<Record<string, string>> = {
  start: 'Start',
  stop: 'Stop',
  configure: 'Configure',
  create_shipment: 'Create shipment',
  update_shipment: 'Update shipment',
  trip_edit: 'Trip edit',
  first_sample: 'First sample',
  health: 'Health',
  status: 'Status',
};

/**
 * `action_type_display`: the action's name for people. Action types are
 * written by the ingest side in any of `START`, `start-action`,
 * `create_shipment`, `CREATE_SHIPMENT_ACTION`; all read the same.
 */
export function actionTypeDisplay(actionType: string): string {
  const key = actionType
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_')
    .replace(/_action$/, '');
  const known = ACTION_NAMES[key];
  if (known) return known;
  const words = key.replace(/_/g, ' ').trim();
  return words === '' ? actionType : words.charAt(0).toUpperCase() + words.slice(1);
}

export interface ActionView {
  action: RecordActionRow;
  createdByUser: string | null;
}

export function presentAction({ action: a, createdByUser }: ActionView): TRecordAction {
  return {
    id: String(a.id),
    record_id: String(a.recordId),
    tag_id: String(a.tagId),
    tag_serial_number: a.tagSerialNumber,
    action_type: a.actionType,
    action_type_display: actionTypeDisplay(a.actionType),
    latitude: a.latitude,
    longitude: a.longitude,
    timestamp: isoOf(a.timestamp),
    created_by_user: createdByUser,
    tag_type: member(TAG_TYPES, a.tagType),
    mobile_device_type: member(CLIENT_TYPES, a.mobileDeviceType),
    mobile_app_version: a.mobileAppVersion ?? undefined,
  };
}

export interface ScanView {
  scan: ScanRow;
  createdByUser: string | null;
  /** The scan's record in the scan's organization, null when it has none. */
  seriesRecordId?: number | null;
  /** `start_time_seconds` of the scan's record (when the scan reported none). */
  recordStartSeconds: number | null;
  /** The record's start delay and stop time (the tag's state when the scan reported none). */
  recordStartDelay?: number | null;
  recordStopTime?: Date | null;
  /** The points the scan brought, as the record's series holds them (see `scanTemperatures`). */
  temperatures?: readonly (number | null)[];
}

/**
 * The tag's state at the scan: as the scan reported it, else what the run
 * says of that moment: stopped (XT1_IDLE) once the run's stop time is past,
 * waiting for its start delay (XT1_PENDING) or not started, else recording
 * (XT1_ACTIVE).
 */
export function scanTagStatus(view: ScanView): TScan['tag_status'] {
  const s = view.scan;
  const reported = member(TAG_STATUSES, s.tagStatus);
  if (reported !== undefined) return reported;
  const stoppedAt = s.stopTime ?? view.recordStopTime ?? null;
  if (stoppedAt !== null && stoppedAt.getTime() <= s.timestamp.getTime()) return 'XT1_IDLE';
  const start = s.startTimeSeconds ?? view.recordStartSeconds;
  if (start === null) return 'XT1_PENDING';
  const delay = s.startDelay ?? view.recordStartDelay ?? 0;
  return s.timestamp.getTime() / 1000 < start + delay ? 'XT1_PENDING' : 'XT1_ACTIVE';
}

/**
 * A scan, with the temperatures it brought (points [temps_offset_index,
 * temps_offset_index + temps_length) of its record's series; a point stored
 * first by another upload keeps that first value) and the tag's state.
 */
export function presentScan(view: ScanView): TScan {
  const { scan: s, createdByUser, recordStartSeconds } = view;
  const position = knownPosition(s.latitude, s.longitude);
  const startSeconds = s.startTimeSeconds ?? recordStartSeconds;
  return {
    id: String(s.id),
    start_time: startSeconds === null ? null : secondsIso(startSeconds),
    stop_time: iso(s.stopTime),
    // Every point of the scan's range is one it uploaded (a merge fills gaps), so none is missing.
    temperatures: (view.temperatures ?? []).flatMap((t) => (t === null ? [] : [temp(t)])),
    tag_id: String(s.tagId),
    tag_serial_number: s.tagSerialNumber,
    record: s.recordId === null ? null : String(s.recordId),
    timestamp: isoOf(s.timestamp),
    created: isoOf(s.created),
    created_by_user: createdByUser,
    latitude: position?.latitude ?? null,
    longitude: position?.longitude ?? null,
    highest_recorded_temp: temp(s.highestRecordedTemp),
    lowest_recorded_temp: temp(s.lowestRecordedTemp),
    mean_kinetic_temp: temp(s.meanKineticTemp),
    latest_temp: temp(s.latestTemp),
    excursion_duration_above: s.excursionDurationAbove,
    excursion_duration_below: s.excursionDurationBelow,
    tag_status: scanTagStatus(view),
    measurement_interval: s.measurementInterval ?? undefined,
    start_delay: s.startDelay ?? undefined,
    high_threshold: s.highThreshold,
    low_threshold: s.lowThreshold,
    primary_reference: s.primaryReference,
    secondary_reference: s.secondaryReference,
    shipping_reference: s.shippingReference,
    description: s.description,
    status: member(ALARM_STATUSES, s.status),
    mobile_device_type: member(CLIENT_TYPES, s.mobileDeviceType),
    mobile_app_version: s.mobileAppVersion ?? undefined,
  };
}

/** An alarm row with the usernames of who acknowledged and dismissed it. */
export interface AlarmView {
  alarm: AlarmRow;
  acknowledgedBy: string | null;
  dismissedBy: string | null;
  /** The acknowledgement's electronic signature, when signed. */
  signature?: AlarmSignatureRow | null;
  /** Who closed it (username; null: the system or not closed). */
  closedBy?: string | null;
  /** The signature of the change that closed it. */
  closeSignature?: AlarmSignatureRow | null;
}

/** An acknowledgement's electronic signature as the contract answers it. */
export function presentSignature(s: AlarmSignatureRow): TAlarmSignature {
  return {
    user_id: s.userId,
    printed_name: s.printedName,
    signed_at: isoOf(s.signedAt),
    meaning: member(SIGNATURE_MEANINGS, s.meaning) ?? 'REVIEWED',
    comment: s.comment,
    client_type: member(CLIENT_TYPES, s.clientType) ?? 'WEB',
    purpose: member(SIGNATURE_PURPOSES, s.purpose) ?? 'ACKNOWLEDGE',
    second_factor: s.secondFactor ?? null,
  };
}

/**
 * An alarm. Acknowledged alarms also carry who (username), when, the comment
 * and the client type; dismissed ones who, when and why; closed ones when,
 * who (null: the system), the cause, the reason and the closing signature
 * (absent otherwise).
 */
export function presentAlarm({
  alarm: a,
  acknowledgedBy,
  dismissedBy,
  signature,
  closedBy,
  closeSignature,
}: AlarmView): TExcursionAlarm {
  const closed = a.state === 'CLOSED';
  return {
    id: String(a.id),
    record_id: String(a.recordId),
    tag_id: a.tagId,
    created: isoOf(a.created),
    tag_serial_number: a.tagSerialNumber,
    above_or_below: a.aboveOrBelow,
    first_point_idx: a.firstPointIdx,
    last_point_idx: a.lastPointIdx,
    degree_minutes: temp(a.degreeMinutes),
    start_time: iso(a.startTime),
    end_time: iso(a.endTime),
    duration: a.duration,
    high_threshold: a.highThreshold,
    low_threshold: a.lowThreshold,
    highest_recorded_temperature: temp(a.highestRecordedTemperature),
    lowest_recorded_temperature: temp(a.lowestRecordedTemperature),
    acknowledged: a.acknowledged,
    dismissed: a.dismissed,
    kind: member(ALARM_KINDS, a.kind),
    state: closed ? 'CLOSED' : 'OPEN',
    resolved: closed,
    // Only where they apply (issue 35 item 4): a merged alarm's survivor, a no-data alarm's interval.
    ...(a.supersededBy !== null ? { superseded_by: String(a.supersededBy) } : {}),
    ...(a.expectedInterval !== null ? { expected_interval: a.expectedInterval } : {}),
    ...(closed
      ? {
          closed_at: iso(a.closedAt),
          closed_by: closedBy ?? null,
          close_cause: member(ALARM_CLOSE_CAUSES, a.closeCause) ?? 'UNRECORDED',
          close_reason: a.closeReason,
          ...(closeSignature ? { close_signature: presentSignature(closeSignature) } : {}),
        }
      : {}),
    ...(a.acknowledged
      ? {
          acknowledged_by: acknowledgedBy,
          acknowledged_at: iso(a.acknowledgedAt),
          acknowledge_comment: a.acknowledgeComment,
          acknowledge_client_type: member(CLIENT_TYPES, a.acknowledgeClientType) ?? null,
        }
      : {}),
    ...(a.dismissed
      ? {
          dismissed_by: dismissedBy,
          dismissed_at: iso(a.dismissedAt),
          dismiss_reason: a.dismissReason,
        }
      : {}),
    ...(signature ? { signature: presentSignature(signature) } : {}),
  };
}
