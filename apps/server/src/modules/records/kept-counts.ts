import { parseFilter } from '@coldtrace/domain';
import { eq, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedOnce } from '../../db/named-query';
import { recordCountDeltas } from '../../db/schema-record-counts';
import { sqlInstant } from './iso-range';
import { COUNT_ROWS_TO_FOLD, foldTouchedSince, foldUnderLock } from './fold-lock';

export { COUNT_ROWS_TO_FOLD };

/**
 * The counts kept by triggers (docs/decisions/list-performance.md, "Kept
 * counts"): the organization's sums of `record_count_deltas` and
 * `record_hour_deltas`, the kept counts a list reads with its page, and
 * their folds (by a read that finds many rows, and by the `counts.fold` job).
 */

export interface OrganizationCounts {
  records: number;
  alarmRecords: number;
  activeRecords: number;
  scans: number;
  tags: number;
  runningTags: number;
  /** Tags with at least one record (the organization's rows of tag_latest_records). */
  tagsWithRecords: number;
  /** Records whose latest decision (in the organization) is each decision (migration 0029). */
  releasedRecords: number;
  quarantinedRecords: number;
  rejectedRecords: number;
}

const countsSelection = {
  rows: sql<number>`count(*)::int`,
  records: sql<number>`coalesce(sum(${recordCountDeltas.records}), 0)::int`,
  alarmRecords: sql<number>`coalesce(sum(${recordCountDeltas.alarmRecords}), 0)::int`,
  activeRecords: sql<number>`coalesce(sum(${recordCountDeltas.activeRecords}), 0)::int`,
  scans: sql<number>`coalesce(sum(${recordCountDeltas.scans}), 0)::int`,
  tags: sql<number>`coalesce(sum(${recordCountDeltas.tags}), 0)::int`,
  runningTags: sql<number>`coalesce(sum(${recordCountDeltas.runningTags}), 0)::int`,
  tagsWithRecords: sql<number>`coalesce(sum(${recordCountDeltas.tagsWithRecords}), 0)::int`,
  releasedRecords: sql<number>`coalesce(sum(${recordCountDeltas.releasedRecords}), 0)::int`,
  quarantinedRecords: sql<number>`coalesce(sum(${recordCountDeltas.quarantinedRecords}), 0)::int`,
  rejectedRecords: sql<number>`coalesce(sum(${recordCountDeltas.rejectedRecords}), 0)::int`,
};
/**
 * The organization's exact counts: the sums of its `record_count_deltas`
 * rows (one statement, so one snapshot: exactly what a count(*) would say in
 * it), a named statement (asked on every list and summary request). When the
 * rows pile up past COUNT_ROWS_TO_FOLD they are folded into one (same sums,
 * one transaction; skipped when another request is folding them).
 */
const countsStatement = preparedOnce((db) =>
  db
    .select(countsSelection)
    .from(recordCountDeltas)
    .where(eq(recordCountDeltas.organizationId, sql.placeholder('org')))
    .prepare('organization_counts'),
);

export async function organizationCounts(
  db: Db,
  organizationId: string,
): Promise<OrganizationCounts> {
  const [row] = await countsStatement(db).execute({ org: organizationId });
  const { rows, ...counts } = row!;
  await foldCountsIfMany(db, organizationId, rows);
  return counts;
}

/**
 * The organization's number of count rows as a scalar subquery, for a
 * statement that reads a kept count with its page (the whole records list):
 * `foldCountsIfMany` after it.
 */
export const countRowsOf = (organizationId: string | Placeholder) =>
  sql<number>`(SELECT count(*) FROM ${recordCountDeltas} WHERE ${recordCountDeltas.organizationId} = ${organizationId})::int`;

/**
 * One of the organization's kept counts as a scalar subquery: the sum of
 * `summed` (a column of record_count_deltas, or an expression over them) over
 * its count rows, exact as `organizationCounts`.
 */
export const keptCountSumOf = (organizationId: string | Placeholder, summed: SQL | AnyColumn) =>
  sql<number>`(SELECT coalesce(sum(${summed}), 0)
    FROM ${recordCountDeltas} WHERE ${recordCountDeltas.organizationId} = ${organizationId})::int`;

/** The organization's record count as a scalar subquery. */
export const recordTotalOf = (organizationId: string | Placeholder) =>
  keptCountSumOf(organizationId, recordCountDeltas.records);

/**
 * A filter whose number of matches the organization's kept counts give: one
 * item, `computed_status` is (or is not) Alarm, or `active` is (or is not)
 * true or false; the dashboard's cards link to exactly these. Undefined for
 * any other filter. Call it on a filter `compileFilter` accepted (so the
 * operator and value are valid for the field).
 */
export interface KeptFilterCount {
  count: 'alarmRecords' | 'activeRecords';
  /** The records not counted by `count` (records minus it). */
  complement: boolean;
}

