import { parseFilter } from '@coldtrace/domain';
import {
  and,
  asc,
  eq,
  inArray,
  sql,
  type AnyColumn,
  type Placeholder,
  type SQL,
} from 'drizzle-orm';
import { compiledSelect, renderedTemplate } from '../../db/compiled-select';
import type { Db } from '../../db/client';
import { namedQuery } from '../../db/named-query';
import { recordCountDeltas, recordHourDeltas } from '../../db/schema-record-counts';
import { alarms, locationSamples, records, scans } from '../../db/schema-shipments';
import { cutAtBuckets, planStableInstant, sqlInstant, wholeBucketsOf } from './iso-range';
import { COUNT_ROWS_TO_FOLD, foldTouchedSince, foldUnderLock } from './fold-lock';
import { tagsOfRange, type RangeTagColumns } from './tag-sets';

export { COUNT_ROWS_TO_FOLD };

/** Counts and aggregates of the read side (statistics, locations of records). */

// ---------------------------------------------------------------- statistics

export interface Statistics {
  num_records: number;
  num_alarm_records: number;
  num_no_alarm_records: number;
  num_active_records: number;
  num_stopped_records: number;
  scans_made: number;
  running_tags: number;
  idle_tags: number;
  /** In a range only: records with an alarm that started in it (alarm time, issue 14 item 1). */
  num_alarm_started_records?: number;
}

/**
 * Counts of the organization's records (all, or those created in
 * [from, to)), their scans, and tags. In a range, scans are the scans of those
 * records and tags those with such a record; without one, every scan and tag
 * of the organization (kept exact by triggers, `organizationCounts`). A record
 * is in alarm when its computed status (which leaves dismissed alarms out) is Alarm.
 */
export async function statistics(
  db: Db,
  organizationId: string,
  range?: { from: Date; to: Date },
): Promise<Statistics> {
  if (!range) {
    const counts = await organizationCounts(db, organizationId);
    return {
      num_records: counts.records,
      num_alarm_records: counts.alarmRecords,
      num_no_alarm_records: counts.records - counts.alarmRecords,
      num_active_records: counts.activeRecords,
      num_stopped_records: counts.records - counts.activeRecords,
      scans_made: counts.scans,
      running_tags: counts.runningTags,
      idle_tags: counts.tags - counts.runningTags,
    };
  }
  const recordCounts = await rangeRecordCounts(db, organizationId, range);

  const { all, alarm, active } = recordCounts;
  return {
    num_records: all,
    num_alarm_records: alarm,
    num_no_alarm_records: all - alarm,
    num_active_records: active,
    num_stopped_records: all - active,
    scans_made: recordCounts.scans,
    running_tags: recordCounts.running,
    idle_tags: recordCounts.tags - recordCounts.running,
    num_alarm_started_records: recordCounts.alarmStarted,
  };
}

// ---------------------------------------------------------------- counts of a range

const HOUR_MS = 3_600_000;

/**
 * The whole UTC hours inside [from, to): [first, end), or null when the
 * range holds none (it lies within one hour or across one boundary).
 */
export const wholeHoursOf = (range: { from: Date; to: Date }) => wholeBucketsOf(range, HOUR_MS);

interface RangeRecordCounts extends RangeTagColumns {
  all: number;
  alarm: number;
  active: number;
  scans: number;
  /** Records with a not-dismissed alarm that started in the range. */
  alarmStarted: number;
}

/**
 * Everything the statistics of [from, to) count, in one named statement
 * (one text whatever the range, so one plan; list-performance.md,
 * "Range statistics"):
 * - the records created in the range (all, in alarm, active) and their scans
 *   (of the record's organization): the whole hours are sums of
 *   `record_hour_deltas` (one row per hour once folded, read from its index),
 *   the partial hours at the two ends are counted from the records, each
 *   record's scans through scans_record_idx (a scalar subquery per record; a
 *   join made PostgreSQL hash every scan of the organization);
 * - the records with a not-dismissed alarm that started in the range;
 * - the tags with a record created in it, and the running ones (`tagsOfRange`).
 * The cost follows the hours and days of the range and the records of its
 * partial hours and days, not every record in it.
 */
