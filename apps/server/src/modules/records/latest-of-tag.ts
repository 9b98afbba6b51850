import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { recordCountDeltas, tagLatestRecords } from '../../db/schema-record-counts';
import { records } from '../../db/schema-shipments';
import { keptCountSumOf } from './kept-counts';

/**
 * Only the latest record of each tag in the organization (the highest id: the
 * last created), as the maintained `tag_latest_records` names it (migration
 * 0021): one probe of its key per record, not a look for newer records.
 */
export const latestOfTag = sql`EXISTS (SELECT 1 FROM ${tagLatestRecords} l WHERE l.organization_id = ${records.organizationId} AND l.tag_id = ${records.tagId} AND l.record_id = ${records.id})`;

/**
 * How many records `latestOfTag` keeps in the organization: its rows of
 * `tag_latest_records` (one per tag with records), kept as a count with the
 * organization's others (`record_count_deltas.tags_with_records`, migration
 * 0025): counting the rows took most of a `latest=true` page's 3.5 ms of
 * PostgreSQL CPU at 50,000 tags, and a window over the page's scan before
 * that, every latest record (list-performance.md, "Latest records").
 */
export function latestCountOf(organizationId: string | Placeholder): SQL<number> {
  return keptCountSumOf(organizationId, recordCountDeltas.tagsWithRecords);
}
