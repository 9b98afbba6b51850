import { parseFilter } from '@coldtrace/domain';
import { and, asc, eq, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { compiledSelect } from '../../db/compiled-select';
import type { Db } from '../../db/client';
import { recordCountDeltas, recordHourDeltas } from '../../db/schema-record-counts';
import { alarms, locationSamples, records, scans, tags } from '../../db/schema-shipments';
import { sqlTimestamp } from './iso-range';

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
  const inRange = (time: SQL | AnyColumn) =>
    sql`${time} >= ${sqlTimestamp(range.from)}::timestamptz AND ${time} < ${sqlTimestamp(range.to)}::timestamptz`;
  const recordCounts = await rangeRecordCounts(db, organizationId, range);

  const [tagCounts] = await db
    .select({
      running: sql<number>`(count(*) FILTER (WHERE ${tags.running}))::int`,
      idle: sql<number>`(count(*) FILTER (WHERE NOT ${tags.running}))::int`,
    })
    .from(tags)
    .where(
      and(
        eq(tags.organizationId, organizationId),
        sql`EXISTS (SELECT 1 FROM records r WHERE r.tag_id = ${tags.id} AND r.organization_id = ${tags.organizationId} AND ${inRange(sql`r.created`)})`,
      ),
    );

  // Alarm time, not shipment time: records (created whenever) with a
  // not-dismissed alarm whose start falls in the range.
  const [alarmStarted] = await db
    .select({ n: sql<number>`count(DISTINCT ${alarms.recordId})::int` })
    .from(alarms)
    .where(
      and(
        eq(alarms.organizationId, organizationId),
        eq(alarms.dismissed, false),
        inRange(alarms.startTime),
      ),
    );

  const { all, alarm, active } = recordCounts;
  return {
    num_records: all,
    num_alarm_records: alarm,
    num_no_alarm_records: all - alarm,
    num_active_records: active,
    num_stopped_records: all - active,
    scans_made: recordCounts.scans,
    running_tags: tagCounts?.running ?? 0,
    idle_tags: tagCounts?.idle ?? 0,
    num_alarm_started_records: alarmStarted?.n ?? 0,
  };
}

// ---------------------------------------------------------------- counts of a range

const HOUR_MS = 3_600_000;

/**
 * The whole UTC hours inside [from, to): [first, end), or null when the
 * range holds none (it lies within one hour or across one boundary).
 */
export function wholeHoursOf(range: { from: Date; to: Date }): { first: Date; end: Date } | null {
  const first = Math.ceil(range.from.getTime() / HOUR_MS) * HOUR_MS;
  const end = Math.floor(range.to.getTime() / HOUR_MS) * HOUR_MS;
  return first < end ? { first: new Date(first), end: new Date(end) } : null;
}

interface RangeRecordCounts {
  all: number;
  alarm: number;
  active: number;
  scans: number;
}

/**
 * The records created in [from, to) (all, in alarm, active) and their scans
 * (of the record's organization), in one statement: the whole hours of the
 * range are sums of `record_hour_deltas` (one row per hour once folded), the
 * partial hours at its two ends are counted from the records, each record's
 * scans through scans_record_idx (a scalar subquery per record; a join made
 * PostgreSQL hash every scan of the organization, list-performance.md, "Sixth
 * pass"). The cost follows the hours of the range and the records of its
 * two partial hours, not every record in it ("Ninth pass").
 */
