import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseModel, ModelShapeError } from '../errors';
import * as contract from '../index';
import {
  ZAcknowledgementRequest,
  ZAcknowledgementRequestWithoutComment,
  ZAlarmDismissal,
  ZAlarmRecipients,
  ZExcursionAlarm,
  ZNotification,
} from './alarms';
import {
  ZCalibration,
  ZCalibrationCertificate,
  ZCalibrationCertificateLink,
  ZCalibrationEquipment,
  ZCalibrationSpecification,
} from './calibration';
import { ZApiKey, ZApiKeyCreated } from './keys';
import {
  ZNotificationLogEntry,
  ZNotificationSetting,
  ZPersonalNotificationSetting,
} from './notification-settings';
import { ZOrgCreate } from './org';
import {
  ZDataDisplayRule,
  ZGeoFenceSettings,
  ZOrganizationLevelRecord,
  ZOrganizationSettings,
} from './org-settings';
import {
  ZCarrierDefinition,
  ZDropdownInfo,
  ZNameAndAddressLocation,
  ZNameAndAddressLocationCreate,
  ZProductDefinition,
  ZProductDefinitionForm,
  ZShipmentDetails,
} from './products';
import {
  ZFileReference,
  ZRecord,
  ZRecordAction,
  ZRecordReference,
  ZRecordStatistics,
  ZScan,
  ZTrip,
} from './records';
import { ZNotificationRule, ZRuleFunction, ZRuleGroup, ZUnaryRule } from './rules';
import {
  ZCoordinates,
  ZLocationSample,
  ZRecordLocation,
  ZRecordLocations,
  ZTemperaturePoint,
  ZTripTemperatures,
} from './series';
import {
  ZTag,
  ZTagAssignmentRequest,
  ZTagAssignmentResult,
  ZTagExtended,
  ZTagIdOnly,
} from './tags';
import {
  ZBatteryReport,
  ZFirstSample,
  ZLastSample,
  ZNanotagTemperaturePacket,
  ZRecordReportPeriods,
  ZRequestResult,
  ZStartCommand,
  ZStartConfirmation,
  ZStopCommand,
  ZTemperaturePacket,
  ZTransmitInterval,
} from './telemetry';
import {
  ZTagReportUpload,
  ZTagScanUpload,
  ZTagSettings,
  ZTagStartData,
  ZTripEditResult,
  ZTripEditUpload,
  ZUpdateShipmentUpload,
} from './uploads';
import {
  ZPasswordChange,
  ZPasswordResetConfirm,
  ZPasswordResetRequest,
  ZRole,
  ZUser,
  ZUserRegister,
  ZUserSmall,
} from './user';

/** Field groups the spec names with one word. */
const REFS = 'primary_reference secondary_reference shipping_reference';
const THRESHOLDS = 'high_threshold low_threshold';
const CUMULATIVE =
  'cumulative_high_threshold cumulative_low_threshold cumulative_duration_high cumulative_duration_low';
const TEMPLATES =
  'custom_template_email custom_template_subject custom_template_sms custom_template_attachment';
const RECIPIENT_LISTS = 'to_list cc_list bcc_list sms_list';

interface EntityCase {
  schema: z.ZodObject;
  /** Every field the spec lists for the entity (collective words expanded). */
  fields: string;
  /** The fields the spec says are required. */
  required: string[];
  /** The spec's list fields. */
  lists?: string[];
  /** A smallest valid value (only the required fields). */
  minimal?: Record<string, unknown>;
  /** Fields the schema adds beyond the spec (documented decisions). */
  extra?: string;
}

const REPORT_MINIMAL = {
  tag_id: 'T-1',
  timestamp: '2024-05-01T10:00:00Z',
  high_threshold: 8,
  low_threshold: 2,
  measurement_interval: 600,
  start_delay: 0,
};

