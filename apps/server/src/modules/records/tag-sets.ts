import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tagDaySets, tagStateSets } from '../../db/schema-record-counts';
import { records } from '../../db/schema-shipments';
import { cutAtBuckets, planStableInstant, sqlTimestamp, wholeBucketsOf } from './iso-range';
import { COUNT_ROWS_TO_FOLD, foldTouchedSince, foldUnderLock } from './fold-lock';

/**
 * The running and idle tags of a range from kept bit sets (migration 0028,
 * `tag_day_sets` and `tag_state_sets`; docs/decisions/list-performance.md,
 * "Range statistics"), and their folding.
 */

/** The whole UTC days inside [from, to): [first, end), or null when the range holds none. */
export const wholeDaysOf = (range: { from: Date; to: Date }) => wholeBucketsOf(range, 86_400_000);

/** A UTC day as PostgreSQL reads it (the year after 9999 too, `sqlTimestamp`). */
const isoDay = (d: Date) => sqlTimestamp(d).split('T')[0]!;

/** What a range statement reads of the tag sets (`tagsOfRange`), and folds after. */
export interface RangeTagColumns {
  /** Tags of the organization with a record created in the range. */
  tags: number;
  /** Of them, the running ones. */
  running: number;
  /** Day rows beyond one per day and set, and state rows beyond one per set: to fold. */
  piledDays: number;
  piledStates: number;
}

/**
 * The organization's tags with a record created in [from, to), and how many
 * of them run, as parts of one statement (`WITH ${ctes} SELECT ${columns}`,
 * the columns of `RangeTagColumns`): the OR of `tag_day_sets` over the
 * range's whole UTC days AND-ed with the organization's tag and running sets
 * (`tag_state_sets`), counted by bit, plus the tags of the records of the
 * partial days at its two ends that the whole days lack (tested bit by bit
 * against those sets). Empty spans where the range has no
 * whole day or end, so the text is one whatever the range. The cost follows
 * the range's days and the records of its partial days, not its records
 * (list-performance.md, "Range statistics").
 */
export function tagsOfRange(organizationId: string, range: { from: Date; to: Date }) {
  const days = wholeDaysOf(range);
  // The partial days' ends plan-stable, so the statement keeps its generic plan.
  const part = planStableInstant;
  // Records counted one by one: the partial buckets at the ends (one text whatever the range).
  const { span, head, tail } = cutAtBuckets(range, days);
  // The whole days' sets; the partial days' tags are tested bit by bit against
  // them (a get_bit per tag, not a set of 1 kB per tag OR-ed in).
  const ctes = sql`tag_union AS (
      SELECT d.chunk, bit_or(d.bits) AS bits, count(*) - count(DISTINCT d.day) AS piled
      FROM ${tagDaySets} d
      WHERE d.organization_id = ${organizationId}
        AND d.day >= ${isoDay(span.first)}::date AND d.day < ${isoDay(span.end)}::date
      GROUP BY d.chunk),
    tag_states AS (
      SELECT chunk, bit_xor(bits) FILTER (WHERE kind = 'tags') AS tags,
        bit_xor(bits) FILTER (WHERE kind = 'running') AS running,
        count(*) - count(DISTINCT kind) AS piled
      FROM ${tagStateSets} WHERE organization_id = ${organizationId} GROUP BY chunk),
    tag_partial AS (
      SELECT count(*) AS tags, count(*) FILTER (WHERE get_bit(s.running, p.at) = 1) AS running
      FROM (SELECT t.tag_id, tag_set_of(t.tag_id) AS chunk, (t.tag_id & 8191)::int AS at FROM (
          SELECT r.tag_id FROM ${records} r WHERE r.organization_id = ${organizationId}
            AND r.created >= ${part(head[0])} AND r.created < ${part(head[1])}
          UNION
          SELECT r.tag_id FROM ${records} r WHERE r.organization_id = ${organizationId}
            AND r.created >= ${part(tail[0])} AND r.created < ${part(tail[1])}) t) p
      JOIN tag_states s ON s.chunk = p.chunk
      LEFT JOIN tag_union u ON u.chunk = p.chunk
      WHERE get_bit(s.tags, p.at) = 1 AND (u.bits IS NULL OR get_bit(u.bits, p.at) = 0))`;
  const columns = sql`(coalesce((SELECT sum(bit_count(u.bits & s.tags))
        FROM tag_union u JOIN tag_states s USING (chunk)), 0)
        + (SELECT tags FROM tag_partial))::int AS tags,
      (coalesce((SELECT sum(bit_count(u.bits & s.tags & s.running))
        FROM tag_union u JOIN tag_states s USING (chunk)), 0)
        + (SELECT running FROM tag_partial))::int AS running,
      coalesce((SELECT sum(piled) FROM tag_union), 0)::int AS "piledDays",
      coalesce((SELECT sum(piled) FROM tag_states), 0)::int AS "piledStates"`;
  /** Fold what the statement found piled (its answer is exact either way). */
  const foldPiled = async (db: Db, row: RangeTagColumns) => {
    if (days && row.piledDays > COUNT_ROWS_TO_FOLD) {
      await foldTagDays(db, organizationId, { days: [isoDay(days.first), isoDay(days.end)] });
    }
    if (row.piledStates > COUNT_ROWS_TO_FOLD) await foldTagStates(db, organizationId);
  };
  return { ctes, columns, foldPiled };
}

