import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TRuleGroup } from '@coldtrace/contract';
import { users } from './schema';
import { alarms, records, travelLocations } from './schema-shipments';
import { orgRef, timestamptz } from './columns';

/**
 * E-mail notifications (issue 6 item 4, docs/decisions/alarm-mail.md): the
 * product / carrier notification settings, the notification rules, the
 * notification events (an alarm raised, a departure, an arrival: the
 * worker's "done" mark), the alarms already e-mailed (so two paths announcing
 * one alarm still send one e-mail), and the notification log.
 */

const textList = (name: string) =>
  text(name)
    .array()
    .notNull()
    .default(sql`'{}'::text[]`);

/** Product / carrier notification setting (spec section 3). */
export const notificationSettings = pgTable(
  'notification_settings',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: orgRef(),
    created: timestamptz('created').notNull().defaultNow(),
    createdByUserId: uuid('created_by_user_id').references(() => users.id, {
      onDelete: 'set null',
    }),
    /** Null: any product. Matched against the record's product_designation ignoring case. */
    productName: text('product_name'),
    /** Null: any carrier. */
    carrierName: text('carrier_name'),
    /** Summary (issue 15, docs/decisions/scheduled-reports.md): a daily or weekly summary. */
    notificationType: text('notification_type', {
      enum: ['Departure', 'Alarm', 'Arrival', 'Summary'],
    }).notNull(),
    status: text('status', { enum: ['Enabled', 'Disabled', 'Test'] }).notNull(),
    /** Summary settings: DAILY or WEEKLY; null for the other types. */
    schedule: text('schedule', { enum: ['DAILY', 'WEEKLY'] }),
    toList: textList('to_list'),
    ccList: textList('cc_list'),
    bccList: textList('bcc_list'),
    smsList: textList('sms_list'),
    comment: text('comment'),
    customTemplateEmail: text('custom_template_email'),
    customTemplateSubject: text('custom_template_subject'),
    customTemplateSms: text('custom_template_sms'),
    customTemplateAttachment: text('custom_template_attachment'),
    originLocationId: bigint('origin_location_id', { mode: 'number' }).references(
      () => travelLocations.id,
      { onDelete: 'set null' },
    ),
    destinationLocationId: bigint('destination_location_id', { mode: 'number' }).references(
      () => travelLocations.id,
      { onDelete: 'set null' },
    ),
    /**
     * Escalation (issue 14, docs/decisions/escalation.md), Alarm settings only:
     * minutes after an alarm's e-mail before its recipients are reminded while
     * it is unacknowledged; null: no reminder.
     */
    remindAfterMinutes: integer('remind_after_minutes'),
    /** Minutes after an alarm's e-mail before `escalation_emails` are told; null: no escalation. */
    escalateAfterMinutes: integer('escalate_after_minutes'),
    escalationEmails: textList('escalation_emails'),
  },
  (t) => [index('notification_settings_org_type_idx').on(t.organizationId, t.notificationType)],
);

/** Notification rule (spec section 3, "Rule engine"): a rule group and the users it notifies. */
export const notificationRules = pgTable(
  'notification_rules',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: orgRef(),
    created: timestamptz('created').notNull().defaultNow(),
    name: text('name').notNull(),
    userIds: uuid('user_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    rootRule: jsonb('root_rule').$type<TRuleGroup>().notNull(),
  },
  (t) => [index('notification_rules_org_idx').on(t.organizationId)],
);

/**
 * A notification event: alarms raised on a record, or its departure or
 * arrival. `event_key` identifies it (a second announcement of the same event
 * does nothing); `processed_at` is set in the transaction that writes its
 * e-mails, so a re-run job sends nothing new.
 */
export const alarmMailEvents = pgTable(
  'alarm_mail_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: orgRef(),
    recordId: bigint('record_id', { mode: 'number' })
      .notNull()
      .references(() => records.id, { onDelete: 'cascade' }),
    notificationType: text('notification_type', {
      enum: ['Departure', 'Alarm', 'Arrival'],
    }).notNull(),
    eventKey: text('event_key').notNull(),
    /** When it happened (alarm creation, trip begin or end time). */
    occurredAt: timestamptz('occurred_at').notNull(),
    alarmIds: bigint('alarm_ids', { mode: 'number' })
      .array()
      .notNull()
      .default(sql`'{}'::bigint[]`),
    created: timestamptz('created').notNull().defaultNow(),
    processedAt: timestamptz('processed_at'),
  },
  (t) => [
    uniqueIndex('alarm_mail_events_key').on(t.organizationId, t.eventKey),
    index('alarm_mail_events_pending_idx')
      .on(t.created)
      .where(sql`${t.processedAt} IS NULL`),
  ],
);

