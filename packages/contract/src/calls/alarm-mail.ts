import { z } from 'zod';
import { zRowId } from '../ids';
import { defineCall } from '../call';
import { ZAlarmRecipients } from '../entities/alarms';
import {
  ZNotificationLogEntry,
  ZNotificationSetting,
  ZNotificationSettingType,
  ZSummarySchedule,
} from '../entities/notification-settings';
import { ZNotificationRule } from '../entities/rules';
import { ZFunctionOperator, ZNotificationStatus, ZRuleCombinator, ZUnaryOperator } from '../enums';
import type { TPermissionName } from '../permissions';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_NUMBER, MAX_PAGE_SIZE, zQueryInt } from './devices-query';

/**
 * E-mail notifications (issue 6 item 4): the record's alarm recipients
 * (spec: POST /api/devices/xt1/alarm-recipients/), and, under
 * /api/notifications/ (paths ours: the spec shows the entities, not the
 * calls), the product / carrier notification settings, the notification
 * rules and the notification log. Everything works in the session's
 * organization; another organization's ids answer 404.
 * Decisions: docs/decisions/alarm-mail.md.
 */

/** Most addresses in one list (to, cc, bcc, alarm recipients). */
export const MAX_NOTIFICATION_ADDRESSES = 100;
/** Longest custom subject template. */
export const NOTIFICATION_SUBJECT_MAX_LENGTH = 300;
/** Longest custom e-mail body template, comment, or SMS template. */
export const NOTIFICATION_TEMPLATE_MAX_LENGTH = 10_000;
/** Longest e-mail address (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;
/** Most unary rules in a rule group, and most users a rule notifies. */
export const MAX_RULE_CHILDREN = 50;
/** Longest rule name. */
export const RULE_NAME_MAX_LENGTH = 200;

/**
 * Record fields a notification rule may test (spec spelling). Locations are
 * the travel-location ids of shipper and receiver.
 */
export const RULE_FIELDS = [
  'product_designation',
  'carrier',
  'program_name',
  'primary_reference',
  'secondary_reference',
  'shipping_reference',
  'po_number',
  'tag_serial_number',
  'tag_type',
  'shipper_name_address',
  'receiver_name_address',
  'status',
  'trip_status',
  'high_threshold',
  'low_threshold',
] as const;
export const ZRuleField = z.enum(RULE_FIELDS);
export type TRuleField = z.infer<typeof ZRuleField>;

/**
 * Placeholders the custom subject and body templates may use; each is
 * replaced by the record's value (temperatures in °C, one decimal; times in
 * UTC; {alarms} lists the alarms of the event). Any other `{word}` stays as
 * written.
 */
export const NOTIFICATION_PLACEHOLDERS = [
  'record_id',
  'serial_number',
  'product',
  'carrier',
  'primary_reference',
  'shipping_reference',
  'po_number',
  'origin',
  'destination',
  'notification_type',
  'highest',
  'lowest',
  'threshold',
  'high_threshold',
  'low_threshold',
  'trip_status',
  'time',
  'alarms',
  'link',
] as const;

/** Who reads notification settings, rules and the log: whoever views rules or edits configuration. */
export const NOTIFICATION_READ_PERMISSIONS = [
  'rulesView',
  'rulesEdit',
  'sysConfigEdit',
  'sysAdminUser',
] as const satisfies readonly TPermissionName[];
/** Who deletes notification settings (Managers have rulesEdit but not sysConfigDelete). */
export const NOTIFICATION_DELETE_PERMISSIONS = [
  'sysConfigDelete',
  'rulesEdit',
] as const satisfies readonly TPermissionName[];
/** Who sets a record's alarm recipients: who acknowledges its alarms. */
export const ALARM_RECIPIENTS_PERMISSIONS = [
  'sysReportCreate',
  'sysReportEdit',
] as const satisfies readonly TPermissionName[];

const zEmail = z
  .string()
  .trim()
  .max(EMAIL_MAX_LENGTH)
  .pipe(z.email({ message: 'must be an e-mail address' }));
const zEmails = z
  .array(zEmail)
  .max(MAX_NOTIFICATION_ADDRESSES, `must list at most ${MAX_NOTIFICATION_ADDRESSES} addresses`);
