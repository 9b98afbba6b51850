import { z } from 'zod';
import { ZAboveOrBelow, ZClientType } from '../enums';
import { secondFactorCodeShape, ZSecondFactorKind } from './second-factor';

/**
 * Excursion alarms, notifications, acknowledgement and dismissal of spec
 * section 3 ("Records, scans, alarms and tags").
 */

/**
 * Kind of an alarm (domain rules §2: "A cumulative alarm is an alarm with a kind that says so").
 * no_data (ours, issue 14 item 4): a running rt or nanotag record sent nothing for longer than
 * its transmit interval times the organization's no_data_factor (docs/decisions/no-data-alarm.md).
 * budget (ours, issue 14 item 3): a band of the product's stability budget is used up across the
 * shipment's legs (docs/decisions/stability-budget.md); above_or_below and the threshold name the band.
 */
export const ALARM_KINDS = ['excursion', 'cumulative', 'no_data', 'budget'] as const;
export const ZAlarmKind = z.enum(ALARM_KINDS);
export type TAlarmKind = z.infer<typeof ZAlarmKind>;

/**
 * What an acknowledgement's electronic signature means (21 CFR Part 11
 * §11.50: the meaning of a signature is shown with it). Ours: the spec has
 * no signatures. Decisions: docs/decisions/notifications.md.
 */
export const SIGNATURE_MEANINGS = ['REVIEWED', 'APPROVED', 'REJECTED'] as const;
export const ZSignatureMeaning = z.enum(SIGNATURE_MEANINGS);
export type TSignatureMeaning = z.infer<typeof ZSignatureMeaning>;
/** How the meanings read on screen and in reports. */
export const SIGNATURE_MEANING_LABELS: Readonly<Record<TSignatureMeaning, string>> = {
  REVIEWED: 'Reviewed',
  APPROVED: 'Approved',
  REJECTED: 'Rejected',
};

/**
 * An alarm's state (docs/decisions/alarm-lifecycle.md). OPEN: it holds. CLOSED:
 * it stopped holding (outside the trip window, a threshold, product, trip,
 * geo-fence or location change); it is kept for good with the cause, the
 * reason, who and when, and is never opened again (an excursion found again
 * later is a new alarm). The record's status follows open alarms only.
 */
export const ALARM_STATES = ['OPEN', 'CLOSED'] as const;
export const ZAlarmState = z.enum(ALARM_STATES);
export type TAlarmState = z.infer<typeof ZAlarmState>;
export const ALARM_STATE_LABELS: Readonly<Record<TAlarmState, string>> = {
  OPEN: 'Open',
  CLOSED: 'Closed',
};

/** Why an alarm closed. */
export const ALARM_CLOSE_CAUSES = [
  'TRIP_WINDOW',
  'DATA_CHANGE',
  'THRESHOLD_CHANGE',
  'PRODUCT_CHANGE',
  'TRIP_EDIT',
  'GEO_FENCE_CHANGE',
  'LOCATION_CHANGE',
  'DATA_RESUMED',
  'SHIPMENT_CHANGE',
  'BUDGET_CHANGE',
  'MERGED',
  'UNRECORDED',
] as const;
export const ZAlarmCloseCause = z.enum(ALARM_CLOSE_CAUSES);
export type TAlarmCloseCause = z.infer<typeof ZAlarmCloseCause>;
/** How the causes read on screen and in reports. */
export const ALARM_CLOSE_CAUSE_LABELS: Readonly<Record<TAlarmCloseCause, string>> = {
  TRIP_WINDOW: 'Outside the trip window',
  DATA_CHANGE: 'The uploaded data no longer shows it',
  THRESHOLD_CHANGE: 'Thresholds changed',
  PRODUCT_CHANGE: 'Product changed',
  TRIP_EDIT: 'Trip times edited',
  GEO_FENCE_CHANGE: 'Geo-fence changed',
  LOCATION_CHANGE: 'Travel location changed',
  DATA_RESUMED: 'Data arrived again',
  SHIPMENT_CHANGE: 'Shipping reference changed',
  BUDGET_CHANGE: 'Stability budget no longer used up',
  MERGED: 'Merged into a longer excursion',
  UNRECORDED: 'Closed before closing reasons were kept',
};

/** What a signature signs: an acknowledgement, or a change that closed the alarm. */
export const SIGNATURE_PURPOSES = ['ACKNOWLEDGE', 'CLOSE'] as const;
export const ZSignaturePurpose = z.enum(SIGNATURE_PURPOSES);
export type TSignaturePurpose = z.infer<typeof ZSignaturePurpose>;

