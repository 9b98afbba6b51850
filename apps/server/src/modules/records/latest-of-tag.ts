import { sql, type SQL } from 'drizzle-orm';
import { tagLatestRecords } from '../../db/schema-record-counts';
import { records } from '../../db/schema-shipments';

/**
 * Only the latest record of each tag in the organization (the highest id: the
 * last created), as the maintained `tag_latest_records` names it (migration
 * 0021): one probe of its key per record, not a look for newer records.
 */
export const latestOfTag = sql`EXISTS (SELECT 1 FROM ${tagLatestRecords} l WHERE l.organization_id = ${records.organizationId} AND l.tag_id = ${records.tagId} AND l.record_id = ${records.id})`;

/**
 * How many records `latestOfTag` keeps in the organization: its rows of
 * `tag_latest_records` (one per tag with records), counted once, where a
 * window would count every latest record of the page's scan
 * (docs/decisions/list-performance.md, "Seventh pass": 0.10 → 0.05 s a page
 * at 50,000 tags).
 */
export function latestCountOf(organizationId: string): SQL<number> {
  return sql<number>`(select count(*) from ${tagLatestRecords} where ${tagLatestRecords.organizationId} = ${organizationId})::int`;
}