const zId = zRowId();
const zOptionalText = (max: number) => z.string().max(max).nullable().optional();
/** Escalation delays (issue 14): whole minutes, at most a week. */
export const MAX_ESCALATION_MINUTES = 7 * 24 * 60;
const zEscalationMinutes = z
  .number()
  .int('must be a whole number of minutes')
  .min(1, 'must be at least 1 minute')
  .max(MAX_ESCALATION_MINUTES, `must be at most ${MAX_ESCALATION_MINUTES} minutes (a week)`)
  .nullable()
  .optional();

// ---------------------------------------------------------------- alarm recipients

/**
 * Body of POST alarm-recipients/: the spec's "Alarm recipients" with both
 * fields required; the list replaces the record's (an empty list clears it).
 * Addresses are trimmed; repeats (ignoring case) are dropped.
 */
export const ZAlarmRecipientsUpload = z
  .object({
    record_id: zId,
    alarm_recipients: zEmails,
  })
  .meta({ id: 'AlarmRecipientsUpload' });
export type TAlarmRecipientsUpload = z.infer<typeof ZAlarmRecipientsUpload>;

export const xt1AlarmRecipients = defineCall({
  operationId: 'xt1AlarmRecipients',
  method: 'POST',
  path: '/api/devices/xt1/alarm-recipients/',
  summary: "Replace a record's alarm recipients (e-mail addresses); answers the stored list",
  description:
    'Every alarm of the record is e-mailed to these addresses (once per person and alarm, ' +
    `whatever other setting also names them). The change is audited. Needs ${ALARM_RECIPIENTS_PERMISSIONS.join(' or ')}.`,
  tag: 'xt1',
  auth: 'session',
  scope: 'organization',
  permission: ALARM_RECIPIENTS_PERMISSIONS,
  body: ZAlarmRecipientsUpload,
  reply: ZAlarmRecipients,
});

// ---------------------------------------------------------------- settings

const settingFields = {
  product_name: zOptionalText(200).describe(
    'Product designation the record must have (ignoring case); empty or null: any product',
  ),
  carrier_name: zOptionalText(200).describe(
    'Carrier the record must have (ignoring case); empty or null: any carrier',
  ),
  notification_type: ZNotificationSettingType.describe(
    'Departure, Alarm or Arrival: an e-mail per event; Summary: a daily or weekly summary (schedule)',
  ),
  schedule: ZSummarySchedule.nullable()
    .optional()
    .describe(
      'Summary settings only, and required for them: DAILY (the day before, sent after 06:00) or ' +
        "WEEKLY (the ISO week before, sent Mondays after 06:00), in the setting owner's time zone",
    ),
  status: ZNotificationStatus.describe(
    'Enabled sends; Disabled sends nothing; Test writes the log entry and sends nothing',
  ),
  to_list: zEmails.optional(),
  cc_list: zEmails.optional(),
  bcc_list: zEmails.optional(),
  sms_list: z
    .array(z.string().trim().max(32))
    .max(MAX_NOTIFICATION_ADDRESSES)
    .optional()
    .describe('Stored, not used: SMS is not sent'),
  comment: zOptionalText(NOTIFICATION_TEMPLATE_MAX_LENGTH),
  custom_template_email: zOptionalText(NOTIFICATION_TEMPLATE_MAX_LENGTH).describe(
    `Body template; placeholders {${NOTIFICATION_PLACEHOLDERS.join('}, {')}}`,
  ),
  custom_template_subject: zOptionalText(NOTIFICATION_SUBJECT_MAX_LENGTH).describe(
    'Subject template (same placeholders; line breaks become spaces)',
  ),
  custom_template_sms: zOptionalText(NOTIFICATION_TEMPLATE_MAX_LENGTH),
  custom_template_attachment: zOptionalText(200),
  origin: zId.nullable().optional().describe('Shipper travel-location id the record must have'),
  destination: zId
    .nullable()
    .optional()
    .describe('Receiver travel-location id the record must have'),
  remind_after_minutes: zEscalationMinutes.describe(
    'Alarm settings: minutes after the alarm e-mail before its recipients are reminded while the ' +
      'alarm is unacknowledged (1 to 10080); null: no reminder',
  ),
  escalate_after_minutes: zEscalationMinutes.describe(
    'Alarm settings: minutes after the alarm e-mail before escalation_emails are told while the ' +
      'alarm is unacknowledged (1 to 10080, after remind_after_minutes); null: no escalation',
  ),
  escalation_emails: zEmails
    .optional()
    .describe('Who is told at escalate_after_minutes (required with it)'),
};

