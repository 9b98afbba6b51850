import { bigint, bigserial, index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './schema';
import { timestamptz } from './columns';

/**
 * The audit trail (domain rules section 6; 21 CFR Part 11): one row per change
 * a person makes to regulated data. Append-only: a trigger (migration
 * 0002) refuses UPDATE, DELETE and TRUNCATE for every database role, and the
 * application only ever inserts. Users and records are referenced by value,
 * not by foreign key, so an entry outlives what it describes.
 */

export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    /** When, UTC, set by the database. */
    occurredAt: timestamptz('occurred_at').notNull().defaultNow(),
    /** Who: the user (null for the system, e.g. a device upload) and the printed name at the time. */
    actorUserId: uuid('actor_user_id'),
    actorName: text('actor_name').notNull(),
    actorEmail: text('actor_email'),
    /** WEB, MOBILE, API, SYSTEM. */
    clientType: text('client_type'),
    /** What happened, e.g. `alarm.acknowledge`, `record.shipment.update`, `user.role.change`. */
    action: text('action').notNull(),
    /** What it happened to: `alarm`, `record`, `product`, `user`, ... and its id. */
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id').notNull(),
    /** The record the change concerns, when there is one (the record page shows these). */
    recordId: bigint('record_id', { mode: 'number' }),
    /** The field changed (null when the entry describes the whole change). */
    field: text('field'),
    oldValue: jsonb('old_value'),
    newValue: jsonb('new_value'),
    /** Why: the comment, the signature meaning, or the reason the user gave. */
    reason: text('reason'),
    requestId: text('request_id'),
  },
  (t) => [
    index('audit_events_org_time_idx').on(t.organizationId, t.occurredAt),
    index('audit_events_record_idx').on(t.organizationId, t.recordId, t.occurredAt),
    index('audit_events_entity_idx').on(t.organizationId, t.entityType, t.entityId),
  ],
);
