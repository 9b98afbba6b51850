import { bigint, bigserial, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { organizations, users } from './schema';
import { alarms, records } from './schema-shipments';
import { timestamptz } from './columns';

/**
 * In-app notifications (the bell, domain rules section 5) and the electronic
 * signatures of alarm acknowledgements (21 CFR Part 11).
 * Decisions: docs/decisions/notifications.md.
 */

/**
 * One row per user and raised alarm, made by the `alarm.raised` fan-out job.
 * Unique (user, alarm): a job run twice makes no second row. A user's
 * dismissal sets `dismissed_at` (for that user only).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    alarmId: bigint('alarm_id', { mode: 'number' })
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
    recordId: bigint('record_id', { mode: 'number' })
      .notNull()
      .references(() => records.id, { onDelete: 'cascade' }),
    created: timestamptz('created').notNull().defaultNow(),
    dismissedAt: timestamptz('dismissed_at'),
  },
  (t) => [
    uniqueIndex('notifications_user_alarm_key').on(t.userId, t.alarmId),
    index('notifications_user_open_idx').on(t.organizationId, t.userId, t.dismissedAt, t.created),
  ],
);

/**
 * The electronic signature of an alarm acknowledgement: who (user id and the
 * printed name at the time), when (UTC, server time), what it means and the
 * comment. One per alarm (the first acknowledgement stays), append-only
 * (trigger in a custom migration), and the alarm cannot be deleted while it
 * is signed (`restrict`): linked for good.
 */
export const alarmSignatures = pgTable(
  'alarm_signatures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    alarmId: bigint('alarm_id', { mode: 'number' })
      .notNull()
      .references(() => alarms.id, { onDelete: 'restrict' }),
    recordId: bigint('record_id', { mode: 'number' }).notNull(),
    /** By value, not by foreign key: the signature outlives the account. */
    userId: uuid('user_id').notNull(),
    printedName: text('printed_name').notNull(),
    signedAt: timestamptz('signed_at').notNull(),
    /** REVIEWED, APPROVED or REJECTED (contract `SIGNATURE_MEANINGS`). */
    meaning: text('meaning').notNull(),
    comment: text('comment').notNull(),
    clientType: text('client_type').notNull(),
    /** ACKNOWLEDGE (one per alarm) or CLOSE (the signed change that closed it). */
    purpose: text('purpose', { enum: ['ACKNOWLEDGE', 'CLOSE'] })
      .notNull()
      .default('ACKNOWLEDGE'),
    /** The second factor given with the password (issue 37 item 7): totp, recovery_code, or null: none. */
    secondFactor: text('second_factor', { enum: ['totp', 'recovery_code'] }),
  },
  (t) => [
    uniqueIndex('alarm_signatures_alarm_key').on(t.alarmId, t.purpose),
    index('alarm_signatures_record_idx').on(t.organizationId, t.recordId),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;
export type AlarmSignatureRow = typeof alarmSignatures.$inferSelect;