/**
 * Fold the organization's day sets into one row per day and set (the OR of
 * its rows), in one transaction holding the organization's tag-day lock (a
 * recount takes it too), or not at all when another transaction holds it:
 * the days in [first, end) of `which.days`, or those listed in `which.list`.
 */
export async function foldTagDays(
  db: Db,
  organizationId: string,
  which: { days: [string, string] } | { list: readonly string[] },
): Promise<void> {
  const inDays =
    'days' in which
      ? sql`day >= ${which.days[0]}::date AND day < ${which.days[1]}::date`
      : sql`day = ANY(${sql.param(which.list)}::date[])`;
  await foldUnderLock(
    db,
    `tag_day_sets:${organizationId}`,
    sql`WITH piled AS (
        SELECT day, chunk FROM tag_day_sets
        WHERE organization_id = ${organizationId} AND ${inDays}
        GROUP BY day, chunk HAVING count(*) > 1),
      gone AS (
        DELETE FROM tag_day_sets t USING piled p
        WHERE t.organization_id = ${organizationId} AND t.day = p.day AND t.chunk = p.chunk
        RETURNING t.*)
      INSERT INTO tag_day_sets (organization_id, day, chunk, bits)
      SELECT ${organizationId}::uuid, day, chunk, bit_or(bits) FROM gone GROUP BY day, chunk`,
  );
}

/** Fold the organization's tag and running sets into one row per set (the XOR of its rows). */
export async function foldTagStates(db: Db, organizationId: string): Promise<void> {
  await foldUnderLock(
    db,
    `tag_state_sets:${organizationId}`,
    sql`WITH gone AS (
        DELETE FROM tag_state_sets WHERE organization_id = ${organizationId} RETURNING *)
      INSERT INTO tag_state_sets (organization_id, kind, chunk, bits)
      SELECT ${organizationId}::uuid, kind, chunk, bit_xor(bits) FROM gone GROUP BY kind, chunk`,
  );
}

/**
 * The tag sets' part of the count-fold job: the organizations whose tag and
 * running sets piled past COUNT_ROWS_TO_FOLD rows, and the days that rows
 * written after row `since` of `tag_day_sets` touched (as `foldPiledCounts`
 * does for the hours). Answers the last row id it saw, the next run's `since`.
 */
export async function foldPiledTagSets(
  db: Db,
  since = 0,
): Promise<{ organizations: number; days: number; through: number }> {
  const done = await foldTouchedSince(
    db,
    since,
    { table: 'tag_state_sets', fold: (org) => foldTagStates(db, org) },
    {
      table: 'tag_day_sets',
      column: 'day',
      fold: (org, days) => foldTagDays(db, org, { list: days }),
    },
  );
  return { organizations: done.organizations, days: done.touched, through: done.through };
}
