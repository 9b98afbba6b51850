import { and, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recordTagSerials } from '../../db/schema-record-counts';
import { records, travelLocations } from '../../db/schema-shipments';
import { RECORD_SEARCH_TEXT } from './fields';
import { escapeLike } from './filter-sql';

/**
 * A word that names more tags than this is tested on every record's serial
 * number instead of by tag id (a sequential scan: such a word, "XT0" say,
 * matches most records anyway).
 */
export const MAX_SEARCH_TAGS = 10_000;

/**
 * The search box (spec section 5): every whitespace-separated word is a
 * case-insensitive contains test over the search fields; a record matches when
 * any word matches any field.
 * - The record's own fields but the serial number are tested as one text
 *   (RECORD_SEARCH_TEXT, which a trigram index covers; a word has no
 *   whitespace, so it matches the joined text exactly when it matches one of
 *   the fields).
 * - The tag serial number: the tags whose serial number contains a word are
 *   looked up first in record_tag_serials, where a word starts a suffix of
 *   the lower-cased serial number (one btree range per word), and a record
 *   matches when its tag is one of them and its own serial number contains
 *   the word (so the answer is the contains test itself).
 * - The shipper and receiver names: the organization's travel locations whose
 *   name matches, looked up in the same round trip.
 * So every test is on `records`, the planner knows the ids, and the indexes
 * answer the OR (docs/decisions/list-performance.md, "Search").
 */
export async function searchCondition(
  db: Db,
  organizationId: string,
  words: readonly string[],
): Promise<SQL | undefined> {
  if (words.length === 0) return undefined;
  const patterns = words.map((word) => `%${escapeLike(word)}%`);
  const anyWord = (column: AnyColumn) => or(...patterns.map((p) => sql`${column} ILIKE ${p}`))!;
  // A suffix starting with the word: lower() as ILIKE lowers, compared byte by
  // byte (the column is COLLATE "C"); U+10FFFF is above every character.
  const startsSuffix = or(
    ...words.map(
      (w) =>
        sql`(${recordTagSerials.suffix} >= lower(${w}) AND ${recordTagSerials.suffix} < lower(${w}) || chr(1114111))`,
    ),
  );
  const { rows } = await db.execute<{ kind: 'location' | 'tag'; id: string }>(sql`
    (SELECT 'location' AS kind, ${travelLocations.id}::text AS id FROM ${travelLocations}
      WHERE ${travelLocations.organizationId} = ${organizationId} AND ${anyWord(travelLocations.name)})
    UNION ALL
    (SELECT DISTINCT 'tag', ${recordTagSerials.tagId}::text FROM ${recordTagSerials}
      WHERE ${recordTagSerials.organizationId} = ${organizationId} AND ${startsSuffix}
      LIMIT ${MAX_SEARCH_TAGS + 1})`);
  const locations = rows.filter((r) => r.kind === 'location').map((r) => Number(r.id));
  const tags = rows.filter((r) => r.kind === 'tag').map((r) => Number(r.id));
  const serialMatches = anyWord(records.tagSerialNumber);
  return or(
    ...patterns.map((p) => sql`${RECORD_SEARCH_TEXT} ILIKE ${p}`),
    tags.length > MAX_SEARCH_TAGS
      ? serialMatches
      : tags.length > 0
        ? and(sql`${records.tagId} = ANY(${sql.param(tags)}::bigint[])`, serialMatches)
        : undefined,
    locations.length > 0 ? inArray(records.shipperLocationId, locations) : undefined,
    locations.length > 0 ? inArray(records.receiverLocationId, locations) : undefined,
  );
}