/** Spec section 3, entity by entity. */
const entities: Record<string, EntityCase> = {
  // Session and user (existing schemas whose required set the spec fixes).
  User: {
    schema: ZUser,
    fields:
      'id username first_name last_name email date_joined organizations role_memberships current_session_permissions last_session_org_id settings org_settings has_agreed_to_tos is_locked',
    required: [
      'id',
      'username',
      'role_memberships',
      'current_session_permissions',
      'settings',
      'org_settings',
      'has_agreed_to_tos',
    ],
    lists: ['organizations', 'role_memberships', 'current_session_permissions'],
    minimal: {
      id: 'u1',
      username: 'ada',
      role_memberships: [],
      current_session_permissions: [],
      settings: { degrees_unit: 'C', timezone: 'UTC' },
      org_settings: { alarm_notify_my_scans_orgs: [], alarm_notify_any_scans_orgs: [] },
      has_agreed_to_tos: false,
    },
    extra: 'is_server_admin',
  },
  UserSmall: {
    schema: ZUserSmall,
    fields: 'id username first_name last_name email date_joined is_locked role_memberships',
    required: ['id', 'username'],
    lists: ['role_memberships'],
    minimal: { id: 'u1', username: 'ada' },
    // Ours (issue 34): the membership of the session organization is suspended.
    extra: 'is_suspended',
  },
  Role: {
    schema: ZRole,
    fields: 'id name permission_names created_by_organization_id',
    required: ['id', 'name', 'permission_names', 'created_by_organization_id'],
    lists: ['permission_names'],
    minimal: { id: 'r1', name: 'Viewer', permission_names: [], created_by_organization_id: null },
  },
  UserRegister: {
    schema: ZUserRegister,
    fields: 'username first_name last_name email organization_id role_id',
    required: ['username', 'first_name', 'last_name', 'email', 'organization_id', 'role_id'],
  },
  PasswordChange: {
    schema: ZPasswordChange,
    fields: 'old_password new_password new_password_confirm',
    required: ['old_password', 'new_password', 'new_password_confirm'],
  },
  PasswordResetRequest: { schema: ZPasswordResetRequest, fields: 'email', required: ['email'] },
  PasswordResetConfirm: {
    schema: ZPasswordResetConfirm,
    fields: 'uuid token new_password',
    required: ['uuid', 'token', 'new_password'],
  },
  OrgCreate: { schema: ZOrgCreate, fields: 'name', required: ['name'] },
  ApiKey: {
    schema: ZApiKey,
    fields: 'name prefix permissions created read_only last_used',
    required: ['prefix', 'permissions', 'created'],
    lists: ['permissions'],
    minimal: { prefix: 'ct_ab12', permissions: [], created: '2024-05-01T10:00:00Z' },
  },
  ApiKeyCreated: {
    schema: ZApiKeyCreated,
    fields: 'name prefix permissions created read_only last_used private_key',
    required: ['prefix', 'permissions', 'created'],
    lists: ['permissions'],
    minimal: { prefix: 'ct_ab12', permissions: [], created: '2024-05-01T10:00:00Z' },
  },

  // Organization.
  OrganizationLevelRecord: {
    schema: ZOrganizationLevelRecord,
    fields: 'id user_ids num_devices num_records latest_activity settings created name',
    required: [],
    lists: ['user_ids'],
  },
  OrganizationSettings: {
    schema: ZOrganizationSettings,
    fields: 'id geo_fence_settings',
    extra:
      'calibration_settings no_data_factor allow_release_in_transit second_factor_for_signers second_factor_for_administrators',
    required: [],
  },
  GeoFenceSettings: {
    schema: ZGeoFenceSettings,
    fields:
      'id arrival_radius_meters arrival_radius_units departure_radius_meters departure_radius_units num_points_to_arrive num_points_to_depart',
    required: [],
  },
  DataDisplayRule: { schema: ZDataDisplayRule, fields: 'id', required: [] },
  TagAssignmentRequest: {
    schema: ZTagAssignmentRequest,
    fields: 'organization_id tag_ids',
    required: [],
    lists: ['tag_ids'],
  },
  TagAssignmentResult: {
    schema: ZTagAssignmentResult,
    fields: 'assigned_ids failed_ids',
    required: [],
    lists: ['assigned_ids', 'failed_ids'],
  },
  TagIdOnly: { schema: ZTagIdOnly, fields: 'tag_id', required: [] },

  // Records, scans, alarms and tags.
  Record: {
    schema: ZRecord,
    fields: [
      'id tag_id tag_serial_number tag_type tag_status tag_calibration created last_modified temps_last_updated',
      `${REFS} program_name carrier product_designation po_number`,
      'shipper_name_address receiver_name_address',
      `${THRESHOLDS} ${CUMULATIVE} num_consecutive_excursions`,
      'highest_recorded_temperature lowest_recorded_temperature mean_kinetic_temp latest_temp',
      'start_time_seconds start_time stop_time measurement_interval calculated_measurement_interval transmit_interval start_delay first_point last_point number_of_points record_duration',
      'scans last_scanned last_scanned_user last_action_taken',
      'alarm_recipients status computed_status',
      'last_latitude last_longitude memory_health battery_health',
      'trip report_exists',
    ].join(' '),
    extra:
      'calibration_state calibration_due calibration_warning disposition review_state alarm_awaits_acknowledgement stability_budget planned_arrival last_transmission',
    required: [],
    lists: ['scans', 'alarm_recipients'],
  },
  Trip: { schema: ZTrip, fields: 'begin_time end_time trip_status', required: [] },
  Scan: {
    schema: ZScan,
    fields: [
      'id start_time stop_time temperatures tag_id tag_serial_number record timestamp created created_by_user',
      'latitude longitude',
      'highest_recorded_temp lowest_recorded_temp mean_kinetic_temp latest_temp',
      'excursion_duration_above excursion_duration_below',
      `tag_status measurement_interval start_delay ${THRESHOLDS}`,
      `${REFS} description status mobile_device_type mobile_app_version`,
    ].join(' '),
    required: [],
    lists: ['temperatures'],
  },
  Tag: { schema: ZTag, fields: 'id created serial_number belongs_to', required: [] },
  TagExtended: {
    schema: ZTagExtended,
    fields: `id created serial_number belongs_to ${REFS} program_name shipper_name_address receiver_name_address carrier product_designation po_number last_record_id tag_type last_action_taken last_scanned last_scanned_location last_temp running`,
    extra: 'calibration_state calibration_due',
    required: [],
  },
  RecordAction: {
    schema: ZRecordAction,
    fields:
      'id record_id tag_id tag_serial_number action_type action_type_display latitude longitude timestamp created_by_user tag_type mobile_device_type mobile_app_version',
    required: [],
  },
  RecordReference: {
    schema: ZRecordReference,
    fields: 'record_id tag_id tag_serial_number',
    // An upload's points timed after the record's stop (issue 35).
    extra: 'set_aside',
    required: [],
  },
  ExcursionAlarm: {
    schema: ZExcursionAlarm,
    fields:
      'id record_id tag_id created tag_serial_number above_or_below first_point_idx last_point_idx degree_minutes start_time end_time duration high_threshold low_threshold highest_recorded_temperature lowest_recorded_temperature acknowledged dismissed kind state resolved closed_at closed_by close_cause close_reason close_signature acknowledged_by acknowledged_at acknowledge_comment acknowledge_client_type dismissed_by dismissed_at dismiss_reason signature',
    // Issue 35 item 4: a merged alarm's survivor, a no-data alarm's expected interval.
    extra: 'superseded_by expected_interval',
    required: [],
  },
  Notification: {
    schema: ZNotification,
    fields:
      'id record_id tag_id created tag_serial_number above_or_below first_point_idx last_point_idx degree_minutes start_time end_time duration high_threshold low_threshold highest_recorded_temperature lowest_recorded_temperature acknowledged dismissed kind state resolved closed_at closed_by close_cause close_reason close_signature acknowledged_by acknowledged_at acknowledge_comment acknowledge_client_type dismissed_by dismissed_at dismiss_reason signature occurred_at primary_reference reference',
    // Issue 35 item 4: a merged alarm's survivor, a no-data alarm's expected interval.
    extra: 'superseded_by expected_interval',
    required: [],
  },
  AcknowledgementRequest: {
    schema: ZAcknowledgementRequest,
    fields: 'record_ids alarm_ids comment timestamp client_type',
    required: ['comment', 'client_type'],
    lists: ['record_ids', 'alarm_ids'],
    minimal: { comment: 'Checked the product, fine', client_type: 'WEB' },
  },
  AcknowledgementRequestWithoutComment: {
    schema: ZAcknowledgementRequestWithoutComment,
    fields: 'record_ids alarm_ids timestamp client_type',
    required: ['client_type'],
    lists: ['record_ids', 'alarm_ids'],
    minimal: { client_type: 'WEB' },
  },
  AlarmDismissal: {
    schema: ZAlarmDismissal,
    fields: 'client_type record_ids alarm_ids',
    required: [],
    lists: ['record_ids', 'alarm_ids'],
  },
  AlarmRecipients: {
    schema: ZAlarmRecipients,
    fields: 'record_id alarm_recipients',
    required: [],
    lists: ['alarm_recipients'],
  },
  RecordStatistics: {
    schema: ZRecordStatistics,
    fields:
      'num_records num_alarm_records num_no_alarm_records num_active_records num_stopped_records scans_made running_tags idle_tags',
    extra: 'num_alarm_started_records',
    required: [],
  },
  TemperaturePoint: {
    schema: ZTemperaturePoint,
    fields: 'temperature timestamp index',
    required: [],
  },
  TripTemperatures: {
    schema: ZTripTemperatures,
    fields: `record_id ${THRESHOLDS} cumulative_high_threshold cumulative_low_threshold trip_begin_time trip_end_time start_time temperatures`,
    required: [],
    lists: ['temperatures'],
  },
  Coordinates: { schema: ZCoordinates, fields: 'latitude longitude', required: [] },
  LocationSample: {
    schema: ZLocationSample,
    fields: 'tag_id location frame_id temperature timestamp',
    required: [],
  },
  RecordLocation: { schema: ZRecordLocation, fields: 'latitude longitude timestamp', required: [] },
  RecordLocations: {
    schema: ZRecordLocations,
    fields: 'record_id locations',
    required: ['record_id', 'locations'],
    lists: ['locations'],
    minimal: { record_id: 'rec-1', locations: [] },
  },
  FileReference: { schema: ZFileReference, fields: 'url localUrl fileName', required: [] },

  // Tag messages and uploads.
  TagReportUpload: {
    schema: ZTagReportUpload,
    fields: `tag_id tag_serial_number timestamp ${REFS} latitude longitude tag_status tag_type mobile_device_type mobile_app_version battery_health memory_health header_data high_threshold low_threshold measurement_interval calculated_measurement_interval start_delay num_consecutive_excursions start_time_seconds`,
    required: [
      'tag_id',
      'timestamp',
      'high_threshold',
      'low_threshold',
      'measurement_interval',
      'start_delay',
    ],
    minimal: REPORT_MINIMAL,
  },
  TagScanUpload: {
    schema: ZTagScanUpload,
    fields: `tag_id tag_serial_number timestamp ${REFS} latitude longitude tag_status tag_type mobile_device_type mobile_app_version battery_health memory_health header_data high_threshold low_threshold measurement_interval calculated_measurement_interval start_delay num_consecutive_excursions start_time_seconds stop_time_seconds record_id begin_time end_time program_name po_number shipper_name_address_id receiver_name_address_id carrier product_designation ${CUMULATIVE} temps status temperatures_offset_index`,
    required: [
      'tag_id',
      'timestamp',
      'high_threshold',
      'low_threshold',
      'measurement_interval',
      'start_delay',
    ],
    lists: ['temps'],
    minimal: REPORT_MINIMAL,
  },
  TagSettings: {
    schema: ZTagSettings,
    fields:
      'tag_id high_threshold low_threshold measurement_interval start_delay num_consecutive_excursions',
    required: [
      'tag_id',
      'high_threshold',
      'low_threshold',
      'measurement_interval',
      'start_delay',
      'num_consecutive_excursions',
    ],
  },
  TagStartData: {
    schema: ZTagStartData,
    fields: `serial_number tag_type ${REFS} program_name shipper_name_address_id receiver_name_address_id carrier product_designation po_number ${THRESHOLDS} num_consecutive_excursions ${CUMULATIVE}`,
    required: [],
  },
  UpdateShipmentUpload: {
    schema: ZUpdateShipmentUpload,
    fields: `tag_id record_id timestamp ${REFS} program_name po_number receiver_name_address_id shipper_name_address_id product_designation carrier ${THRESHOLDS} ${CUMULATIVE} tag_status mobile_device_type mobile_app_version header_data start_time_seconds`,
    required: [],
  },
  TripEditUpload: {
    schema: ZTripEditUpload,
    fields: 'tag_id record_id begin_time end_time timestamp',
    required: [],
  },
  TripEditResult: {
    schema: ZTripEditResult,
    fields: 'begin_time end_time trip_status',
    required: [],
    extra: 'record_id',
  },
  StartCommand: {
    schema: ZStartCommand,
    fields:
      'tag_id request_id timestamp high_threshold low_threshold measurement_interval start_delay num_consecutive_excursions max_transmit_interval',
    required: [],
  },
  StartConfirmation: {
    schema: ZStartConfirmation,
    fields:
      'tag_id request_id timestamp high_threshold low_threshold measurement_interval start_delay num_consecutive_excursions start_time_seconds',
    required: [],
  },
  StopCommand: {
    schema: ZStopCommand,
    fields: 'tag_id request_id timestamp start_time_seconds stop_time_seconds',
    required: [],
  },
  TemperaturePacket: {
    schema: ZTemperaturePacket,
    fields: 'tag_id temps start_time_seconds packet_end_time_seconds temperatures_offset_index',
    required: [],
    lists: ['temps'],
  },
  NanotagTemperaturePacket: {
    schema: ZNanotagTemperaturePacket,
    fields: 'tag_id location temps packet_end_time_seconds frame_id',
    required: [],
    lists: ['temps'],
  },
  RequestResult: { schema: ZRequestResult, fields: 'status reject_reason', required: [] },
  RecordReportPeriods: {
    schema: ZRecordReportPeriods,
    fields: 'tag_id record_period_seconds report_period_seconds',
    required: [],
  },
  FirstSample: { schema: ZFirstSample, fields: 'tag_id first_sample_timestamp', required: [] },
  BatteryReport: { schema: ZBatteryReport, fields: 'tag_id battery_health', required: [] },
  LastSample: {
    schema: ZLastSample,
    fields: 'tag_id last_sample_number last_sample_timestamp',
    required: [],
  },
  TransmitInterval: { schema: ZTransmitInterval, fields: 'tag_id transmit_interval', required: [] },
  Calibration: {
    schema: ZCalibration,
    fields: 'device_id tag_type calibration_timestamp',
    required: [],
  },
  CalibrationEquipment: {
    schema: ZCalibrationEquipment,
    fields: 'manufacturer model description serial_number',
    required: [],
  },
  CalibrationSpecification: {
    schema: ZCalibrationSpecification,
    fields: 'temperature_range_low temperature_range_high dut_error',
    required: [],
  },
  CalibrationCertificate: {
    schema: ZCalibrationCertificate,
    fields: 'model_name equipment specifications calibrated_devices',
    required: [],
    lists: ['equipment', 'specifications', 'calibrated_devices'],
  },
  CalibrationCertificateLink: {
    schema: ZCalibrationCertificateLink,
    fields: 'pdf_url',
    required: [],
  },

  // Products, carriers, locations and notification rules.
  ProductDefinition: {
    schema: ZProductDefinition,
    fields: `id created product_name ${THRESHOLDS} num_consecutive_excursions ${CUMULATIVE} organization`,
    extra: 'stability_budget',
    required: [],
  },
  ProductDefinitionForm: {
    schema: ZProductDefinitionForm,
    fields: `product_name ${THRESHOLDS} num_consecutive_excursions ${CUMULATIVE}`,
    extra: 'stability_budget',
    required: ['product_name'],
  },
  CarrierDefinition: {
    schema: ZCarrierDefinition,
    fields: 'id created name organization',
    required: [],
  },
  NameAndAddressLocation: {
    schema: ZNameAndAddressLocation,
    fields: 'id created name address latitude longitude origin destination timezone organization',
    required: [],
  },
  NameAndAddressLocationCreate: {
    schema: ZNameAndAddressLocationCreate,
    fields: 'name address latitude longitude origin destination timezone',
    required: ['name', 'address', 'latitude', 'longitude'],
  },
  DropdownInfo: {
    schema: ZDropdownInfo,
    fields: 'product_definitions origin_locations destination_locations carrier_definitions',
    required: [],
    lists: [
      'product_definitions',
      'origin_locations',
      'destination_locations',
      'carrier_definitions',
    ],
  },
  ShipmentDetails: {
    schema: ZShipmentDetails,
    fields: `id record_id ${REFS} program_name shipper_name_address receiver_name_address carrier product_designation po_number`,
    required: [],
  },
  NotificationSetting: {
    schema: ZNotificationSetting,
    fields: `id created product_name carrier_name notification_type status ${RECIPIENT_LISTS} comment ${TEMPLATES} organization origin destination remind_after_minutes escalate_after_minutes escalation_emails schedule`,
    required: ['notification_type', 'status'],
    lists: ['to_list', 'cc_list', 'bcc_list', 'sms_list'],
    minimal: { notification_type: 'Departure', status: 'Enabled' },
  },
  PersonalNotificationSetting: {
    schema: ZPersonalNotificationSetting,
    fields: `id created notification_type latest_match degrees_unit locale_name timezone_override ${TEMPLATES} organization`,
    required: [],
  },
  NotificationLogEntry: {
    schema: ZNotificationLogEntry,
    fields: `id created notification_type timestamp destination ${RECIPIENT_LISTS} comment serial_number ${TEMPLATES} organization record alarm step period`,
    required: ['id', 'created', 'notification_type'],
    lists: ['to_list', 'cc_list', 'bcc_list', 'sms_list'],
    minimal: { id: 'n1', created: '2024-05-01T10:00:00Z', notification_type: 'Arrival' },
  },
  RuleFunction: {
    schema: ZRuleFunction,
    fields: 'id field function_operator value',
    required: [],
  },
  UnaryRule: { schema: ZUnaryRule, fields: 'id function operator', required: [] },
  RuleGroup: {
    schema: ZRuleGroup,
    fields: 'id operator unary_children',
    required: [],
    lists: ['unary_children'],
  },
  NotificationRule: {
    schema: ZNotificationRule,
    fields: 'id name users root_rule',
    required: ['name', 'users', 'root_rule'],
    lists: ['users'],
    minimal: { name: 'Any alarm', users: [], root_rule: {} },
  },
};