/** Longest reason for change (and dismissal reason). */
export const CHANGE_REASON_MAX_LENGTH = 2000;
/** Longest password accepted for a signature (longer than any password can be). */
export const SIGNATURE_PASSWORD_MAX_LENGTH = 1024;

/**
 * Reason for change and signature (21 CFR 11.10(e), EU GMP Annex 11 §9), sent
 * with a change of thresholds, product, trip times, geo-fence or a travel
 * location. `reason` is required (400 naming `reason`) when the change touches
 * a record that has alarms; `password` and `meaning` are required (400 naming
 * `password`) when the change closes an alarm: the change is then signed like
 * an acknowledgement.
 */
export const changeReasonShape = {
  reason: z
    .string()
    .trim()
    .min(1, 'A reason for change is required')
    .max(CHANGE_REASON_MAX_LENGTH, `must be at most ${CHANGE_REASON_MAX_LENGTH} characters`)
    .optional()
    .meta({
      description: 'Reason for change: required when the change touches a record that has alarms',
    }),
  password: z
    .string()
    .min(1, 'Enter your password to sign')
    .max(
      SIGNATURE_PASSWORD_MAX_LENGTH,
      `must be at most ${SIGNATURE_PASSWORD_MAX_LENGTH} characters`,
    )
    .optional()
    .meta({
      description: "The signer's password, entered again: required when the change closes an alarm",
    }),
  meaning: ZSignatureMeaning.optional().meta({
    description: 'What the signature means: required with password',
  }),
  ...secondFactorCodeShape,
};

/**
 * An electronic signature on an alarm: its acknowledgement, or a change that
 * closed it. Printed name at the time, user id, time (UTC, server clock),
 * meaning and comment (the acknowledgement's comment or the reason for
 * change). Never changed.
 */
export const ZAlarmSignature = z
  .object({
    user_id: z.string(),
    printed_name: z.string(),
    signed_at: z.string(),
    meaning: ZSignatureMeaning,
    comment: z.string(),
    client_type: ZClientType,
    purpose: ZSignaturePurpose.optional(),
    second_factor: ZSecondFactorKind.nullable()
      .optional()
      .describe('The second factor given with the password (null: the password alone)'),
  })
  .meta({ id: 'AlarmSignature' });
export type TAlarmSignature = z.infer<typeof ZAlarmSignature>;

/**
 * "Excursion alarm: id, record_id, tag_id (number), created, tag_serial_number,
 * above_or_below (ABOVE or BELOW), first_point_idx, last_point_idx,
 * degree_minutes, start_time, end_time, duration, high_threshold, low_threshold,
 * highest_recorded_temperature, lowest_recorded_temperature. Alarms also carry
 * acknowledged and dismissed flags." No field is listed as required.
 */
