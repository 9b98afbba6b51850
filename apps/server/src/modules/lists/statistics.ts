import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { invalidField } from '../../kernel/errors';
import { column, selectFrom } from '../../db/named-query';
import { recordHourDeltas } from '../../db/schema-record-counts';
import { alarms, records, scans } from '../../db/schema-shipments';
import {
  COUNT_ROWS_TO_FOLD,
  cutAtBuckets,
  foldHourCounts,
  organizationCounts,
  parseInstantRange,
  planStableInstant,
  sqlInstant,
  tagsOfRange,
  wholeBucketsOf,
  type RangeTagColumns,
} from '../records';

/**
 * The statistics calls (`GET statistics/summary/`, `GET statistics/filtered/`):
 * the organization's kept counts, or the counts of a range of creation times.
 */

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

/** The columns of the range's statement, by name. */
const rangeCountColumns = {
  all: column<number>('all'),
  alarm: column<number>('alarm'),
  active: column<number>('active'),
  scans: column<number>('scans'),
  rows: column<number>('rows'),
  hours: column<number>('hours'),
  alarmStarted: column<number>('alarmStarted'),
  tags: column<number>('tags'),
  running: column<number>('running'),
  piledDays: column<number>('piledDays'),
  piledStates: column<number>('piledStates'),
};

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
  const query = sql`WITH ${tagSets.ctes}
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
          OR r.created >= ${part(tail[0])} AND r.created < ${part(tail[1])})) e`;
  const [row] = await selectFrom(db, rangeCountColumns, query).prepare('range_counts').execute();
  if (row === undefined) throw new Error('rangeRecordCounts: no row');
  if (hours && row.rows - row.hours > COUNT_ROWS_TO_FOLD) {
    await foldHourCounts(db, organizationId, { hours });
  }
  await tagSets.foldPiled(db, row);
  const { rows: _rows, hours: _hours, ...counts } = row;
  return counts;
}

/** `GET statistics/filtered/`: the statistics of the records created from `startDate` to `endDate`. */
export async function filteredStatisticsCall(
  db: Db,
  organizationId: string,
  startDate: string,
  endDate: string,
): Promise<Statistics> {
  const start = parseInstantRange(startDate);
  if (!start) throw invalidField('start_date', 'must be an ISO 8601 date or date-time');
  const end = parseInstantRange(endDate);
  if (!end) throw invalidField('end_date', 'must be an ISO 8601 date or date-time');
  // Both name spans (a date is its whole day): the range is from the start of one to the end of the other.
  if (start.from.getTime() >= end.to.getTime()) {
    throw invalidField('end_date', 'must not be before start_date');
  }
  return statistics(db, organizationId, { from: start.from, to: end.to });
}