async function rangeRecordCounts(
  db: Db,
  organizationId: string,
  range: { from: Date; to: Date },
): Promise<RangeRecordCounts> {
  const hours = wholeHoursOf(range);
  const at = sqlInstant;
  // The partial hours' ends plan-stable, so the statement keeps its generic plan.
  const part = planStableInstant;
  // Records counted one by one: the partial buckets at the ends (one text whatever the range).
  const { span, head, tail } = cutAtBuckets(range, hours);
  const tagSets = tagsOfRange(organizationId, range);
  // One statement: the hours' sums, the partial hours' records, the alarms
  // (alarm time, not shipment time: records, created whenever, with a
  // not-dismissed alarm whose start falls in the range; issue 14 item 1) and the tags.
  const rows = await namedQuery<RangeRecordCounts & { rows: number; hours: number }>(
    db,
    sql`WITH ${tagSets.ctes}
    SELECT (h.records + e.records)::int AS "all", (h.alarm + e.alarm)::int AS alarm,
      (h.active + e.active)::int AS active, (h.scans + e.scans)::int AS scans,
      h.rows::int AS rows, h.hours::int AS hours,
      (SELECT count(DISTINCT a.record_id) FROM ${alarms} a
        WHERE a.organization_id = ${organizationId} AND a.dismissed = false
          AND a.start_time >= ${at(range.from)} AND a.start_time < ${at(range.to)})::int AS "alarmStarted",
      ${tagSets.columns}
    FROM (SELECT coalesce(sum(h.records), 0) AS records, coalesce(sum(h.alarm_records), 0) AS alarm,
          coalesce(sum(h.active_records), 0) AS active, coalesce(sum(h.scans), 0) AS scans,
          count(*) AS rows, count(DISTINCT h.hour) AS hours
        FROM ${recordHourDeltas} h
        WHERE h.organization_id = ${organizationId}
          AND h.hour >= ${at(span.first)} AND h.hour < ${at(span.end)}) h,
    (SELECT count(*) AS records, count(*) FILTER (WHERE r.computed_status = 'Alarm') AS alarm,
        count(*) FILTER (WHERE r.active) AS active,
        coalesce(sum((SELECT count(*) FROM ${scans} s
          WHERE s.record_id = r.id AND s.organization_id = r.organization_id)), 0) AS scans
      FROM ${records} r
      WHERE r.organization_id = ${organizationId}
        AND (r.created >= ${part(head[0])} AND r.created < ${part(head[1])}
          OR r.created >= ${part(tail[0])} AND r.created < ${part(tail[1])})) e`,
  );
  const row = rows[0]!;
  if (hours && row.rows - row.hours > COUNT_ROWS_TO_FOLD) {
    await foldHourCounts(db, organizationId, { hours });
  }
  await tagSets.foldPiled(db, row);
  const { rows: _rows, hours: _hours, ...counts } = row;
  return counts;
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

// ---------------------------------------------------------------- counts

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
const selectCounts = (db: Db, selection = countsSelection) =>
  db.select(selection).from(recordCountDeltas);
/** Rendered once (asked on every list and summary request): only its WHERE per request. */
const countsCompiled = compiledSelect<
  Awaited<ReturnType<ReturnType<typeof selectCounts>['execute']>>[number],
  typeof countsSelection
>(countsSelection, selectCounts);

/**
 * The organization's exact counts: the sums of its `record_count_deltas`
 * rows (one statement, so one snapshot: exactly what a count(*) would say in
 * it). When the rows pile up past COUNT_ROWS_TO_FOLD they are folded into one
 * (same sums, one transaction; skipped when another request is folding them).
 */
/** The organization's count rows, rendered once (compiled-select.ts `renderedTemplate`). */
const countsTail = renderedTemplate<'org'>(
  sql`where ${eq(recordCountDeltas.organizationId, sql.placeholder('org'))}`,
);

export async function organizationCounts(
  db: Db,
  organizationId: string,
): Promise<OrganizationCounts> {
  const [row] = await countsCompiled.run(db, countsTail.query({ org: organizationId }), {
    prepared: true,
  });
  const { rows, ...counts } = row!;
  await foldCountsIfMany(db, organizationId, rows);
  return counts;
}

/**
 * The organization's record count and its number of count rows as a derived
 * table `counts` (`records`, `rows`), for a statement that reads the count
 * with its page (repository.ts `listRecords`); `foldCountsIfMany` after it.
 */
export const recordCountOf = (organizationId: string | Placeholder) =>
  sql`(SELECT coalesce(sum(${recordCountDeltas.records}), 0)::int AS records, count(*)::int AS rows
    FROM ${recordCountDeltas} WHERE ${recordCountDeltas.organizationId} = ${organizationId}) "counts"`;

/**
 * One of the organization's kept counts as a scalar subquery: the sum of
 * `summed` (a column of record_count_deltas, or an expression over them) over
 * its count rows, exact as `organizationCounts`.
 */
export const keptCountSumOf = (organizationId: string, summed: SQL | AnyColumn) =>
  sql<number>`(SELECT coalesce(sum(${summed}), 0)
    FROM ${recordCountDeltas} WHERE ${recordCountDeltas.organizationId} = ${organizationId})::int`;

/** The organization's record count as a scalar subquery. */
export const recordTotalOf = (organizationId: string) =>
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

// ---------------------------------------------------------------- aggregates

/** Known positions of the records, oldest first (the sentinels and off-globe values left out). */
export async function listLocations(db: Db, organizationId: string, recordIds: readonly number[]) {
  if (recordIds.length === 0) return [];
  return db
    .select({
      recordId: locationSamples.recordId,
      latitude: locationSamples.latitude,
      longitude: locationSamples.longitude,
      timestamp: locationSamples.timestamp,
    })
    .from(locationSamples)
    .where(
      and(
        eq(locationSamples.organizationId, organizationId),
        inArray(locationSamples.recordId, [...recordIds]),
        sql`${locationSamples.latitude} BETWEEN -90 AND 90`,
        sql`${locationSamples.longitude} BETWEEN -180 AND 180`,
      ),
    )
    .orderBy(
      asc(locationSamples.recordId),
      asc(locationSamples.timestamp),
      asc(locationSamples.id),
    );
}
