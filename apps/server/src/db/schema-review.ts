import { bigint, bigserial, index, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './schema';
import { records } from './schema-shipments';
import { timestamptz } from './columns';

/**
 * Release decisions (issue 14 item 2; docs/decisions/disposition.md): one row
 * per signed decision on a record. Append-only (triggers in a custom
 * migration, db/roles.ts APPEND_ONLY_TABLES): a decision is superseded by a
 * later signed one, never edited. The record's disposition is its latest row
 * (highest id: rows are inserted under the record's row lock).
 */

export const recordDispositions = pgTable(
  'record_dispositions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    /** The record cannot be deleted while it carries a decision (`restrict`). */
    recordId: bigint('record_id', { mode: 'number' })
      .notNull()
      .references(() => records.id, { onDelete: 'restrict' }),
    /** RELEASED, QUARANTINED or REJECTED (contract `DISPOSITION_DECISIONS`). */
    decision: text('decision', { enum: ['RELEASED', 'QUARANTINED', 'REJECTED'] }).notNull(),
    comment: text('comment').notNull(),
    /** REVIEWED, APPROVED or REJECTED (contract `SIGNATURE_MEANINGS`). */
    meaning: text('meaning').notNull(),
    /** By value, not by foreign key: the signature outlives the account. */
    userId: uuid('user_id').notNull(),
    printedName: text('printed_name').notNull(),
    signedAt: timestamptz('signed_at').notNull(),
    clientType: text('client_type').notNull(),
    /** Why a release was signed before the trip ended (issue 35); null otherwise. */
    transitReason: text('transit_reason'),
    /** The second factor given with the password (issue 37 item 7): totp, recovery_code, or null: none. */
    secondFactor: text('second_factor', { enum: ['totp', 'recovery_code'] }),
  },
  (t) => [index('record_dispositions_record_idx').on(t.organizationId, t.recordId, t.id)],
);

export type RecordDispositionRow = typeof recordDispositions.$inferSelect;

/**
 * The records of each organization without a release decision (none of its
 * rows in `record_dispositions` in that organization), kept by triggers
 * (migration 0026): a new record is added, a record's first decision takes it
 * out, a record moved to another organization is added there unless it has a
 * decision there. Read by the review-state filters (records/review-state.ts)
 * so that "Needs review" and "Awaiting decision" cost what they match, not
 * every record of the organization (docs/decisions/review-queue.md). Never
 * written by the application.
 */
export const recordsAwaitingDecision = pgTable(
  'records_awaiting_decision',
  {
    organizationId: uuid('organization_id').notNull(),
    recordId: bigint('record_id', { mode: 'number' })
      .notNull()
      .references(() => records.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.recordId] })],
);

/**
 * Each record's latest release decision in an organization (the row of
 * `record_dispositions` with the highest id there), kept by a trigger
 * (migration 0027): the decision filters of All Records read it, so they cost
 * the records they match (docs/decisions/review-queue.md). Decisions are
 * append-only, so a row only ever moves to a later decision. Never written by
 * the application.
 */
export const recordLatestDecisions = pgTable(
  'record_latest_decisions',
  {
    organizationId: uuid('organization_id').notNull(),
    recordId: bigint('record_id', { mode: 'number' }).notNull(),
    dispositionId: bigint('disposition_id', { mode: 'number' }).notNull(),
    decision: text('decision', { enum: ['RELEASED', 'QUARANTINED', 'REJECTED'] }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.recordId] }),
    index('record_latest_decisions_decision_idx').on(t.organizationId, t.decision, t.recordId),
  ],
);