export function keptCountOfFilter(text: string | undefined): KeptFilterCount | undefined {
  if (text === undefined) return undefined;
  let items;
  try {
    items = parseFilter(text).items;
  } catch {
    return undefined;
  }
  const [item] = items;
  if (items.length !== 1 || item === undefined || typeof item.value !== 'string') return undefined;
  const negative = item.operator === 'not' || item.operator === '!=';
  if (!negative && !['is', 'equals', '='].includes(item.operator)) return undefined;
  const value = item.value.toLowerCase();
  if (item.field === 'computed_status' && value === 'alarm') {
    return { count: 'alarmRecords', complement: negative };
  }
  if (item.field === 'active' && (value === 'true' || value === 'false')) {
    return { count: 'activeRecords', complement: negative !== (value === 'false') };
  }
  return undefined;
}

/** The number of the organization's records a `KeptFilterCount` filter matches, as a scalar subquery. */
export function keptFilterTotalOf(organizationId: string, kept: KeptFilterCount): SQL<number> {
  const column =
    kept.count === 'alarmRecords'
      ? recordCountDeltas.alarmRecords
      : recordCountDeltas.activeRecords;
  return keptCountSumOf(
    organizationId,
    kept.complement ? sql`${recordCountDeltas.records} - ${column}` : column,
  );
}

/** Fold the organization's count rows when a read found more than COUNT_ROWS_TO_FOLD. */
export async function foldCountsIfMany(db: Db, organizationId: string, rows: number) {
  if (rows > COUNT_ROWS_TO_FOLD) await foldCounts(db, organizationId);
}

/** Replace the organization's count rows by one row of their sums (unless another transaction is at it). */
export async function foldCounts(db: Db, organizationId: string): Promise<void> {
  await foldUnderLock(
    db,
    `record_count_deltas:${organizationId}`,
    sql`WITH gone AS (
        DELETE FROM record_count_deltas WHERE organization_id = ${organizationId} RETURNING *)
      INSERT INTO record_count_deltas (organization_id, records, alarm_records, active_records, scans, tags,
        running_tags, tags_with_records, released_records, quarantined_records, rejected_records)
      SELECT ${organizationId}::uuid, coalesce(sum(records), 0), coalesce(sum(alarm_records), 0),
        coalesce(sum(active_records), 0), coalesce(sum(scans), 0), coalesce(sum(tags), 0),
        coalesce(sum(running_tags), 0), coalesce(sum(tags_with_records), 0),
        coalesce(sum(released_records), 0), coalesce(sum(quarantined_records), 0),
        coalesce(sum(rejected_records), 0)
      FROM gone`,
  );
}

/**
 * Fold the organization's hour rows into one row per hour, same sums, in one
 * transaction (skipped when another transaction is folding them): the hours
 * in the range `which.hours`, or those listed in `which.list` (ISO instants).
 * Only hours with more than one row are rewritten.
 */
export async function foldHourCounts(
  db: Db,
  organizationId: string,
  which: { hours: { first: Date; end: Date } } | { list: readonly string[] },
): Promise<void> {
  const inHours =
    'hours' in which
      ? sql`hour >= ${sqlInstant(which.hours.first)} AND hour < ${sqlInstant(which.hours.end)}`
      : sql`hour = ANY(${sql.param(which.list)}::timestamptz[])`;
  await foldUnderLock(
    db,
    `record_hour_deltas:${organizationId}`,
    sql`WITH piled AS (
        SELECT hour FROM record_hour_deltas
        WHERE organization_id = ${organizationId} AND ${inHours}
        GROUP BY hour HAVING count(*) > 1),
      gone AS (
        DELETE FROM record_hour_deltas
        WHERE organization_id = ${organizationId} AND hour IN (SELECT hour FROM piled)
        RETURNING *)
      INSERT INTO record_hour_deltas (organization_id, hour, records, alarm_records, active_records, scans)
      SELECT ${organizationId}::uuid, hour, sum(records), sum(alarm_records), sum(active_records), sum(scans)
      FROM gone GROUP BY hour`,
  );
}

/**
 * The count-fold job, for counts nobody reads for a while (a read folds its
 * own): the organizations whose count rows piled up past COUNT_ROWS_TO_FOLD
 * (a small table: about one row per organization once folded), and the hours
 * that rows written after row `since` of `record_hour_deltas` touched
 * (`foldTouchedSince`).
 */
export async function foldPiledCounts(
  db: Db,
  since = 0,
): Promise<{ organizations: number; hours: number; through: number }> {
  const done = await foldTouchedSince(
    db,
    since,
    { table: 'record_count_deltas', fold: (org) => foldCounts(db, org) },
    {
      table: 'record_hour_deltas',
      column: 'hour',
      fold: (org, hours) => foldHourCounts(db, org, { list: hours }),
    },
  );
  return { organizations: done.organizations, hours: done.touched, through: done.through };
}
