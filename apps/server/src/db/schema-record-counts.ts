import { bigint, bigserial, index, pgTable, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './schema';

/**
 * Exact counts per organization without counting a million rows per request
 * (issue 13, docs/decisions/list-performance.md): triggers on records, scans
 * and tags (migration 0007) insert one row of changes per statement and
 * organization, in the transaction that made them; an organization's counts
 * are the sums of its rows, so every reader sees counts exactly as its own
 * snapshot sees the rows. Rows are only ever folded into one row (same sums),
 * never changed; nothing here is evidence.
 */
export const recordCountDeltas = pgTable(
  'record_count_deltas',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    records: bigint('records', { mode: 'number' }).notNull().default(0),
    /** Records whose computed status is Alarm. */
    alarmRecords: bigint('alarm_records', { mode: 'number' }).notNull().default(0),
    activeRecords: bigint('active_records', { mode: 'number' }).notNull().default(0),
    scans: bigint('scans', { mode: 'number' }).notNull().default(0),
    tags: bigint('tags', { mode: 'number' }).notNull().default(0),
    runningTags: bigint('running_tags', { mode: 'number' }).notNull().default(0),
  },
  (t) => [index('record_count_deltas_org_idx').on(t.organizationId)],
);
