import { sql, type SQL } from 'drizzle-orm';
import { tagLatestRecords } from '../../db/schema-record-counts';
import { records } from '../../db/schema-shipments';

/**
 * Only the latest record of each tag in the organization (the highest id: the
 * last created), as the maintained `tag_latest_records` names it (migration
 * 0021): one probe of its key per record, not a look for newer records.
 */
export const latestOfTag = sql`EXISTS (SELECT 1 FROM ${tagLatestRecords} l WHERE l.organization_id = ${records.organizationId} AND l.tag_id = ${records.tagId} AND l.record_id = ${records.id})`;

/** The number of matches as a window count over the page's own scan. */
export const WINDOW_TOTAL = sql<number>`(count(*) over ())::int`;

/**
 * The number of matches of a list whose only condition is `latest=true`: the
 * organization's rows of `tag_latest_records` (one per tag with records),
 * counted once, instead of a window over every latest record of the page's
 * scan (docs/decisions/list-performance.md, "Seventh pass": 0.10 → 0.05 s a
 * page at 50,000 tags). Otherwise the window count.
 */
export function totalOf(
  organizationId: string,
  conditions: readonly (SQL | undefined)[],
): SQL<number> {
  const given = conditions.filter((c) => c !== undefined);
  if (given.length !== 1 || given[0] !== latestOfTag) return WINDOW_TOTAL;
  return sql<number>`(select count(*) from ${tagLatestRecords} where ${tagLatestRecords.organizationId} = ${organizationId})::int`;
}
