import { z } from 'zod';
import { ZAboveOrBelow, ZClientType } from '../enums';

/**
 * Excursion alarms, notifications, acknowledgement and dismissal of spec
 * section 3 ("Records, scans, alarms and tags").
 */

/** Kind of an alarm (domain rules §2: "A cumulative alarm is an alarm with a kind that says so"). */
export const ALARM_KINDS = ['excursion', 'cumulative'] as const;
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
 * The electronic signature of an alarm's acknowledgement: printed name at
 * the time, user id, time (UTC, server clock), meaning and comment. One per
 * alarm, never changed.
 */
export const ZAlarmSignature = z
  .object({
    user_id: z.string(),
    printed_name: z.string(),
    signed_at: z.string(),
    meaning: ZSignatureMeaning,
    comment: z.string(),
    client_type: ZClientType,
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
    /** Seconds: number of points in the run times the interval (domain rules §2). */
    duration: z.number().optional(),
    high_threshold: z.number().nullable().optional(),
    low_threshold: z.number().nullable().optional(),
    highest_recorded_temperature: z.number().nullable().optional(),
    lowest_recorded_temperature: z.number().nullable().optional(),
    acknowledged: z.boolean().optional(),
    dismissed: z.boolean().optional(),
    /** `excursion` (consecutive points) or `cumulative` (total time beyond a cumulative threshold), domain rules §2. */
    kind: ZAlarmKind.optional(),
    /** A re-evaluation (threshold or trip edit) no longer finds it; kept with its acknowledgement. */
    resolved: z.boolean().optional(),
    /**
     * Who acknowledged the alarm (username), when (UTC, server time), with
     * which comment and from which client. Present on acknowledged alarms only.
     */
    acknowledged_by: z.string().nullable().optional(),
    acknowledged_at: z.string().nullable().optional(),
    acknowledge_comment: z.string().nullable().optional(),
    acknowledge_client_type: ZClientType.nullable().optional(),
    /** Who dismissed the alarm (username) and when (UTC). Present on dismissed alarms only. */
    dismissed_by: z.string().nullable().optional(),
    dismissed_at: z.string().nullable().optional(),
    /** The electronic signature of the acknowledgement (ours). Present on signed alarms only. */
    signature: ZAlarmSignature.optional(),
  })
  .meta({ id: 'ExcursionAlarm' });
export type TExcursionAlarm = z.infer<typeof ZExcursionAlarm>;

/**
 * "A notification is an alarm-type item carrying record_id." The bell's items
 * (GET /api/devices/xt1/notifications/): the alarm fields, record_id included.
 */
export const ZNotification = ZExcursionAlarm.extend({}).meta({ id: 'Notification' });
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
