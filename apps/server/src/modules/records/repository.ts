import { and, desc, eq, inArray, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { inOrderOf, type Page } from '../../kernel/paging';
import { records, type RecordRow } from '../../db/schema-shipments';
import { latestCountOf, latestOfTag, latestRecordIdsByLastAction } from './latest-of-tag';
import { receiver, scannedBy, shipper } from './fields';
import {
  MAX_PREPARED,
  renderedOnce,
  renderedTemplate,
  type RenderedTemplate,
} from '../../db/compiled-select';
import type { RecordView } from './presenter';
import { renderSql } from '../../db/render-sql';
import {
  countRecords,
  receiverOfRecord,
  recordViewsCompiled,
  recordViewsWith,
  scannerOfRecord,
  shipperOfRecord,
  toRecordView,
  type RecordViewRow,
} from './record-views';
import { foldCountsIfMany, organizationCounts, recordCountOf, recordTotalOf } from './statistics';
import type { GatedSearchCondition, SearchCondition } from './search';

/**
 * Queries of the read side. Every function takes the organization and scopes
 * every table it reads to it; conditions built from client input come from
 * `filter-sql.ts` (bound parameters only).
 */

import type { Paged } from './paged';
export type { Paged };

// ---------------------------------------------------------------- records

export interface RecordListQuery {
  conditions: (SQL | undefined)[];
  /** Only the latest record of each tag (`latest=true`). */
  latest?: boolean | undefined;
  /** The search box's condition, if any. */
  search?: SearchCondition | undefined;
  orderBy: SQL[];
  /** `orderBy` is the default order (`-last_action_taken`). */
  byLastAction?: boolean;
  /**
   * The number of matches from the kept counts, when the conditions are one
   * they count (a card's filter, statistics.ts `keptCountOfFilter`; a broad
   * decision, review-state.ts `keptDecisionTotalOf`), instead of a count of
   * the matches on every page.
   */
  keptTotal?: SQL<number> | undefined;
  /**
   * The conditions are a dashboard card's filter alone (statistics.ts
   * `keptCountOfFilter`, `keptTotal` its count): a status or a flag, whose
   * page PostgreSQL reads the same way for any of its values.
   */
  cardFilter?: boolean;
  page: Page;
}

/**
 * The page of records `q` asks for. With a gated search (search.ts
 * `inlineSearchCondition`), undefined when its page has no row: ask again
 * with the look-up's condition.
 */
export function listRecords(
  db: Db,
  organizationId: string,
  q: RecordListQuery & { search: GatedSearchCondition },
): Promise<Paged<RecordView> | undefined>;
export function listRecords(
  db: Db,
  organizationId: string,
  q: RecordListQuery,
): Promise<Paged<RecordView>>;
export async function listRecords(
  db: Db,
  organizationId: string,
  q: RecordListQuery,
): Promise<Paged<RecordView> | undefined> {
  // With no other condition, latest=true is counted from its table.
  const latestAlone = q.latest === true && !q.search && q.conditions.every((c) => c === undefined);
  if (latestAlone && q.byLastAction) {
    const { ids, total } = await latestRecordIdsByLastAction(db, organizationId, q.page);
    return { total, rows: await recordViewsByIds(db, organizationId, ids) };
  }
  if (q.latest) q = { ...q, conditions: [...q.conditions, latestOfTag] };
  if (q.search?.planStable) return listSearchedRecords(db, organizationId, q, q.search);
  if (q.search) q = { ...q, conditions: [...q.conditions, q.search.condition] };
  if (q.cardFilter && q.keptTotal && q.page.offset === 0) {
    const page = await listCardPage(db, organizationId, q, q.keptTotal);
    if (page) return page;
  }
  if (q.conditions.some((c) => c !== undefined)) {
    return listMatchingRecords(
      db,
      organizationId,
      q,
      latestAlone ? latestCountOf(organizationId) : (q.keptTotal ?? WINDOW_TOTAL),
    );
  }
  if (!q.byLastAction) {
    // The whole list in another order: the page's ids first, by a select of
    // records alone (PostgreSQL leaves out the parties' joins it does not
    // need), then their rows. The large select ordered as a whole evaluated it
    // for every record of the organization before keeping 20 (1.3 s at
    // 1,000,000 records; list-performance.md, "Page by ids"). Its first page
    // in one prepared statement, the ids as a derived table ("One-statement pages").
    const firstPage = q.page.offset === 0 ? orderedFirstPageTailOf(db, q) : undefined;
    if (firstPage === undefined) {
      return listMatchingRecords(db, organizationId, q, recordTotalOf(organizationId));
    }
    return countedPage(
      db,
      organizationId,
      await orderedViewsCompiled.run(db, firstPage.query({ org: organizationId }), {
        prepared: true,
      }),
    );
  }
  // The whole list: the page with the maintained count (exact) in one
  // statement, not a count(*) over every record. The first page of the whole
  // list is the common one (the home list): a prepared statement with its
  // page size written as a constant, so PostgreSQL keeps one plan for it (an
  // index scan of the page; the organization is its only parameter). Later
  // pages are planned for their values each time (and do not use up the
  // select's prepared texts, db/compiled-select.ts MAX_PREPARED).
  const prepared = q.page.offset === 0;
  const firstPage = prepared ? firstPageTailOf(q.page.size, q.orderBy) : undefined;
  const rows = await countedViewsCompiled.run(
    db,
    firstPage?.query({ org: organizationId }) ??
      wholeListTail(organizationId, q.orderBy, sql`limit ${q.page.size} offset ${q.page.offset}`),
    { prepared },
  );
  return countedPage(db, organizationId, rows);
}

/** A page of the whole list, its rows carrying the organization's count (`recordCountOf`). */
async function countedPage(
  db: Db,
  organizationId: string,
  rows: (RecordViewRow & { countTotal: number; countRows: number })[],
): Promise<Paged<RecordView>> {
  if (rows.length === 0) {
    // No row to carry the count: no record, or the page is past the last one.
    return { total: (await organizationCounts(db, organizationId)).records, rows: [] };
  }
  await foldCountsIfMany(db, organizationId, rows[0]!.countRows);
  return { total: rows[0]!.countTotal, rows: rows.map(toRecordView) };
}

/** The whole list's tail: the organization's count joined, its records in `orderBy`'s order, `page`. */
const wholeListTail = (organizationId: string | Placeholder, orderBy: SQL[], page: SQL) =>
  sql`cross join ${recordCountOf(organizationId)} where ${eq(records.organizationId, organizationId)} order by ${sql.join([...orderBy, desc(records.id)], sql`, `)} ${page}`;

/**
 * The whole list's first page's tail by page size (written as a constant),
 * rendered once for each of the first MAX_PREPARED sizes asked
 * (compiled-select.ts `renderedTemplate`); undefined for others. `orderBy`
 * is the default order whenever it is asked (RecordListQuery.byLastAction).
 */
const firstPageTails = new Map<number, RenderedTemplate<'org'>>();
function firstPageTailOf(size: number, orderBy: SQL[]) {
  let tail = firstPageTails.get(size);
  if (tail === undefined && firstPageTails.size < MAX_PREPARED) {
    const page = sql.raw(`limit ${Math.trunc(size)}`);
    tail = renderedTemplate<'org'>(wholeListTail(sql.placeholder('org'), orderBy, page));
    firstPageTails.set(size, tail);
  }
  return tail;
}

/** The organization's count as the whole list's rows carry it (`counts`: statistics.ts `recordCountOf`). */
const countFields = {
  countTotal: sql<number>`"counts"."records"`,
  countRows: sql<number>`"counts"."rows"`,
};

/** The record select with the organization's count joined. */
const countedViewsCompiled = recordViewsWith(countFields);

/** The same for the whole list's first page in other orders (its own MAX_PREPARED statement names). */
const orderedViewsCompiled = recordViewsWith(countFields);

/**
 * A hit's row version (its tuple id): the page's select reads each hit's row
 * by it, as it was read for the page in the same statement (the statement's
 * one snapshot), instead of looking its id up in the primary key again:
 * twenty index descents on cold pages were a tenth of the search's time in
 * PostgreSQL (list-performance.md, "One-statement pages").
 */
const TUPLE_ID = sql<string>`${records}.ctid`;

/**
 * A page's tail as one statement: the page's hits (`idsHead`, which selects
 * each hit's `tid`, where `where`, in `order`, `page`) as a derived table,
 * `hits`, joined to the record select by row version; then `joined` (a
 * count's derived table), the organization's records only, in `order` again
 * (the page's 20 rows).
 */
const pageOfHits = (
  idsHead: SQL,
  where: SQL | Placeholder | undefined,
  order: SQL,
  page: SQL,
  organizationId: string | Placeholder,
  joined?: SQL,
) => sql`inner join (${idsHead} where ${where} order by ${order} ${page}) "hits" on ${TUPLE_ID} = "hits"."tid"
      ${joined ? sql`${joined} ` : sql``}where ${records.organizationId} = ${organizationId} order by ${order}`;

/** The page's ids' select without its WHERE and ORDER BY (the parties joined for orders by them), rendered once. */
let orderedIdsHead: SQL | undefined;
const orderedIdsHeadOf = (db: Db) =>
  (orderedIdsHead ??= renderedOnce(
    db
      .select({ id: records.id, tid: TUPLE_ID.as('tid') })
      .from(records)
      .leftJoin(shipper, shipperOfRecord)
      .leftJoin(receiver, receiverOfRecord)
      .leftJoin(scannedBy, scannerOfRecord)
      .getSQL(),
  ));

/**
 * The whole list's first page in an order other than the default, as one
 * statement's tail: the page's ids in that order as a derived table (a select
 * of records and their parties, so PostgreSQL orders ids, not the large
 * select's rows), joined to the record select with the organization's count,
 * ordered again. One round trip and one plan kept per connection, where the
 * ids' select was planned on every request and the rows came in a second
 * statement (list-performance.md, "One-statement pages"). Rendered once per order
 * (compileOrderBy answers the same array for the same order) and page size
 * (written as a constant), at most MAX_PREPARED of them in all; undefined for
 * the others, which take two statements as before.
 */
const orderedFirstPageTails = new WeakMap<SQL[], Map<number, RenderedTemplate<'org'>>>();
let orderedFirstPageTailCount = 0;
function orderedFirstPageTailOf(db: Db, q: RecordListQuery) {
  let bySize = orderedFirstPageTails.get(q.orderBy);
  let tail = bySize?.get(q.page.size);
  if (tail === undefined && orderedFirstPageTailCount < MAX_PREPARED) {
    const org = sql.placeholder('org');
    const order = sql.join([...q.orderBy, desc(records.id)], sql`, `);
    tail = renderedTemplate<'org'>(
      pageOfHits(
        orderedIdsHeadOf(db),
        eq(records.organizationId, org),
        order,
        sql.raw(`limit ${Math.trunc(q.page.size)}`),
        org,
        sql`cross join ${recordCountOf(org)}`,
      ),
    );
    if (bySize === undefined) orderedFirstPageTails.set(q.orderBy, (bySize = new Map()));
    bySize.set(q.page.size, tail);
    orderedFirstPageTailCount += 1;
  }
  return tail;
}

/** The record select with a dashboard card's kept count joined (`kept`). */
const cardViewsCompiled = recordViewsWith({ keptTotal: sql<number>`"kept"."total"` });

/**
 * A dashboard card's first page (`cardFilter`) in one prepared statement:
 * the page's ids in order as a derived table, joined to the record select
 * with the card's kept count, ordered again (as `orderedFirstPageTailOf`).
 * One round trip and a plan kept per connection, where the ids were planned
 * on every request and the rows came in a second statement
 * (list-performance.md, "One-statement pages"). Its tail is rendered per request
 * (the filter is the request's); undefined when the select has named
 * MAX_PREPARED other texts (then two statements, as before).
 */
async function listCardPage(
  db: Db,
  organizationId: string,
  q: RecordListQuery,
  keptTotal: SQL<number>,
): Promise<Paged<RecordView> | undefined> {
  const tail = renderSql(
    pageOfHits(
      orderedIdsHeadOf(db),
      and(eq(records.organizationId, organizationId), ...q.conditions),
      sql.join([...q.orderBy, desc(records.id)], sql`, `),
      sql.raw(`limit ${Math.trunc(q.page.size)}`),
      organizationId,
      sql`cross join (select ${keptTotal} as total) "kept"`,
    ),
  );
  const rows = await cardViewsCompiled.runNamed(db, tail);
  if (rows === undefined) return undefined;
  // No row: none match (the first page is empty only then).
  if (rows.length === 0) return { total: 0, rows: [] };
  return { total: rows[0]!.keptTotal, rows: rows.map(toRecordView) };
}

/** The number of matches as a window count over the page's own scan. */
const WINDOW_TOTAL = sql<number>`(count(*) over ())::int`;

/**
 * The page's record ids in order, each with the number of matches (by
 * default a window count over the same scan); `withTid`: and each one's row
 * version (`tid`, for `pageOfHits`).
 */
function pageIdsOfRecords(db: Db, total: SQL<number> = WINDOW_TOTAL, withTid = false) {
  return db
    .select({
      id: records.id,
      ...(withTid ? { tid: TUPLE_ID.as('tid') } : {}),
      total: total.as('total'),
    })
    .from(records)
    .leftJoin(shipper, shipperOfRecord)
    .leftJoin(receiver, receiverOfRecord)
    .leftJoin(scannedBy, scannerOfRecord)
    .$dynamic();
}

/**
 * A filtered or searched page, or the whole list in another order than the
 * default, in two statements: the page's ids in order with the count of all
 * matches (`total`: a window count over the same scan, or a maintained count;
 * planned for its values, as a filter's or a word's selectivity decides the
 * plan), then the page's rows by
 * id through one prepared statement (fixed text, a primary-key plan for any
 * value), so the large select is never planned per request.
 */
async function listMatchingRecords(
  db: Db,
  organizationId: string,
  q: RecordListQuery,
  total: SQL<number>,
): Promise<Paged<RecordView>> {
  const where = and(eq(records.organizationId, organizationId), ...q.conditions);
  const offset = q.page.offset;
  const hits = await pageIdsOfRecords(db, total)
    .where(where)
    .orderBy(...q.orderBy, desc(records.id))
    .limit(q.page.size)
    .offset(offset);
  if (hits.length === 0) {
    // No row to carry the count: none match, or the page is past the last one.
    if (offset === 0) return { total: 0, rows: [] };
    const [counted] =
      total === WINDOW_TOTAL
        ? await countRecords(db).where(where)
        : (await db.execute<{ n: number }>(sql`select ${total} as n`)).rows;
    return { total: counted?.n ?? 0, rows: [] };
  }
  return {
    total: hits[0]!.total,
    rows: await recordViewsByIds(
      db,
      organizationId,
      hits.map((h) => h.id),
    ),
  };
}

/** The views of the organization's records `ids`, in that order, through one prepared statement. */
async function recordViewsByIds(
  db: Db,
  organizationId: string,
  ids: number[],
): Promise<RecordView[]> {
  if (ids.length === 0) return [];
  const rows = await recordViewsCompiled.run(
    db,
    sql`where ${records.organizationId} = ${organizationId} and ${records.id} = any(${sql.param(ids)}::bigint[])`,
    { prepared: true },
  );
  return inOrderOf(ids, rows, (r) => r.record.id).map(toRecordView);
}

/** The record select with the page's hits joined (`hits`: their ids, order and count). */
const searchViewsCompiled = recordViewsWith({ hitTotal: sql<number>`"hits"."total"` });

/** The searched page's subquery without its WHERE and ORDER BY, rendered once (the first search). */
let searchHitsHead: SQL | undefined;
const searchHitsHeadOf = (db: Db) =>
  (searchHitsHead ??= renderedOnce(pageIdsOfRecords(db, WINDOW_TOTAL, true).getSQL()));

/**
 * The searched page's tail for an order (the same terms: compileOrderBy
 * answers the same array for the same order), rendered once
 * (compiled-select.ts `renderedTemplate`): its condition (`where`, built per
 * request), page and organization are its values.
 */
const searchedTails = new WeakMap<SQL[], RenderedTemplate<'where' | 'size' | 'offset' | 'org'>>();
function searchedTailOf(db: Db, orderBy: SQL[]) {
  let tail = searchedTails.get(orderBy);
  if (tail === undefined) {
    const order = sql.join([...orderBy, desc(records.id)], sql`, `);
    // The page bound as `(SELECT $n)` too: a known LIMIT makes the custom plans cheaper than the generic one.
    const page = sql`limit (select ${sql.placeholder('size')}::bigint) offset (select ${sql.placeholder('offset')}::bigint)`;
    // The hits as `pageIdsOfRecords(db, WINDOW_TOTAL, true).where(where).orderBy(...order)` renders them.
    tail = renderedTemplate(
      pageOfHits(
        searchHitsHeadOf(db),
        sql.placeholder('where'),
        order,
        page,
        sql.placeholder('org'),
      ),
    );
    searchedTails.set(orderBy, tail);
  }
  return tail;
}

/**
 * A searched page whose condition holds one plan for any value (search.ts
 * `planStable`) in one prepared statement: the page's ids with the count of
 * all matches (`pageIdsOfRecords`) as a derived table, joined to the record
 * select and ordered again (20 rows). PostgreSQL keeps its generic plan, so
 * neither the search nor the large select is planned per request, and the
 * page costs one round trip instead of two (docs/decisions/list-performance.md,
 * "Search statement").
 */
async function listSearchedRecords(
  db: Db,
  organizationId: string,
  q: RecordListQuery,
  search: SearchCondition,
): Promise<Paged<RecordView> | undefined> {
  const where = and(
    eq(records.organizationId, organizationId),
    ...q.conditions,
    search.condition,
    search.gate,
  );
  const rows = await searchViewsCompiled.run(
    db,
    searchedTailOf(db, q.orderBy).sql({
      where: where!,
      size: q.page.size,
      offset: q.page.offset,
      org: organizationId,
    }),
    { prepared: true },
  );
  if (rows.length > 0) return { total: rows[0]!.hitTotal, rows: rows.map(toRecordView) };
  // No row to carry the count: none match, or the page is past the last one
  // (or, with a gate, the gate failed).
  if (search.gate) return undefined;
  if (q.page.offset === 0) return { total: 0, rows: [] };
  return { total: (await countRecords(db).where(where))[0]?.n ?? 0, rows: [] };
}

export async function listRecordReferences(db: Db, organizationId: string) {
  return db
    .select({ id: records.id, tagId: records.tagId, tagSerialNumber: records.tagSerialNumber })
    .from(records)
    .where(eq(records.organizationId, organizationId))
    .orderBy(desc(records.id));
}

/** The rows of those of `ids` that are records of the organization. */
export async function recordsByIds(
  db: Db,
  organizationId: string,
  ids: readonly number[],
): Promise<RecordRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(records)
    .where(and(eq(records.organizationId, organizationId), inArray(records.id, [...ids])));
}

/** `ids` (all records of the organization) sorted by `orderBy`. */
export async function orderRecordIds(
  db: Db,
  organizationId: string,
  ids: readonly number[],
  orderBy: SQL[],
): Promise<number[]> {
  const rows = await db
    .select({ id: records.id })
    .from(records)
    .leftJoin(shipper, shipperOfRecord)
    .leftJoin(receiver, receiverOfRecord)
    .leftJoin(scannedBy, scannerOfRecord)
    .where(and(eq(records.organizationId, organizationId), inArray(records.id, [...ids])))
    .orderBy(...orderBy, desc(records.id));
  return rows.map((r) => r.id);
}

export { findLatestRecordOfTag, findRecord } from './record-views';
export * from './scan-views';
export * from './tag-views';
export * from './alarm-views';
export * from './statistics';
