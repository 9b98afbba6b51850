import { bigint, jsonb, pgTable, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './schema';
import { records } from './schema-shipments';

/**
 * The running aggregates of a record's series (issue 13,
 * docs/decisions/incremental-recompute.md): the state of
 * `@coldtrace/domain`'s `appendPoints` (counts, highest and lowest, the mean
 * kinetic temperature's running sum, the open excursion runs, the cumulative
 * spans, and the basis they were computed under), so an upload that appends
 * points folds only those. Owned by the ingest module; derived data: a row
 * that is missing or of another version is rebuilt by a full recompute.
 */
export const recordAggregates = pgTable('record_aggregates', {
  recordId: bigint('record_id', { mode: 'number' })
    .primaryKey()
    .references(() => records.id, { onDelete: 'cascade' }),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  state: jsonb('state').notNull(),
});