/** Body of POST /api/notifications/settings/. */
export const ZNotificationSettingCreate = z.object(settingFields).meta({
  id: 'NotificationSettingCreate',
});
export type TNotificationSettingCreate = z.infer<typeof ZNotificationSettingCreate>;

/** Body of PATCH /api/notifications/settings/: any subset; null clears an optional field. */
export const ZNotificationSettingUpdate = ZNotificationSettingCreate.partial().meta({
  id: 'NotificationSettingUpdate',
});
export type TNotificationSettingUpdate = z.infer<typeof ZNotificationSettingUpdate>;

export const ZNotificationSettingIdQuery = z.object({
  setting_id: zId.describe('Id of the notification setting'),
});

const NOTIFICATIONS = '/api/notifications/';

export const notificationSettingsList = defineCall({
  operationId: 'notificationSettingsList',
  method: 'GET',
  path: `${NOTIFICATIONS}settings/`,
  summary: "The organization's product / carrier notification settings, oldest first",
  tag: 'notifications',
  auth: 'session',
  scope: 'organization',
  permission: NOTIFICATION_READ_PERMISSIONS,
  reply: z.array(ZNotificationSetting),
});

export const notificationSettingsCreate = defineCall({
  operationId: 'notificationSettingsCreate',
  method: 'POST',
  path: `${NOTIFICATIONS}settings/`,
  summary: 'Create a notification setting (audited)',
  tag: 'notifications',
  auth: 'session',
  scope: 'organization',
  permission: 'sysConfigCreate',
  body: ZNotificationSettingCreate,
  reply: ZNotificationSetting,
});

export const notificationSettingsUpdate = defineCall({
  operationId: 'notificationSettingsUpdate',
  method: 'PATCH',
  path: `${NOTIFICATIONS}settings/`,
  summary: 'Edit a notification setting (query setting_id; audited)',
  tag: 'notifications',
  auth: 'session',
  scope: 'organization',
  permission: 'sysConfigEdit',
  query: ZNotificationSettingIdQuery,
  body: ZNotificationSettingUpdate,
  reply: ZNotificationSetting,
});

export const notificationSettingsDelete = defineCall({
  operationId: 'notificationSettingsDelete',
  method: 'DELETE',
  path: `${NOTIFICATIONS}settings/`,
  summary: 'Delete a notification setting (query setting_id; audited); 204',
  tag: 'notifications',
  auth: 'session',
  scope: 'organization',
  permission: NOTIFICATION_DELETE_PERMISSIONS,
  query: ZNotificationSettingIdQuery,
  reply: null,
});

// ---------------------------------------------------------------- rules

const ZRuleScalarInput = z.union([z.string().max(200), z.number(), z.boolean()]);

/** A unary rule as uploaded: field and operator checked (EQUALS needs a value, ANY_OF a list). */
const ZUnaryRuleInput = z
  .object({
    id: z.string().optional(),
    operator: ZUnaryOperator.default('IS'),
    function: z.object({
      id: z.string().optional(),
      field: ZRuleField.optional(),
      function_operator: ZFunctionOperator,
      value: z
        .union([ZRuleScalarInput, z.array(ZRuleScalarInput).max(MAX_RULE_CHILDREN)])
        .nullable()
        .optional(),
    }),
  })
  .superRefine((rule, ctx) => {
    const fn = rule.function;
    if (fn.function_operator === 'ALWAYS_TRUE') return;
    if (fn.field === undefined) {
      ctx.addIssue({ code: 'custom', path: ['function', 'field'], message: 'a field is required' });
    }
    if (fn.function_operator === 'EQUALS' && (fn.value == null || Array.isArray(fn.value))) {
      ctx.addIssue({
        code: 'custom',
        path: ['function', 'value'],
        message: 'EQUALS needs one value',
      });
    }
    if (fn.function_operator === 'ANY_OF' && !Array.isArray(fn.value)) {
      ctx.addIssue({
        code: 'custom',
        path: ['function', 'value'],
        message: 'ANY_OF needs a list of values',
      });
    }
  });

