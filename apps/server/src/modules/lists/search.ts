import { and, inArray, or, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { column, preparedOnce, selectFrom } from '../../db/named-query';
import { recordTagSerials } from '../../db/schema-record-counts';
import { records, travelLocations } from '../../db/schema-shipments';
import { escapeLike, RECORD_SEARCH_TEXT } from '../records';

/**
 * Words whose look-up finds more serial-number suffixes than this (one per
 * tag and position of the word in its serial number) are tested on every
 * record's serial number instead of by tag id (a sequential scan: such a
 * word, "XT0" say, matches most records anyway).
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
 * answer the OR (docs/decisions/list-performance.md, "Search"). The look-up
 * is one named statement for any number of words (the words as arrays); the
 * page is then the list's page shape with this condition, planned for its
 * values (a location or a word's tags decide the plan).
 */
export async function searchCondition(
  db: Db,
  organizationId: string,
  words: readonly string[],
): Promise<SQL | undefined> {
  if (words.length === 0) return undefined;
  const patterns = patternsOf(words);
  const rows = await lookup(db).execute({ org: organizationId, words, patterns });
  const locations = rows.filter((r) => r.kind === 'location').map((r) => Number(r.id));
  // A tag comes once per suffix a word starts (and per word): made distinct
  // here, as DISTINCT in the statement hashed for the LIMIT's 10,001 rows
  // (1 MB) and kept PostgreSQL planning it on every call (0.32 ms of its CPU
  // a search against 0.06 ms; list-performance.md, "Search").
  const suffixes = rows.filter((r) => r.kind === 'tag');
  const tooMany = suffixes.length > MAX_SEARCH_TAGS;
  const tags = tooMany ? [] : [...new Set(suffixes.map((r) => Number(r.id)))];
  const inSerial = anyWord(records.tagSerialNumber, patterns);
  return or(
    anyWord(RECORD_SEARCH_TEXT, patterns),
    tooMany
      ? inSerial
      : tags.length > 0
        ? and(sql`${records.tagId} = ANY(${sql.param(tags)}::bigint[])`, inSerial)
        : undefined,
    locations.length > 0 ? inArray(records.shipperLocationId, locations) : undefined,
    locations.length > 0 ? inArray(records.receiverLocationId, locations) : undefined,
  )!;
}

/** Each word as a contains pattern (ILIKE). */
const patternsOf = (words: readonly string[]) => words.map((word) => `%${escapeLike(word)}%`);

/** Any of `patterns` in `field`. */
const anyWord = (field: AnyColumn | SQL, patterns: readonly string[]) =>
  or(...patterns.map((p) => sql`${field} ILIKE ${p}::text`))!;

/**
 * The look-up: the organization's travel locations whose name contains a
 * word, and the tags of the suffixes of its serial numbers that start with a
 * word (a suffix per tag and position of the word), at most
 * MAX_SEARCH_TAGS + 1: lower() as ILIKE lowers, compared byte by byte (the
 * column is COLLATE "C"); U+10FFFF is above every character.
 */
const lookup = preparedOnce((db) => {
  const org: Placeholder = sql.placeholder('org');
  const s = recordTagSerials;
  return selectFrom(
    db,
    { kind: column<'location' | 'tag'>('kind'), id: column<string>('id') },
    sql`(SELECT 'location' AS kind, ${travelLocations.id}::text AS id FROM ${travelLocations}
      WHERE ${travelLocations.organizationId} = ${org}
        AND ${travelLocations.name} ILIKE ANY(${sql.placeholder('patterns')}::text[]))
    UNION ALL
    (SELECT 'tag', ${s.tagId}::text FROM unnest(${sql.placeholder('words')}::text[]) AS w(word)
      JOIN ${s} ON ${s.organizationId} = ${org}
        AND ${s.suffix} >= lower(w.word) AND ${s.suffix} < lower(w.word) || chr(1114111)
      LIMIT ${sql.raw(String(MAX_SEARCH_TAGS + 1))})`,
  ).prepare('search_lookup');
});