/** Alarms already announced by e-mail: each alarm is e-mailed by one event only. */
export const alarmMailEventAlarms = pgTable('alarm_mail_event_alarms', {
  alarmId: bigint('alarm_id', { mode: 'number' })
    .primaryKey()
    .references(() => alarms.id, { onDelete: 'cascade' }),
  eventId: bigint('event_id', { mode: 'number' })
    .notNull()
    .references(() => alarmMailEvents.id, { onDelete: 'cascade' }),
});

/**
 * Notification log entry (spec section 3): one per e-mail written (a Test
 * setting writes its entry and sends nothing). `message_key` names the e-mail
 * within its event (a setting, or one person), unique per event.
 */
export const notificationLog = pgTable(
  'notification_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: orgRef(),
    created: timestamptz('created').notNull().defaultNow(),
    notificationType: text('notification_type', {
      enum: ['Departure', 'Alarm', 'Arrival', 'Summary'],
    }).notNull(),
    /** When the event happened (a summary: the start of its period). */
    timestamp: timestamptz('timestamp').notNull(),
    /** The receiver (destination) location's name of the record, when it has one. */
    destination: text('destination'),
    toList: textList('to_list'),
    ccList: textList('cc_list'),
    bccList: textList('bcc_list'),
    smsList: textList('sms_list'),
    /** Why these people: the sources, and "Test: not sent" for a Test setting. */
    comment: text('comment'),
    serialNumber: text('serial_number'),
    /** The body and subject as written. */
    customTemplateEmail: text('custom_template_email'),
    customTemplateSubject: text('custom_template_subject'),
    customTemplateSms: text('custom_template_sms'),
    customTemplateAttachment: text('custom_template_attachment'),
    recordId: bigint('record_id', { mode: 'number' }).references(() => records.id, {
      onDelete: 'set null',
    }),
    /** The event of the e-mail; null for a summary (it has no event: its period is its key). */
    eventId: bigint('event_id', { mode: 'number' }).references(() => alarmMailEvents.id, {
      onDelete: 'cascade',
    }),
    messageKey: text('message_key').notNull(),
    settingId: bigint('setting_id', { mode: 'number' }).references(() => notificationSettings.id, {
      onDelete: 'set null',
    }),
    /** sent: queued in the mail outbox; test: a Test setting, nothing sent. */
    status: text('status', { enum: ['sent', 'test'] }).notNull(),
    /** Escalation (issue 14): the alarm reminded about or escalated, and which step; null otherwise. */
    alarmId: bigint('alarm_id', { mode: 'number' }).references(() => alarms.id, {
      onDelete: 'set null',
    }),
    step: text('step', { enum: ['reminder', 'escalation'] }),
    /** A summary (issue 15): the period it covers (2026-11-23, 2026-W47); null otherwise. */
    period: text('period'),
  },
  (t) => [
    // Each step of each alarm is written once per setting: a job run twice sends once.
    uniqueIndex('notification_log_alarm_step_key')
      .on(t.alarmId, t.settingId, t.step)
      .where(sql`${t.step} IS NOT NULL`),
    uniqueIndex('notification_log_event_message_key').on(t.eventId, t.messageKey),
    // Each period of each summary setting is written once: a job run twice sends once.
    uniqueIndex('notification_log_setting_period_key')
      .on(t.settingId, t.period)
      .where(sql`${t.period} IS NOT NULL`),
    index('notification_log_org_created_idx').on(t.organizationId, t.created),
    index('notification_log_record_idx').on(t.recordId),
  ],
);

export type NotificationSettingRow = typeof notificationSettings.$inferSelect;
export type NotificationRuleRow = typeof notificationRules.$inferSelect;
export type AlarmMailEventRow = typeof alarmMailEvents.$inferSelect;
export type NotificationLogRow = typeof notificationLog.$inferSelect;
