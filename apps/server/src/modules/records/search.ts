import { and, inArray, or, sql, type AnyColumn, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { namedQuery, planStableParam } from '../../db/named-query';
import { renderedTemplate, type RenderedTemplate } from '../../db/compiled-select';
import { recordTagSerials } from '../../db/schema-record-counts';
import { records, travelLocations } from '../../db/schema-shipments';
import { RECORD_SEARCH_TEXT } from './fields';
import { escapeLike } from './filter-sql';

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
 * answer the OR (docs/decisions/list-performance.md, "Search").
 *
 * The look-up is one prepared statement for any number of words (the words
 * as arrays). When the condition is `planStable` (see there), its words and
 * tag ids are bound as `(SELECT $n)`: PostgreSQL then plans with the same
 * estimates whatever they are, so the custom plans cost what the generic one
 * does and it keeps the generic plan of a prepared search page instead of
 * planning the page on every request (list-performance.md, "Plan-stable values").
 */
export async function searchCondition(
  db: Db,
  organizationId: string,
  words: readonly string[],
): Promise<SearchCondition | undefined> {
  if (words.length === 0) return undefined;
  const patterns = patternsOf(words);
  const rows = await namedQuery<{ kind: 'location' | 'tag'; id: string }>(
    db,
    sql`
    (SELECT 'location' AS kind, ${travelLocations.id}::text AS id FROM ${travelLocations}
      WHERE ${locationMatches(organizationId, patterns)})
    UNION ALL
    (SELECT 'tag', ${recordTagSerials.tagId}::text ${tagSuffixesOf(organizationId, words)})`,
  );
  const locations = rows.filter((r) => r.kind === 'location').map((r) => Number(r.id));
  // A tag comes once per suffix a word starts (and per word): made distinct
  // here, as DISTINCT in the statement hashed for the LIMIT's 10,001 rows
  // (1 MB) and kept PostgreSQL planning it on every call (0.32 ms of its CPU
  // a search against 0.06 ms; list-performance.md, "Search").
  const suffixes = rows.filter((r) => r.kind === 'tag');
  const tooMany = suffixes.length > MAX_SEARCH_TAGS;
  const tags = tooMany ? [] : [...new Set(suffixes.map((r) => Number(r.id)))];
  const planStable = locations.length === 0 && !tooMany && words.every((w) => HAS_TRIGRAM.test(w));
  const tests = wordTests(patterns, planStable);
  const condition = or(
    tests.inText,
    tooMany
      ? tests.inSerial
      : tags.length > 0
        ? and(
            sql`${records.tagId} = ANY(${tests.bind(sql.param(tags), 'bigint[]')})`,
            tests.inSerial,
          )
        : undefined,
    locations.length > 0 ? inArray(records.shipperLocationId, locations) : undefined,
    locations.length > 0 ? inArray(records.receiverLocationId, locations) : undefined,
  )!;
  return { condition, planStable };
}

/**
 * The search with its look-up inside (list-performance.md,
 * "Search statement"): the tags whose serial numbers a word starts a suffix of are a
 * subquery of the page's condition, so the page costs one statement and one
 * round trip instead of two. It is the condition `searchCondition` makes when
 * that is plan-stable, and exact under the same terms, which its `gate`
 * tests in the statement: no travel location matched, no word found more
 * than MAX_SEARCH_TAGS suffixes. A page with no row may then be a gate that
 * failed: ask `searchCondition` (its look-up tells). Undefined when a word
 * has no trigram (never plan-stable).
 */
export function inlineSearchCondition(
  organizationId: string,
  words: readonly string[],
): GatedSearchCondition | undefined {
  if (words.length === 0 || !words.every((w) => HAS_TRIGRAM.test(w))) return undefined;
  const patterns = patternsOf(words);
  const values: Record<string, unknown> = { org: organizationId, words, patterns };
  patterns.forEach((p, i) => (values[`p${i}`] = p));
  const { condition, gate } = inlineTemplateOf(words.length);
  return { condition: condition.sql(values), planStable: true, gate: gate.sql(values) };
}

/**
 * The inline search's condition and gate for `n` words, rendered once
 * (renderedTemplate): the words (`words`), their patterns (`patterns`, and
 * each as `p0` …) and the organization (`org`) are their values.
 */
function inlineTemplateOf(n: number) {
  let template = inlineTemplates[n];
  if (template === undefined) {
    const org = sql.placeholder('org');
    const words = sql.placeholder('words');
    const suffixes = tagSuffixesOf(org, words);
    const tests = wordTests(
      Array.from({ length: n }, (_, i) => sql.placeholder(`p${i}`)),
      true,
    );
    const tags = sql`(SELECT array_agg(s.tag_id) FROM (SELECT ${recordTagSerials.tagId} ${suffixes}) s)`;
    const locations = locationMatches(org, sql.placeholder('patterns'));
    template = inlineTemplates[n] = {
      condition: renderedTemplate(
        or(tests.inText, and(sql`${records.tagId} = ANY(${tags}::bigint[])`, tests.inSerial))!,
      ),
      gate: renderedTemplate(sql`NOT EXISTS (SELECT 1 FROM ${travelLocations} WHERE ${locations})
      AND (SELECT count(*) FROM (SELECT 1 ${suffixes}) s) <= ${sql.raw(String(MAX_SEARCH_TAGS))}`),
    };
  }
  return template;
}

/** By word count (at most the search box's words, service.ts MAX_SEARCH_WORDS). */
const inlineTemplates: { condition: RenderedTemplate<string>; gate: RenderedTemplate<string> }[] =
  [];

/** Each word as a contains pattern (ILIKE). */
const patternsOf = (words: readonly string[]) => words.map((word) => `%${escapeLike(word)}%`);

/** The organization's travel locations whose name contains a word. */
const locationMatches = (organizationId: string | Placeholder, patterns: unknown) =>
  sql`${travelLocations.organizationId} = ${organizationId}
        AND ${travelLocations.name} ILIKE ANY(${sql.param(patterns)}::text[])`;

/**
 * FROM … the suffixes of the organization's serial numbers that start with a
 * word (a suffix per tag and position of the word), at most MAX_SEARCH_TAGS + 1:
 * lower() as ILIKE lowers, compared byte by byte (the column is COLLATE "C");
 * U+10FFFF is above every character.
 */
const tagSuffixesOf = (organizationId: string | Placeholder, words: unknown) =>
  sql`FROM unnest(${sql.param(words)}::text[]) AS w(word)
      JOIN ${recordTagSerials} ON ${recordTagSerials.organizationId} = ${organizationId}
        AND ${recordTagSerials.suffix} >= lower(w.word) AND ${recordTagSerials.suffix} < lower(w.word) || chr(1114111)
      LIMIT ${sql.raw(String(MAX_SEARCH_TAGS + 1))}`;

/**
 * The words' tests on the record's own text and on its serial number. When
 * `planStable`, values are bound as `(SELECT $n)` (see searchCondition).
 */
function wordTests(patterns: readonly (string | Placeholder)[], planStable: boolean) {
  const bind = (value: unknown, type: 'text' | 'bigint[]') =>
    planStable
      ? sql`${planStableParam(value, type)}::${sql.raw(type)}`
      : sql`${value}::${sql.raw(type)}`;
  const anyWord = (column: AnyColumn | SQL) =>
    or(...patterns.map((p) => sql`${column} ILIKE ${bind(p, 'text')}`))!;
  return { bind, inText: anyWord(RECORD_SEARCH_TEXT), inSerial: anyWord(records.tagSerialNumber) };
}

/** Three letters or digits in a row: a word the trigram index can look up (pg_trgm's word characters). */
const HAS_TRIGRAM = /[\p{L}\p{N}]{3}/u;

export interface SearchCondition {
  condition: SQL;
  /**
   * One plan serves the condition whatever its values: every word has a
   * trigram, no travel location matched (a location names a twentieth of the
   * records, or half of them, so the plan depends on which), and no word
   * finds more than MAX_SEARCH_TAGS suffixes (the fallback tests every record).
   * The records service then answers the page in one prepared statement
   * (repository.ts `listSearchedRecords`).
   */
  planStable: boolean;
  /**
   * When set, the condition is exact only where this holds (inlineSearchCondition):
   * a page with no row says nothing, and the list answers undefined.
   */
  gate?: SQL;
}

/** A search whose page is exact only where its gate holds (inlineSearchCondition). */
export type GatedSearchCondition = SearchCondition & { gate: SQL };
