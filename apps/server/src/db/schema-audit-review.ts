import {
  bigint,
  bigserial,
  index,
  integer,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { organizations } from './schema';
import { timestamptz } from './columns';

/**
 * The audit-trail review (issue 37 item 6; docs/decisions/audit-review.md).
 * Both tables are append-only for the application role (db/roles.ts): a mark
 * or a closure, once written, is never changed or removed. People are kept by
 * value (id and printed name at the time), like the trail.
 */

/** An audit entry marked as reviewed: once per entry, with who, when and a comment. */
export const auditReviewMarks = pgTable(
  'audit_review_marks',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    /** The audit entry (by value: the trail is never deleted). */
    auditEventId: bigint('audit_event_id', { mode: 'number' }).notNull(),
    /** The month the entry belongs to, `2026-11`. */
    period: text('period').notNull(),
    reviewedByUserId: uuid('reviewed_by_user_id').notNull(),
    reviewedByName: text('reviewed_by_name').notNull(),
    reviewedAt: timestamptz('reviewed_at').notNull().defaultNow(),
    comment: text('comment').notNull(),
  },
  (t) => [
    uniqueIndex('audit_review_marks_event_idx').on(t.organizationId, t.auditEventId),
    index('audit_review_marks_period_idx').on(t.organizationId, t.period),
  ],
);

/** A month's review, closed with an electronic signature (meaning REVIEWED). */
export const auditReviewClosures = pgTable(
  'audit_review_closures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    period: text('period').notNull(),
    userId: uuid('user_id').notNull(),
    printedName: text('printed_name').notNull(),
    signedAt: timestamptz('signed_at').notNull().defaultNow(),
    comment: text('comment').notNull(),
    clientType: text('client_type').notNull(),
    /** The second factor given with the password (`totp`, `recovery_code`), or null. */
    secondFactor: text('second_factor'),
    /** What the signer saw: the month's listed entries and how many were marked. */
    entries: integer('entries').notNull(),
    reviewed: integer('reviewed').notNull(),
  },
  (t) => [uniqueIndex('audit_review_closures_period_idx').on(t.organizationId, t.period)],
);
