import { z } from 'zod';

/** Enumerations of spec section 3 ("Enumerations") and section 4. */
export const TAG_TYPES = ['XT1_NFC_MU', 'XT1_RT', 'XT1_MAX', 'NanoTag'] as const;
export const ZTagType = z.enum(TAG_TYPES);
export type TTagType = z.infer<typeof ZTagType>;

/** Tags that report over the network by themselves (rt and nanotag); the others are scanned by hand. */
export const LIVE_TAG_TYPES = ['XT1_RT', 'NanoTag'] as const satisfies readonly TTagType[];

/** Whether a tag type reports by itself (rt, nanotag): its records have a last transmission, not scans. */
export const isLiveTagType = (type: string | null | undefined): boolean =>
  (LIVE_TAG_TYPES as readonly (string | null | undefined)[]).includes(type);

export const TAG_STATUSES = ['XT1_RESET', 'XT1_IDLE', 'XT1_PENDING', 'XT1_ACTIVE'] as const;
export const ZTagStatus = z.enum(TAG_STATUSES);
export type TTagStatus = z.infer<typeof ZTagStatus>;

export const TRIP_STATUSES = ['NOT_DEPARTED', 'IN_TRANSIT', 'ARRIVED'] as const;
export const ZTripStatus = z.enum(TRIP_STATUSES);
export type TTripStatus = z.infer<typeof ZTripStatus>;

export const BATTERY_HEALTHS = ['OK', 'LOW_BATTERY', 'CRITICAL'] as const;
export const ZBatteryHealth = z.enum(BATTERY_HEALTHS);
export type TBatteryHealth = z.infer<typeof ZBatteryHealth>;

export const MEMORY_HEALTHS = ['OK', 'MEMORY_FULL'] as const;
export const ZMemoryHealth = z.enum(MEMORY_HEALTHS);
export type TMemoryHealth = z.infer<typeof ZMemoryHealth>;

export const CLIENT_TYPES = ['WEB', 'IOS', 'ANDROID'] as const;
export const ZClientType = z.enum(CLIENT_TYPES);
export type TClientType = z.infer<typeof ZClientType>;

export const DEGREES_UNITS = ['C', 'F'] as const;
export const ZDegreesUnit = z.enum(DEGREES_UNITS);
export type TDegreesUnit = z.infer<typeof ZDegreesUnit>;

export const ALARM_STATUSES = ['OK', 'Alarm'] as const;
export const ZAlarmStatus = z.enum(ALARM_STATUSES);
export type TAlarmStatus = z.infer<typeof ZAlarmStatus>;

export const ABOVE_OR_BELOW = ['ABOVE', 'BELOW'] as const;
export const ZAboveOrBelow = z.enum(ABOVE_OR_BELOW);
export type TAboveOrBelow = z.infer<typeof ZAboveOrBelow>;

export const NOTIFICATION_TYPES = ['Departure', 'Alarm', 'Arrival'] as const;
export const ZNotificationType = z.enum(NOTIFICATION_TYPES);
export type TNotificationType = z.infer<typeof ZNotificationType>;

export const NOTIFICATION_STATUSES = ['Enabled', 'Disabled', 'Test'] as const;
export const ZNotificationStatus = z.enum(NOTIFICATION_STATUSES);
export type TNotificationStatus = z.infer<typeof ZNotificationStatus>;

/** Rule engine (spec section 3, "Rule engine"). */
export const RULE_COMBINATORS = ['AND', 'OR'] as const;
export const ZRuleCombinator = z.enum(RULE_COMBINATORS);
export type TRuleCombinator = z.infer<typeof ZRuleCombinator>;

export const FUNCTION_OPERATORS = ['EQUALS', 'ANY_OF', 'ALWAYS_TRUE'] as const;
export const ZFunctionOperator = z.enum(FUNCTION_OPERATORS);
export type TFunctionOperator = z.infer<typeof ZFunctionOperator>;

export const UNARY_OPERATORS = ['IS', 'NOT'] as const;
export const ZUnaryOperator = z.enum(UNARY_OPERATORS);
export type TUnaryOperator = z.infer<typeof ZUnaryOperator>;

/** Command result of real-time requests (spec section 3, "Request result"). */
export const COMMAND_RESULTS = ['accepted', 'rejected'] as const;
export const ZCommandResult = z.enum(COMMAND_RESULTS);
export type TCommandResult = z.infer<typeof ZCommandResult>;

export const REJECT_REASONS = ['empty-data', 'record-missing', 'NA'] as const;
export const ZRejectReason = z.enum(REJECT_REASONS);
export type TRejectReason = z.infer<typeof ZRejectReason>;

/**
 * Distance units of the geo-fence settings (spec section 3). The spec lists the
 * common ones and "various british/clarke chain and link units"; we carry the
 * full set of the usual GIS distance table. Factors to metres live in the
 * domain package (`distance-units.ts`).
 */
export const DISTANCE_UNITS = [
  'cm',
  'ft',
  'inch',
  'km',
  'm',
  'um',
  'mm',
  'mi',
  'yd',
  'nm',
  'nm_uk',
  'furlong',
  'survey_ft',
  'sears_yd',
  'german_m',
  'indian_yd',
  'gold_coast_ft',
  'british_chain_benoit',
  'british_chain_sears',
  'british_chain_sears_truncated',
  'british_ft',
  'british_yd',
  'chain',
  'chain_benoit',
  'chain_sears',
  'clarke_ft',
  'clarke_link',
  'link',
  'link_benoit',
  'link_sears',
  'fathom',
  'rod',
] as const;
export const ZDistanceUnit = z.enum(DISTANCE_UNITS);
export type TDistanceUnit = z.infer<typeof ZDistanceUnit>;