/** Keys whose schema does not accept undefined: the required fields. */
function requiredKeys(schema: z.ZodObject): string[] {
  return Object.entries(schema.shape)
    .filter(([, field]) => !(field as z.ZodType).safeParse(undefined).success)
    .map(([key]) => key)
    .sort();
}

const words = (s: string | undefined) => (s ? s.split(/\s+/).filter(Boolean) : []);
const table = Object.entries(entities);

describe('entities of spec section 3 [SPEC-3]', () => {
  it.each(table)('%s has exactly the fields the spec lists', (_name, entity) => {
    const expected = [...words(entity.fields), ...words(entity.extra)].sort();
    expect(new Set(expected).size).toBe(expected.length);
    expect(Object.keys(entity.schema.shape).sort()).toEqual(expected);
  });

  it.each(table)('%s requires exactly the fields the spec says are required', (_name, entity) => {
    expect(requiredKeys(entity.schema)).toEqual([...entity.required].sort());
  });

  it.each(table)('%s accepts its smallest valid value', (name, entity) => {
    if (entity.required.length > 0 && !entity.minimal) return; // forms checked by their own tests
    expect(() => parseModel(entity.schema, entity.minimal ?? {}, name)).not.toThrow();
  });

  it.each(table.filter(([, e]) => e.required.length > 0 && e.minimal))(
    '%s names each missing required field',
    (name, entity) => {
      for (const key of entity.required) {
        const input = { ...entity.minimal };
        delete input[key];
        expect(() => parseModel(entity.schema, input, name)).toThrow(ModelShapeError);
        try {
          parseModel(entity.schema, input, name);
        } catch (error) {
          expect((error as ModelShapeError).fields[key]).toBe(`Missing required field '${key}'`);
        }
      }
    },
  );

  it.each(table.filter(([, e]) => e.lists?.length))(
    '%s rejects list fields that are not arrays',
    (name, entity) => {
      for (const key of entity.lists!) {
        const field = entity.schema.shape[key] as z.ZodType;
        expect(field.safeParse([]).success).toBe(true);
        for (const wrong of ['a,b', 3, { 0: 'a' }, true]) {
          expect(field.safeParse(wrong).success).toBe(false);
        }
        if (entity.required.length > 0 && !entity.minimal) continue;
        const input = { ...entity.minimal, [key]: 'a,b' };
        try {
          parseModel(entity.schema, input, name);
          expect.unreachable(`${name}.${key} accepted a string`);
        } catch (error) {
          expect((error as ModelShapeError).fields[key]).toBe(
            `Field '${key}' must be an array, received string`,
          );
        }
      }
    },
  );
});

