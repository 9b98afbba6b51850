import { and, asc, eq, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { compiledSelect } from '../../db/compiled-select';
import type { Db } from '../../db/client';
import { recordCountDeltas } from '../../db/schema-record-counts';
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
  // The range's records and their scans in one pass: each record's scans
  // counted through scans_record_idx (a scalar subquery per record), where a
  // join made PostgreSQL hash every scan of the organization (0.19-0.33 s
  // against 0.09 s for a month of 1,000,000 records; list-performance.md,
  // "Sixth pass").
  const [recordCounts] = await db
    .select({
      all: sql<number>`count(*)::int`,
      alarm: sql<number>`(count(*) FILTER (WHERE ${records.computedStatus} = 'Alarm'))::int`,
      active: sql<number>`(count(*) FILTER (WHERE ${records.active}))::int`,
      // "records" written out: Drizzle leaves a one-table select's columns unqualified,
      // which inside the subquery would name the scan's own columns.
      scans: sql<number>`coalesce(sum((SELECT count(*) FROM ${scans} s
        WHERE s.record_id = "records"."id" AND s.organization_id = "records"."organization_id")), 0)::int`,
    })
    .from(records)
    .where(and(eq(records.organizationId, organizationId), inRange(records.created)));

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

  const all = recordCounts?.all ?? 0;
  const alarm = recordCounts?.alarm ?? 0;
  const active = recordCounts?.active ?? 0;
  return {
    num_records: all,
    num_alarm_records: alarm,
    num_no_alarm_records: all - alarm,
    num_active_records: active,
    num_stopped_records: all - active,
    scans_made: recordCounts?.scans ?? 0,
    running_tags: tagCounts?.running ?? 0,
    idle_tags: tagCounts?.idle ?? 0,
    num_alarm_started_records: alarmStarted?.n ?? 0,
  };
}

// ---------------------------------------------------------------- counts

export interface OrganizationCounts {
  records: number;
  alarmRecords: number;
  activeRecords: number;
  scans: number;
  tags: number;
  runningTags: number;
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

/** Fold the organization's count rows when a read found more than COUNT_ROWS_TO_FOLD. */
export async function foldCountsIfMany(db: Db, organizationId: string, rows: number) {
  if (rows > COUNT_ROWS_TO_FOLD) await foldCounts(db, organizationId);
}

/** Replace the organization's count rows by one row of their sums (unless another transaction is at it). */
export async function foldCounts(db: Db, organizationId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const lock = await tx.execute<{ ok: boolean }>(
      sql`SELECT pg_try_advisory_xact_lock(hashtextextended(${`record_count_deltas:${organizationId}`}, 0)) AS ok`,
    );
    if (!lock.rows[0]?.ok) return;
    await tx.execute(sql`WITH gone AS (
        DELETE FROM record_count_deltas WHERE organization_id = ${organizationId} RETURNING *)
      INSERT INTO record_count_deltas (organization_id, records, alarm_records, active_records, scans, tags, running_tags)
      SELECT ${organizationId}::uuid, coalesce(sum(records), 0), coalesce(sum(alarm_records), 0),
        coalesce(sum(active_records), 0), coalesce(sum(scans), 0), coalesce(sum(tags), 0),
        coalesce(sum(running_tags), 0)
      FROM gone`);
  });
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
