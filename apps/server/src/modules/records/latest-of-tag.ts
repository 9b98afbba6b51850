import { eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { namedQuery } from '../../db/named-query';
import type { Page } from '../../kernel/paging';
import { recordCountDeltas, tagLatestRecords } from '../../db/schema-record-counts';
import { records } from '../../db/schema-shipments';
import { keptCountSumOf } from './statistics';

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
export function latestCountOf(organizationId: string): SQL<number> {
  return keptCountSumOf(organizationId, recordCountDeltas.tagsWithRecords);
}

/**
 * `latest=true` alone in the default order (`-last_action_taken`, then the
 * record, newest first): the page's record ids read from tag_latest_records'
 * index in that order (migration 0023), the kept action being the record's
 * own, with their count, in one named statement. Ordering them on records
 * merged every latest record of the organization with the records (45 ms a
 * page at 50,000 tags; list-performance.md, "Latest records").
 */
export async function latestRecordIdsByLastAction(
  db: Db,
  organizationId: string,
  page: Page,
): Promise<{ ids: number[]; total: number }> {
  const l = tagLatestRecords;
  const rows = await namedQuery<{ id: string; total: number }>(
    db,
    sql`select ${l.recordId} as id, ${latestCountOf(organizationId)} as total from ${l}
      where ${eq(l.organizationId, organizationId)}
      order by ${l.lastActionTaken} DESC NULLS LAST, ${l.recordId} DESC NULLS LAST
      limit ${page.size} offset ${page.offset}`,
  );
  if (rows.length > 0) return { ids: rows.map((r) => Number(r.id)), total: rows[0]!.total };
  // No row to carry the count: no record, or the page is past the last one.
  const [counted] = await namedQuery<{ total: number }>(
    db,
    sql`select ${latestCountOf(organizationId)} as total`,
  );
  return { ids: [], total: counted?.total ?? 0 };
}