describe('field types the spec states [SPEC-3]', () => {
  it('Tag id and alarm tag_id are numbers; Calibration device_id is a number', () => {
    expect(ZTag.parse({ id: 42 }).id).toBe(42);
    expect(ZTag.safeParse({ id: '42' }).success).toBe(false);
    expect(ZExcursionAlarm.safeParse({ tag_id: '42' }).success).toBe(false);
    expect(ZNotification.parse({ tag_id: 42, record_id: 'rec-1' })).toEqual({
      tag_id: 42,
      record_id: 'rec-1',
    });
    expect(ZCalibration.safeParse({ device_id: '7' }).success).toBe(false);
  });

  it('other ids are strings', () => {
    expect(ZRecord.safeParse({ id: 1 }).success).toBe(false);
    expect(ZRecordLocations.safeParse({ record_id: 1, locations: [] }).success).toBe(false);
  });

  it('enumerated fields only take their enum values', () => {
    expect(ZRecord.safeParse({ status: 'ALARM' }).success).toBe(false);
    expect(ZRecord.safeParse({ trip: { trip_status: 'DEPARTED' } }).success).toBe(false);
    expect(ZExcursionAlarm.safeParse({ above_or_below: 'above' }).success).toBe(false);
    expect(ZGeoFenceSettings.safeParse({ arrival_radius_units: 'parsec' }).success).toBe(false);
    expect(ZGeoFenceSettings.safeParse({ arrival_radius_units: 'nm_uk' }).success).toBe(true);
    expect(ZRequestResult.parse({ status: 'rejected', reject_reason: 'record-missing' })).toEqual({
      status: 'rejected',
      reject_reason: 'record-missing',
    });
    expect(ZRuleGroup.safeParse({ operator: 'XOR' }).success).toBe(false);
    expect(ZApiKey.safeParse({ prefix: 'p', created: 'c', permissions: ['root'] }).success).toBe(
      false,
    );
    expect(() => parseModel(ZRequestResult, { status: 'maybe' }, 'RequestResult')).toThrow(
      `Field 'status' must be one of "accepted", "rejected"`,
    );
  });

  it('product durations are strings', () => {
    expect(ZProductDefinition.safeParse({ cumulative_duration_high: 3600 }).success).toBe(false);
    expect(
      ZTagStartData.parse({ cumulative_duration_low: '01 02:00:00' }).cumulative_duration_low,
    ).toBe('01 02:00:00');
  });

  it('nested entities are checked with their path', () => {
    try {
      parseModel(
        ZNotificationRule,
        {
          name: 'Rule',
          users: ['u1'],
          root_rule: {
            operator: 'AND',
            unary_children: [{ operator: 'IS', function: { function_operator: 'LIKE' } }],
          },
        },
        'NotificationRule',
      );
      expect.unreachable();
    } catch (error) {
      expect((error as ModelShapeError).fields).toEqual({
        'root_rule.unary_children.0.function.function_operator': `Field 'root_rule.unary_children.0.function.function_operator' must be one of "EQUALS", "ANY_OF", "ALWAYS_TRUE"`,
      });
    }
  });

  it('rule function values take a scalar, a list or null', () => {
    for (const value of ['Vaccine', 8, true, ['A', 'B'], null, undefined]) {
      expect(ZRuleFunction.safeParse({ value }).success).toBe(true);
    }
    expect(ZRuleFunction.safeParse({ value: { a: 1 } }).success).toBe(false);
  });

  it('the private key appears only in the creation result', () => {
    const key = {
      prefix: 'ct_ab12',
      permissions: ['sysDataRead'],
      created: '2024-05-01T10:00:00Z',
    };
    expect(ZApiKey.parse({ ...key, private_key: 'secret' })).toEqual(key);
    expect(ZApiKeyCreated.parse({ ...key, private_key: 'secret' }).private_key).toBe('secret');
  });

  it('data display rules keep any field (the spec does not show them)', () => {
    const rule = { id: 'd1', field: 'po_number', hidden: true, roles: ['r1'] };
    expect(ZDataDisplayRule.parse(rule)).toEqual(rule);
    expect(ZDataDisplayRule.parse({})).toEqual({});
    expect(ZDataDisplayRule.safeParse({ id: 5 }).success).toBe(false);
  });
});