export const ZExcursionAlarm = z
  .object({
    id: z.string().optional(),
    record_id: z.string().optional(),
    tag_id: z.number().int().optional(),
    created: z.string().optional(),
    tag_serial_number: z.string().optional(),
    above_or_below: ZAboveOrBelow.optional(),
    first_point_idx: z.number().int().optional(),
    last_point_idx: z.number().int().optional(),
    degree_minutes: z.number().optional(),
    start_time: z.string().nullable().optional(),
    end_time: z.string().nullable().optional(),
    /** Seconds, for every kind (domain rules §2; issue 35: the budget's too). */
    duration: z
      .number()
      .optional()
      .describe(
        'Seconds, for every kind. excursion: the points of the run times the interval; ' +
          'cumulative: the points beyond the threshold times the interval; no_data: the ' +
          "silence when raised; budget: the time spent beyond the band across the shipment's " +
          'legs when raised (the minutes consumed times 60, rounded to the second).',
      ),
    high_threshold: z.number().nullable().optional(),
    low_threshold: z.number().nullable().optional(),
    highest_recorded_temperature: z.number().nullable().optional(),
    lowest_recorded_temperature: z.number().nullable().optional(),
    acknowledged: z.boolean().optional(),
    dismissed: z.boolean().optional(),
    /** `excursion` (consecutive points) or `cumulative` (total time beyond a cumulative threshold), domain rules §2. */
    kind: ZAlarmKind.optional(),
    /** OPEN or CLOSED (docs/decisions/alarm-lifecycle.md). */
    state: ZAlarmState.optional(),
    /** Same as `state` CLOSED (kept for earlier clients). */
    resolved: z.boolean().optional(),
    /** When the alarm closed (UTC), who caused it (username; null: the system), why. Closed alarms only. */
    closed_at: z.string().nullable().optional(),
    closed_by: z.string().nullable().optional(),
    close_cause: ZAlarmCloseCause.nullable().optional(),
    /** The reason for change given with the change that closed it (or the system's explanation). */
    close_reason: z.string().nullable().optional(),
    /** The signature of the change that closed it, when a person's change did. */
    close_signature: ZAlarmSignature.optional(),
    /**
     * The alarm that absorbed this one (close cause MERGED: a late upload joined its run
     * to a longer one); absent otherwise. A superseded alarm needs no signature of its own:
     * acknowledging the alarm that absorbed it acknowledges it too.
     */
    superseded_by: z.string().nullable().optional(),
    /** no_data alarms: the interval (seconds) the record was expected to send at; absent otherwise. */
    expected_interval: z.number().nullable().optional(),
    /**
     * Who acknowledged the alarm (username), when (UTC, server time), with
     * which comment and from which client. Present on acknowledged alarms only.
     */
    acknowledged_by: z.string().nullable().optional(),
    acknowledged_at: z.string().nullable().optional(),
    acknowledge_comment: z.string().nullable().optional(),
    acknowledge_client_type: ZClientType.nullable().optional(),
    /** Who dismissed the alarm (username), when (UTC) and why. Present on dismissed alarms only. */
    dismissed_by: z.string().nullable().optional(),
    dismissed_at: z.string().nullable().optional(),
    dismiss_reason: z.string().nullable().optional(),
    /** The electronic signature of the acknowledgement (ours). Present on signed alarms only. */
    signature: ZAlarmSignature.optional(),
  })
  .meta({ id: 'ExcursionAlarm' });
export type TExcursionAlarm = z.infer<typeof ZExcursionAlarm>;

/**
 * "A notification is an alarm-type item carrying record_id." The bell's items
 * (GET /api/devices/xt1/notifications/): the alarm fields, record_id included,
 * and (ours, issue 14) when the alarm happened and the shipment's reference.
 */
export const ZNotification = ZExcursionAlarm.extend({
  /** When the alarm happened (UTC): its first point's time, else when it was raised. The bell's order, newest first. */
  occurred_at: z.string().optional(),
  /** The shipment's primary reference, null when it has none. */
  primary_reference: z.string().nullable().optional(),
  /** What the bell names the shipment by: the primary reference, else the record id. */
  reference: z.string().optional(),
}).meta({ id: 'Notification' });
export type TNotification = z.infer<typeof ZNotification>;

/**
 * "Acknowledgement request: record_ids, alarm_ids, comment, timestamp,
 * client_type. comment and client_type are required."
 */
export const ZAcknowledgementRequest = z
  .object({
    record_ids: z.array(z.string()).optional(),
    alarm_ids: z.array(z.string()).optional(),
    comment: z.string(),
    timestamp: z.string().optional(),
    client_type: ZClientType,
  })
  .meta({ id: 'AcknowledgementRequest' });
export type TAcknowledgementRequest = z.infer<typeof ZAcknowledgementRequest>;

/** "A variant without comment exists." client_type stays required. */
export const ZAcknowledgementRequestWithoutComment = ZAcknowledgementRequest.omit({
  comment: true,
}).meta({ id: 'AcknowledgementRequestWithoutComment' });
export type TAcknowledgementRequestWithoutComment = z.infer<
  typeof ZAcknowledgementRequestWithoutComment
>;

/**
 * "Alarm dismissal upload: client_type (WEB), record_ids." alarm_ids (ours)
 * names single alarms; without it every alarm of the records is dismissed.
 */
export const ZAlarmDismissal = z
  .object({
    client_type: ZClientType.optional(),
    record_ids: z.array(z.string()).optional(),
    alarm_ids: z.array(z.string()).optional(),
  })
  .meta({ id: 'AlarmDismissal' });
export type TAlarmDismissal = z.infer<typeof ZAlarmDismissal>;

/**
 * "Alarm recipients: record_id, alarm_recipients (list of strings)." Both the
 * recipients upload (POST alarm-recipients/) and its reply.
 */
export const ZAlarmRecipients = z
  .object({
    record_id: z.string().optional(),
    alarm_recipients: z.array(z.string()).optional(),
  })
  .meta({ id: 'AlarmRecipients' });
export type TAlarmRecipients = z.infer<typeof ZAlarmRecipients>;
