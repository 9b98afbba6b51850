import { z } from 'zod';
import { ZDegreesUnit, ZNotificationStatus, ZNotificationType } from '../enums';
import { customTemplateFields } from './common';

/**
 * The types of a product / carrier notification setting: the spec's three
 * events, and Summary (ours, issue 15: a daily or weekly summary of the
 * period's shipments per lane and carrier; docs/decisions/scheduled-reports.md).
 */
export const NOTIFICATION_SETTING_TYPES = ['Departure', 'Alarm', 'Arrival', 'Summary'] as const;
export const ZNotificationSettingType = z.enum(NOTIFICATION_SETTING_TYPES);
export type TNotificationSettingType = z.infer<typeof ZNotificationSettingType>;
/** How often a Summary setting sends: each day (the day before) or each week (the ISO week before). */
export const SUMMARY_SCHEDULES = ['DAILY', 'WEEKLY'] as const;
export const ZSummarySchedule = z.enum(SUMMARY_SCHEDULES);
export type TSummarySchedule = z.infer<typeof ZSummarySchedule>;

/**
 * E-mail and SMS notification settings and their log (spec section 3,
 * "Products, carriers, locations and notification rules"). Notification type:
 * Departure, Alarm, Arrival. Notification status: Enabled, Disabled, Test.
 * `organization` is the owning organization's id.
 */

/** to_list, cc_list, bcc_list (e-mail addresses) and sms_list (phone numbers). */
const recipientListFields = {
  to_list: z.array(z.string()).optional(),
  cc_list: z.array(z.string()).optional(),
  bcc_list: z.array(z.string()).optional(),
  sms_list: z.array(z.string()).optional(),
};

/**
 * "Product/carrier notification setting: id, created, product_name,
 * carrier_name, notification_type, status, to_list, cc_list, bcc_list,
 * sms_list, comment, custom_template_email, custom_template_subject,
 * custom_template_sms, custom_template_attachment, organization, origin,
 * destination. notification_type and status are required." origin and
 * destination are travel-location ids.
 */
export const ZNotificationSetting = z
  .object({
    id: z.string().optional(),
    created: z.string().optional(),
    product_name: z.string().nullable().optional(),
    carrier_name: z.string().nullable().optional(),
    notification_type: ZNotificationSettingType,
    status: ZNotificationStatus,
    ...recipientListFields,
    comment: z.string().nullable().optional(),
    ...customTemplateFields,
    organization: z.string().optional(),
    /** Summary settings (ours, issue 15): DAILY or WEEKLY; null for the other types. */
    schedule: ZSummarySchedule.nullable().optional(),
    origin: z.string().nullable().optional(),
    destination: z.string().nullable().optional(),
    /** Escalation (ours, issue 14; docs/decisions/escalation.md). */
    remind_after_minutes: z.number().int().nullable().optional(),
    escalate_after_minutes: z.number().int().nullable().optional(),
    escalation_emails: z.array(z.string()).optional(),
  })
  .meta({ id: 'NotificationSetting' });
export type TNotificationSetting = z.infer<typeof ZNotificationSetting>;

/**
 * "Personal notification setting: id, created, notification_type, latest_match,
 * degrees_unit, locale_name, timezone_override, custom templates,
 * organization."
 */
export const ZPersonalNotificationSetting = z
  .object({
    id: z.string().optional(),
    created: z.string().optional(),
    notification_type: ZNotificationType.optional(),
    latest_match: z.string().nullable().optional(),
    degrees_unit: ZDegreesUnit.optional(),
    locale_name: z.string().nullable().optional(),
    timezone_override: z.string().nullable().optional(),
    ...customTemplateFields,
    organization: z.string().optional(),
  })
  .meta({ id: 'PersonalNotificationSetting' });
export type TPersonalNotificationSetting = z.infer<typeof ZPersonalNotificationSetting>;

/**
 * "Notification log entry: id, created, notification_type, timestamp,
 * destination, to_list, cc_list, bcc_list, sms_list, comment, serial_number,
 * custom templates, organization, record. id, created and notification_type are
 * required." record is the record's id.
 */
export const ZNotificationLogEntry = z
  .object({
    id: z.string(),
    created: z.string(),
    notification_type: ZNotificationSettingType,
    timestamp: z.string().optional(),
    destination: z.string().nullable().optional(),
    ...recipientListFields,
    comment: z.string().nullable().optional(),
    serial_number: z.string().nullable().optional(),
    ...customTemplateFields,
    organization: z.string().optional(),
    record: z.string().nullable().optional(),
    /** A reminder or escalation (ours, issue 14): its alarm and step; null for the first e-mail. */
    alarm: z.string().nullable().optional(),
    step: z.enum(['reminder', 'escalation']).nullable().optional(),
    /** A summary (ours, issue 15): the period it covers, e.g. 2026-11-23 or 2026-W47; null otherwise. */
    period: z.string().nullable().optional(),
  })
  .meta({ id: 'NotificationLogEntry' });
export type TNotificationLogEntry = z.infer<typeof ZNotificationLogEntry>;