describe('defaults the spec states [SPEC-3, SPEC-9.3]', () => {
  it('record action latitude and longitude default to -91 and -181', () => {
    expect(ZRecordAction.parse({ id: 'a1' })).toMatchObject({ latitude: -91, longitude: -181 });
    expect(ZRecordAction.parse({ latitude: 45.5, longitude: -73.6 })).toMatchObject({
      latitude: 45.5,
      longitude: -73.6,
    });
    expect(contract.UNKNOWN_LATITUDE).toBe(-91);
    expect(contract.UNKNOWN_LONGITUDE).toBe(-181);
  });

  it('the tag report defaults position to the unknown sentinels and num_consecutive_excursions to 1', () => {
    const report = ZTagReportUpload.parse(REPORT_MINIMAL);
    expect(report).toMatchObject({ latitude: -91, longitude: -181, num_consecutive_excursions: 1 });
    expect(
      ZTagReportUpload.parse({ ...REPORT_MINIMAL, num_consecutive_excursions: 3 })
        .num_consecutive_excursions,
    ).toBe(3);
  });

  it('the scan upload variant also defaults temperatures_offset_index to 0', () => {
    expect(ZTagScanUpload.parse(REPORT_MINIMAL)).toMatchObject({
      latitude: -91,
      longitude: -181,
      num_consecutive_excursions: 1,
      temperatures_offset_index: 0,
    });
    expect(
      ZTagScanUpload.parse({ ...REPORT_MINIMAL, temperatures_offset_index: 120 })
        .temperatures_offset_index,
    ).toBe(120);
    expect(
      ZTagScanUpload.safeParse({ ...REPORT_MINIMAL, temperatures_offset_index: -1 }).success,
    ).toBe(false);
  });

  it('start commands, confirmations and start data default num_consecutive_excursions to 1', () => {
    expect(ZStartCommand.parse({ tag_id: 'T-1' }).num_consecutive_excursions).toBe(1);
    expect(ZStartConfirmation.parse({ tag_id: 'T-1' }).num_consecutive_excursions).toBe(1);
    expect(ZTagStartData.parse({}).num_consecutive_excursions).toBe(1);
    expect(ZStartCommand.parse({ num_consecutive_excursions: 4 }).num_consecutive_excursions).toBe(
      4,
    );
  });

  it('the start confirmation has start_time_seconds and no max_transmit_interval', () => {
    expect(Object.keys(ZStartConfirmation.shape)).toContain('start_time_seconds');
    expect(Object.keys(ZStartConfirmation.shape)).not.toContain('max_transmit_interval');
    expect(Object.keys(ZStartCommand.shape)).toContain('max_transmit_interval');
  });

  it('temperature packets default temperatures_offset_index to 0', () => {
    expect(
      ZTemperaturePacket.parse({ tag_id: 'T-1', temps: [4.5] }).temperatures_offset_index,
    ).toBe(0);
  });

  it('shipment details text fields default to empty', () => {
    expect(ZShipmentDetails.parse({ id: 's1' })).toEqual({
      id: 's1',
      primary_reference: '',
      secondary_reference: '',
      shipping_reference: '',
      program_name: '',
      carrier: '',
      product_designation: '',
      po_number: '',
    });
  });

  it('the default constants have the spec values', () => {
    expect(contract.DEFAULT_NUM_CONSECUTIVE_EXCURSIONS).toBe(1);
    expect(contract.DEFAULT_TEMPERATURES_OFFSET_INDEX).toBe(0);
  });
});