async function rangeRecordCounts(
  db: Db,
  organizationId: string,
  range: { from: Date; to: Date },
): Promise<RangeRecordCounts> {
  const hours = wholeHoursOf(range);
  const at = (d: Date) => sql`${sqlTimestamp(d)}::timestamptz`;
  // Records counted one by one: the partial hours, or the whole range when it has no whole hour.
  const counted = hours
    ? sql`(r.created >= ${at(range.from)} AND r.created < ${at(hours.first)}
        OR r.created >= ${at(hours.end)} AND r.created < ${at(range.to)})`
    : sql`r.created >= ${at(range.from)} AND r.created < ${at(range.to)}`;
  const summed = hours
    ? sql`SELECT coalesce(sum(h.records), 0) AS records, coalesce(sum(h.alarm_records), 0) AS alarm,
          coalesce(sum(h.active_records), 0) AS active, coalesce(sum(h.scans), 0) AS scans,
          count(*) AS rows, count(DISTINCT h.hour) AS hours
        FROM ${recordHourDeltas} h
        WHERE h.organization_id = ${organizationId}
          AND h.hour >= ${at(hours.first)} AND h.hour < ${at(hours.end)}`
    : sql`SELECT 0 AS records, 0 AS alarm, 0 AS active, 0 AS scans, 0 AS rows, 0 AS hours`;
  const result = await db.execute<{
    all: number;
    alarm: number;
    active: number;
    scans: number;
    rows: number;
    hours: number;
  }>(sql`SELECT (h.records + e.records)::int AS "all", (h.alarm + e.alarm)::int AS alarm,
      (h.active + e.active)::int AS active, (h.scans + e.scans)::int AS scans,
      h.rows::int AS rows, h.hours::int AS hours
    FROM (${summed}) h,
    (SELECT count(*) AS records, count(*) FILTER (WHERE r.computed_status = 'Alarm') AS alarm,
        count(*) FILTER (WHERE r.active) AS active,
        coalesce(sum((SELECT count(*) FROM ${scans} s
          WHERE s.record_id = r.id AND s.organization_id = r.organization_id)), 0) AS scans
      FROM ${records} r
      WHERE r.organization_id = ${organizationId} AND ${counted}) e`);
  const row = result.rows[0]!;
  if (hours && row.rows - row.hours > COUNT_ROWS_TO_FOLD) {
    await foldHourCounts(db, organizationId, { hours });
  }
  return { all: row.all, alarm: row.alarm, active: row.active, scans: row.scans };
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
      ? sql`hour >= ${sqlTimestamp(which.hours.first)}::timestamptz
          AND hour < ${sqlTimestamp(which.hours.end)}::timestamptz`
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
 * Run a fold (a DELETE … RETURNING of count rows and the INSERT of their sums)
 * in a transaction holding the advisory lock named `key`, or not at all when
 * another transaction holds it (that one is folding the same rows).
 */
async function foldUnderLock(db: Db, key: string, fold: SQL): Promise<void> {
  await db.transaction(async (tx) => {
    const lock = await tx.execute<{ ok: boolean }>(
      sql`SELECT pg_try_advisory_xact_lock(hashtextextended(${key}, 0)) AS ok`,
    );
    if (lock.rows[0]?.ok) await tx.execute(fold);
  });
}

/**
 * The count-fold job, for counts nobody reads for a while (a read folds its
 * own): the organizations whose count rows piled up past COUNT_ROWS_TO_FOLD
 * (a small table: about one row per organization once folded), and the hours
 * that rows written after row `since` of `record_hour_deltas` touched (its
 * primary key: the cost follows the rows written since the last run, not the
 * table). Answers the last row id it saw, the next run's `since` (0: every row).
 * A row written by a transaction still open at the run, with a lower id, is
 * left unfolded (its sums count all the same); the next row in its hour, or a
 * read of it, folds it.
 */
export async function foldPiledCounts(
  db: Db,
  since = 0,
): Promise<{ organizations: number; hours: number; through: number }> {
  const whole = await db.execute<{ organization_id: string }>(sql`
    SELECT organization_id FROM record_count_deltas
    GROUP BY organization_id HAVING count(*) > ${COUNT_ROWS_TO_FOLD}`);
  for (const { organization_id } of whole.rows) await foldCounts(db, organization_id);
  const touched = await db.execute<{
    organization_id: string;
    hours: string[];
    through: string;
  }>(sql`
    SELECT organization_id, array_agg(DISTINCT hour::text) AS hours, max(id)::text AS through
    FROM record_hour_deltas WHERE id > ${since} GROUP BY organization_id`);
  let through = since;
  for (const row of touched.rows) {
    await foldHourCounts(db, row.organization_id, { list: row.hours });
    through = Math.max(through, Number(row.through));
  }
  return { organizations: whole.rows.length, hours: touched.rows.length, through };
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
}

/** Fold an organization's count rows into one once it has more than this many. */
export const COUNT_ROWS_TO_FOLD = 64;

const countsSelection = {
  rows: sql<number>`count(*)::int`,
  records: sql<number>`coalesce(sum(${recordCountDeltas.records}), 0)::int`,
  alarmRecords: sql<number>`coalesce(sum(${recordCountDeltas.alarmRecords}), 0)::int`,
  activeRecords: sql<number>`coalesce(sum(${recordCountDeltas.activeRecords}), 0)::int`,
  scans: sql<number>`coalesce(sum(${recordCountDeltas.scans}), 0)::int`,
  tags: sql<number>`coalesce(sum(${recordCountDeltas.tags}), 0)::int`,
  runningTags: sql<number>`coalesce(sum(${recordCountDeltas.runningTags}), 0)::int`,
  tagsWithRecords: sql<number>`coalesce(sum(${recordCountDeltas.tagsWithRecords}), 0)::int`,
};
const selectCounts = (db: Db) => db.select(countsSelection).from(recordCountDeltas);
/** Rendered once (asked on every list and summary request): only its WHERE per request. */
const countsCompiled = compiledSelect<
  Awaited<ReturnType<ReturnType<typeof selectCounts>['execute']>>[number]
>(countsSelection, selectCounts);

/**
 * The organization's exact counts: the sums of its `record_count_deltas`
 * rows (one statement, so one snapshot: exactly what a count(*) would say in
 * it). When the rows pile up past COUNT_ROWS_TO_FOLD they are folded into one
 * (same sums, one transaction; skipped when another request is folding them).
 */
export async function organizationCounts(
  db: Db,
  organizationId: string,
): Promise<OrganizationCounts> {
  const [row] = await countsCompiled.run(
    db,
    sql`where ${eq(recordCountDeltas.organizationId, organizationId)}`,
    { prepared: true },
  );
  const { rows, ...counts } = row!;
  await foldCountsIfMany(db, organizationId, rows);
  return counts;
}

/**
 * The organization's record count and its number of count rows as a derived
 * table `counts` (`records`, `rows`), for a statement that reads the count
 * with its page (repository.ts `listRecords`); `foldCountsIfMany` after it.
 */
export const recordCountOf = (organizationId: string) =>
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
        running_tags, tags_with_records)
      SELECT ${organizationId}::uuid, coalesce(sum(records), 0), coalesce(sum(alarm_records), 0),
        coalesce(sum(active_records), 0), coalesce(sum(scans), 0), coalesce(sum(tags), 0),
        coalesce(sum(running_tags), 0), coalesce(sum(tags_with_records), 0)
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