/** Body of POST /api/notifications/rules/ (spec's Notification rule; users are user ids). */
export const ZNotificationRuleCreate = z
  .object({
    name: z.string().trim().min(1).max(RULE_NAME_MAX_LENGTH),
    users: z
      .array(z.uuid({ message: 'must be a user id' }))
      .min(1, 'must name at least one user')
      .max(MAX_RULE_CHILDREN),
    root_rule: z.object({
      id: z.string().optional(),
      operator: ZRuleCombinator.default('AND'),
      unary_children: z.array(ZUnaryRuleInput).max(MAX_RULE_CHILDREN).default([]),
    }),
  })
  .meta({ id: 'NotificationRuleCreate' });
export type TNotificationRuleCreate = z.infer<typeof ZNotificationRuleCreate>;

export const ZNotificationRuleUpdate = ZNotificationRuleCreate.partial().meta({
  id: 'NotificationRuleUpdate',
});
export type TNotificationRuleUpdate = z.infer<typeof ZNotificationRuleUpdate>;

export const ZNotificationRuleIdQuery = z.object({
  rule_id: zId.describe('Id of the notification rule'),
});

export const notificationRulesList = defineCall({
  operationId: 'notificationRulesList',
  method: 'GET',
  path: `${NOTIFICATIONS}rules/`,
  summary: "The organization's notification rules, by name",
  tag: 'notifications',
  auth: 'session',
  scope: 'organization',
  permission: NOTIFICATION_READ_PERMISSIONS,
  reply: z.array(ZNotificationRule),
});

export const notificationRulesCreate = defineCall({
  operationId: 'notificationRulesCreate',
  method: 'POST',
  path: `${NOTIFICATIONS}rules/`,
  summary: 'Create a notification rule (users must be members of the organization; audited)',
  tag: 'notifications',
  auth: 'session',
  scope: 'organization',
  permission: 'rulesEdit',
  body: ZNotificationRuleCreate,
  reply: ZNotificationRule,
});

export const notificationRulesUpdate = defineCall({
  operationId: 'notificationRulesUpdate',
  method: 'PATCH',
  path: `${NOTIFICATIONS}rules/`,
  summary: 'Edit a notification rule (query rule_id; audited)',
  tag: 'notifications',
  auth: 'session',
  scope: 'organization',
  permission: 'rulesEdit',
  query: ZNotificationRuleIdQuery,
  body: ZNotificationRuleUpdate,
  reply: ZNotificationRule,
});

export const notificationRulesDelete = defineCall({
  operationId: 'notificationRulesDelete',
  method: 'DELETE',
  path: `${NOTIFICATIONS}rules/`,
  summary: 'Delete a notification rule (query rule_id; audited); 204',
  tag: 'notifications',
  auth: 'session',
  scope: 'organization',
  permission: 'rulesEdit',
  query: ZNotificationRuleIdQuery,
  reply: null,
});

// ---------------------------------------------------------------- log

export const ZNotificationLogQuery = z.object({
  page_number: zQueryInt(1, MAX_PAGE_NUMBER)
    .optional()
    .meta({ description: '1-based page number (default 1)' }),
  page_size: zQueryInt(1, MAX_PAGE_SIZE)
    .optional()
    .meta({ description: `Rows per page, 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})` }),
  record_id: zId.optional().describe('Only the entries of this record'),
});

export const notificationLogList = defineCall({
  operationId: 'notificationLogList',
  method: 'GET',
  path: `${NOTIFICATIONS}log/`,
  summary: 'The notification log, newest first',
  description:
    'One entry per e-mail written (Test settings: one entry, nothing sent). Paged: page_number ' +
    'is 1-based; the total is in the x-total-count header.',
  tag: 'notifications',
  auth: 'session',
  scope: 'organization',
  permission: NOTIFICATION_READ_PERMISSIONS,
  query: ZNotificationLogQuery,
  reply: z.array(ZNotificationLogEntry),
});

export const alarmMailCalls = [
  xt1AlarmRecipients,
  notificationSettingsList,
  notificationSettingsCreate,
  notificationSettingsUpdate,
  notificationSettingsDelete,
  notificationRulesList,
  notificationRulesCreate,
  notificationRulesUpdate,
  notificationRulesDelete,
  notificationLogList,
] as const;
