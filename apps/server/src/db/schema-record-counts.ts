import {
  bigint,
  bigserial,
  bit,
  customType,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  uuid,
} from 'drizzle-orm/pg-core';
import { orgRef, ref64, timestamptz } from './columns';
import { organizations } from './schema';

/**
 * Exact counts per organization without counting a million rows per request
 * (issue 13, docs/decisions/list-performance.md, "Kept counts"): triggers on records, scans
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
    /** Tags with at least one record: the rows of `tag_latest_records` (migration 0025). */
    tagsWithRecords: bigint('tags_with_records', { mode: 'number' }).notNull().default(0),
    /**
     * Records whose latest release decision in the organization is each
     * decision (rows of `record_latest_decisions` whose record is in it;
     * migration 0029), alarms aside.
     */
    releasedRecords: bigint('released_records', { mode: 'number' }).notNull().default(0),
    quarantinedRecords: bigint('quarantined_records', { mode: 'number' }).notNull().default(0),
    rejectedRecords: bigint('rejected_records', { mode: 'number' }).notNull().default(0),
  },
  (t) => [index('record_count_deltas_org_idx').on(t.organizationId)],
);

/**
 * The same counts by the hour the records were created in (UTC hours), for
 * the statistics of a range (docs/decisions/list-performance.md,
 * "Range statistics"): a range's whole hours are sums of these rows, only its partial
 * first and last hours are counted from the records. Rows of changes written
 * by triggers on records and scans (migration 0024; the inserts and deletes by
 * the same statement triggers as `record_count_deltas`) in the transaction that
 * made the change: a record counts in the hour of its `created`, a scan in
 * its record's hour (scans of a record of the same organization only, as the
 * statistics count them). Folded into one row per hour (same sums) by the
 * count-fold job and by a range read that finds many; never otherwise changed.
 * Derived data, not evidence.
 */
export const recordHourDeltas = pgTable(
  'record_hour_deltas',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    /** The first instant of the UTC hour. */
    hour: timestamptz('hour').notNull(),
    records: bigint('records', { mode: 'number' }).notNull().default(0),
    alarmRecords: bigint('alarm_records', { mode: 'number' }).notNull().default(0),
    activeRecords: bigint('active_records', { mode: 'number' }).notNull().default(0),
    scans: bigint('scans', { mode: 'number' }).notNull().default(0),
  },
  (t) => [index('record_hour_deltas_org_hour_idx').on(t.organizationId, t.hour)],
);

/** Text compared byte by byte (`COLLATE "C"`), so a range of it is a prefix. */
const bytewiseText = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

/**
 * The tag serial numbers an organization's records carry, for the search box
 * (docs/decisions/list-performance.md, "Search"): for each (organization, tag,
 * serial number) ever seen on its records, every suffix of the lower-cased
 * serial number, one row each. A word is contained in a serial number exactly
 * when it starts one of its suffixes, so the tags whose serial number contains
 * a word are one btree range (`suffix >= lower(word) AND suffix < lower(word)
 * || U+10FFFF`); the records are then found by tag id and tested on their own
 * serial number. Kept by triggers on records (migration 0017) in the
 * transaction that wrote the record, so a record is findable as soon as it is
 * visible; rows outlive the records they came from (harmless: the search still
 * tests the record's own serial number). Derived data, not evidence.
 */
export const recordTagSerials = pgTable(
  'record_tag_serials',
  {
    organizationId: orgRef(),
    suffix: bytewiseText('suffix').notNull(),
    tagId: ref64('tag_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.suffix, t.tagId] })],
);

/**
 * The latest record of each tag in each organization (the highest id: the
 * last created), for `GET records/?latest=true` (docs/decisions/
 * list-performance.md, "Latest records"): one row per (organization, tag), kept
 * by triggers on records (migration 0021) in the transaction that made the
 * record. An insert raises the row to the statement's highest id (an upsert,
 * so two uploads of one tag at once leave the higher); a record moved to
 * another organization or tag (never done by the app) recomputes both.
 * `last_action_taken` is that record's (migration 0022: a change of the
 * record's writes it), so the tag list's default order reads an index of
 * this table instead of every tag's latest record ("Tag list").
 * Derived data, not evidence.
 */
export const tagLatestRecords = pgTable(
  'tag_latest_records',
  {
    organizationId: orgRef(),
    tagId: ref64('tag_id').notNull(),
    recordId: ref64('record_id').notNull(),
    lastActionTaken: timestamptz('last_action_taken'),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.tagId] }),
    // The tag list's default order: the latest record's last action, newest first, then the tag.
    index('tag_latest_records_order_idx').on(
      t.organizationId,
      t.lastActionTaken.desc().nullsLast(),
      t.tagId.desc(),
    ),
    // `GET records/?latest=true` in its default order: the same action, then the record.
    index('tag_latest_records_record_order_idx').on(
      t.organizationId,
      t.lastActionTaken.desc().nullsLast(),
      t.recordId.desc(),
    ),
  ],
);

/** Tags per bit set: a tag's set is `tag_id >> 13` and its bit `tag_id & 8191` (migration 0028). */
export const TAG_SET_BITS = 8192;

/**
 * The tags with a record created on each UTC day, for the running and idle
 * tags of a range (docs/decisions/list-performance.md, "Range statistics"): a
 * distinct count over a month's records no sum of counts gives, but sets
 * unite. One bit per tag (by its id), in sets of TAG_SET_BITS tags
 * (`chunk`). Rows written by triggers on records (migration 0028) in the
 * transaction that made the record: an insert appends the bits of its
 * records (a row per statement, organization, day and set); a record that
 * leaves a day (deleted, moved to another organization, tag or day)
 * recomputes that day's set from the records, holding the organization's
 * fold lock. The bits of a day are the OR of its rows; the count-fold job
 * and a range read that finds many fold them into one row (same OR). Derived
 * data, not evidence.
 */
export const tagDaySets = pgTable(
  'tag_day_sets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: orgRef(),
    day: date('day', { mode: 'string' }).notNull(),
    chunk: integer('chunk').notNull(),
    bits: bit('bits', { dimensions: TAG_SET_BITS }).notNull(),
  },
  (t) => [index('tag_day_sets_org_day_idx').on(t.organizationId, t.day, t.chunk)],
);

/**
 * The organization's tags (`kind` 'tags') and its running tags ('running')
 * as bit sets like `tag_day_sets`, kept by triggers on tags (migration 0028):
 * each write appends the XOR of the tag's sets before and after it (a tag
 * added, removed, moved to another organization, started or stopped flips its
 * bit), so the sets are the XOR of their rows whatever order concurrent
 * writes commit in. Folded like the others. Derived data, not evidence.
 */
export const tagStateSets = pgTable(
  'tag_state_sets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    organizationId: orgRef(),
    kind: text('kind', { enum: ['tags', 'running'] }).notNull(),
    chunk: integer('chunk').notNull(),
    bits: bit('bits', { dimensions: TAG_SET_BITS }).notNull(),
  },
  (t) => [index('tag_state_sets_org_idx').on(t.organizationId, t.kind, t.chunk)],
);