describe('OpenAPI component ids [SPEC-3]', () => {
  const exported = Object.entries(contract).filter(
    ([name, value]) => name.startsWith('Z') && value instanceof z.ZodType,
  ) as [string, z.ZodType][];

  it('are unique, on objects only', () => {
    const seen = new Map<string, string>();
    for (const [name, schema] of exported) {
      const id = z.globalRegistry.get(schema)?.id;
      if (id === undefined) continue;
      expect(schema, `${name} carries id ${id}`).toBeInstanceOf(z.ZodObject);
      expect(seen.get(id), `${name} and ${seen.get(id)} share the id ${id}`).toBeUndefined();
      seen.set(id, name);
    }
  });

  it('name every entity of the table after itself', () => {
    for (const [name, entity] of table) {
      const expectedId =
        name === 'OrgCreate' || name === 'UserRegister' || name.startsWith('Password')
          ? undefined
          : name;
      expect(z.globalRegistry.get(entity.schema)?.id).toBe(expectedId);
    }
  });

  it('produce one JSON Schema document without clashes', () => {
    const doc = z.toJSONSchema(z.globalRegistry, { io: 'input' });
    expect(Object.keys(doc.schemas)).toEqual(
      expect.arrayContaining(['Record', 'Scan', 'ApiKeyCreated']),
    );
    const record = doc.schemas.Record as { properties: Record<string, unknown> };
    expect(record.properties.trip).toEqual({ $ref: 'Trip' });
  });
});
