import { createHash } from 'node:crypto';
import {
  DEFAULT_PAGE_SIZE,
  type TDispositionFilter,
  type TRecord,
  type TReviewStateFilter,
} from '@coldtrace/contract';
import { parseFilter } from '@coldtrace/domain';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { column, preparedOnce, selectFrom } from '../../db/named-query';
import { tagLatestRecords } from '../../db/schema-record-counts';
import { records } from '../../db/schema-shipments';
import { invalidField } from '../../kernel/errors';
import {
  inOrderOf,
  pageOf as pageOfQuery,
  type Listed,
  type Page,
  type PageQuery,
} from '../../kernel/paging';
import {
  compileFilter,
  compileOrderBy,
  countRowsOf,
  DEFAULT_ORDER_BY,
  dispositionCondition,
  foldCountsIfMany,
  isFallbackOrder,
  keptCountOfFilter,
  keptDecisionTotalOf,
  keptFilterTotalOf,
  latestCountOf,
  latestOfTag,
  organizationCounts,
  presentRecord,
  RECORD_FIELDS,
  recordTotalOf,
  recordViewRow,
  reviewStateCondition,
  countRecords,
  receiver,
  receiverOfRecord,
  scannedBy,
  scannerOfRecord,
  shipper,
  shipperOfRecord,
  toRecordView,
  type RecordView,
} from '../records';
import { pageOf, pageOfRecords, WINDOW_TOTAL } from './record-page';
import type { Paged } from './paged';
import { searchCondition } from './search';

/**
 * The records list (`GET records/`) in three ways: the `latest` list read
 * from `tag_latest_records`, the whole list with its kept count, and one
 * page shape (record-page.ts) for everything else: filters, cards, decisions,
 * the search. Every one reads the page in one statement and its rows as JSON
 * arrays (docs/decisions/list-performance.md, "One-statement pages").
 */

export interface RecordListQuery {
  /** Filters, the disposition and review state, the search's condition. */
  conditions: (SQL | undefined)[];
  /** Only the latest record of each tag (`latest=true`). */
  latest?: boolean | undefined;
  orderBy: SQL[];
  /** `orderBy` is the default order (`-last_action_taken`). */
  byLastAction?: boolean;
  /**
   * The number of matches from the kept counts, when the conditions are one
   * they count (a card's filter, kept-counts.ts `keptCountOfFilter`; a broad
   * decision, review-state.ts `keptDecisionTotalOf`), instead of a count of
   * the matches on every page.
   */
  keptTotal?: SQL<number> | undefined;
  /**
   * The name of a dashboard card's filter alone (its `keptTotal`): its first
   * page in the default order is a named statement, as PostgreSQL reads it
   * the same way for any of the card's values.
   */
  card?: string | undefined;
  page: Page;
}

/** Most rows a page may have and still be named (each size is its own text). */
const MAX_NAMED_PAGE_SIZE = 100;

/** The page of records `q` asks for. */
export async function listRecords(
  db: Db,
  organizationId: string,
  q: RecordListQuery,
): Promise<Paged<RecordView>> {
  const alone = q.conditions.every((c) => c === undefined);
  if (alone && q.latest && q.byLastAction) return latestList(db, organizationId, q.page);
  if (alone && !q.latest) return wholeList(db, organizationId, q);
  const total = alone ? latestCountOf(organizationId) : (q.keptTotal ?? WINDOW_TOTAL);
  const where = and(...q.conditions, q.latest ? latestOfTag : undefined);
  const named =
    q.card !== undefined && q.byLastAction && q.page.offset === 0 && isNamedSize(q.page.size);
  const query = pageOfRecords(db, {
    organizationId,
    where,
    orderBy: q.orderBy,
    page: pageOf(q.page.size, q.page.offset),
    total,
  });
  const rows = await (named
    ? query.prepare(`records_card_${q.card}_${q.page.size}`).execute()
    : query);
  if (rows.length > 0) return { total: rows[0]!.total, rows: rows.map((r) => toRecordView(r.row)) };
  // No row to carry the count: none match, or the page is past the last one.
  if (q.page.offset === 0 && total === WINDOW_TOTAL) return { total: 0, rows: [] };
  const counted = await (total === WINDOW_TOTAL
    ? countRecords(db).where(and(eq(records.organizationId, organizationId), where))
    : db.select({ n: total }).from(sql`(select 1) "one"`));
  return { total: counted[0]?.n ?? 0, rows: [] };
}

const isNamedSize = (size: number) => size <= MAX_NAMED_PAGE_SIZE;

/**
 * The whole list: the page with the kept count (exact) in one statement, not
 * a count(*) over every record (list-performance.md, "Kept counts"). Its
 * first page in the default order is the home list: a named statement, one
 * text per page size (written as a constant), so PostgreSQL keeps one plan
 * for it, an index scan of the page (the default page size's prepared once).
 */
async function wholeList(
  db: Db,
  organizationId: string,
  q: RecordListQuery,
): Promise<Paged<RecordView>> {
  const first = q.byLastAction && q.page.offset === 0 && isNamedSize(q.page.size);
  const rows = await (first && q.page.size === DEFAULT_PAGE_SIZE
    ? homePage(db).execute({ org: organizationId })
    : first
      ? wholeListPage(db, sql.placeholder('org'), q.orderBy, q.page)
          .prepare(`records_whole_${q.page.size}`)
          .execute({ org: organizationId })
      : wholeListPage(db, organizationId, q.orderBy, q.page));
  if (rows.length === 0) {
    // No row to carry the count: no record, or the page is past the last one.
    return { total: (await organizationCounts(db, organizationId)).records, rows: [] };
  }
  await foldCountsIfMany(db, organizationId, rows[0]!.countRows);
  return { total: rows[0]!.total, rows: rows.map((r) => toRecordView(r.row)) };
}

const wholeListPage = (
  db: Db,
  organizationId: Parameters<typeof recordTotalOf>[0],
  orderBy: SQL[],
  page: Page,
) =>
  pageOfRecords(db, {
    organizationId,
    where: undefined,
    orderBy,
    page: pageOf(page.size, page.offset),
    total: recordTotalOf(organizationId),
    countRows: countRowsOf(organizationId),
  });

/** The home list: the whole list's first page of the default size in the default order. */
const homePage = preparedOnce((db) =>
  wholeListPage(db, sql.placeholder('org'), DEFAULT_ORDER, {
    number: 1,
    size: DEFAULT_PAGE_SIZE,
    offset: 0,
  }).prepare('records_home'),
);

/** The default order's terms. */
const DEFAULT_ORDER = compileOrderBy(undefined, RECORD_FIELDS, DEFAULT_ORDER_BY);

/**
 * `latest=true` alone in the default order (`-last_action_taken`, then the
 * record, newest first): the page's record ids read from tag_latest_records'
 * index in that order (migration 0023), the kept action being the record's
 * own, with their count, in one named statement, then their rows by id.
 * Ordering them on records merged every latest record of the organization
 * with the records (45 ms a page at 50,000 tags; list-performance.md,
 * "Latest records").
 */
async function latestList(db: Db, organizationId: string, page: Page): Promise<Paged<RecordView>> {
  const hits = await latestIds(db).execute({
    org: organizationId,
    size: page.size,
    offset: page.offset,
  });
  if (hits.length === 0) {
    // No row to carry the count: no record, or the page is past the last one.
    const [counted] = await latestTotal(db).execute({ org: organizationId });
    return { total: counted?.total ?? 0, rows: [] };
  }
  const ids = hits.map((h) => Number(h.id));
  const rows = await viewsByIds(db).execute({ org: organizationId, ids });
  return {
    total: hits[0]!.total,
    rows: inOrderOf(ids, rows, (r) => r.row.record.id).map((r) => toRecordView(r.row)),
  };
}

const l = tagLatestRecords;

const latestIds = preparedOnce((db) =>
  selectFrom(
    db,
    { id: column<string>('id'), total: column<number>('total') },
    sql`select ${l.recordId} as id, ${latestCountOf(sql.placeholder('org'))} as total from ${l}
      where ${l.organizationId} = ${sql.placeholder('org')}
      order by ${l.lastActionTaken} DESC NULLS LAST, ${l.recordId} DESC NULLS LAST
      limit ${sql.placeholder('size')} offset ${sql.placeholder('offset')}`,
  ).prepare('latest_record_ids'),
);

const latestTotal = preparedOnce((db) =>
  selectFrom(
    db,
    { total: column<number>('total') },
    sql`select ${latestCountOf(sql.placeholder('org'))} as total`,
  ).prepare('latest_record_total'),
);

/** The views of the organization's records `ids` (in no order), through one named statement. */
const viewsByIds = preparedOnce((db) =>
  db
    .select({ row: recordViewRow })
    .from(records)
    .leftJoin(shipper, shipperOfRecord)
    .leftJoin(receiver, receiverOfRecord)
    .leftJoin(scannedBy, scannerOfRecord)
    .where(
      and(
        eq(records.organizationId, sql.placeholder('org')),
        sql`${records.id} = any(${sql.placeholder('ids')}::bigint[])`,
      ),
    )
    .prepare('record_views_by_ids'),
);

/** Most words the search box may send. */
export const MAX_SEARCH_WORDS = 20;

export interface RecordsQuery extends PageQuery {
  filter?: string | undefined;
  search?: string | undefined;
  latest?: boolean | undefined;
  disposition?: TDispositionFilter | undefined;
  review_state?: TReviewStateFilter | undefined;
  order_by?: string[] | undefined;
}

/** `GET records/`: the page, with its filters, search, disposition and review state. */
export async function recordsCall(
  db: Db,
  organizationId: string,
  q: RecordsQuery,
): Promise<Listed<TRecord>> {
  const words = (q.search ?? '').split(/\s+/).filter((w) => w !== '');
  if (words.length > MAX_SEARCH_WORDS) {
    throw invalidField('search', `must have at most ${MAX_SEARCH_WORDS} words`);
  }
  const filter = compileFilter(q.filter, RECORD_FIELDS);
  const orderBy = compileOrderBy(q.order_by, RECORD_FIELDS, DEFAULT_ORDER_BY);
  // A filter alone that the kept counts count (a dashboard card's link),
  // or a decision alone: its total from the kept counts.
  const kept =
    words.length === 0 && !q.latest ? await keptTotalOf(db, q, organizationId) : undefined;
  const listed = await listRecords(db, organizationId, {
    conditions: [
      filter,
      dispositionCondition(q.disposition, organizationId),
      reviewStateCondition(q.review_state, organizationId),
      await searchCondition(db, organizationId, words),
    ],
    keptTotal: kept?.total,
    card: kept?.card,
    latest: q.latest,
    orderBy,
    byLastAction: isFallbackOrder(q.order_by, DEFAULT_ORDER_BY),
    page: pageOfQuery(q),
  });
  return { total: listed.total, items: listed.rows.map(presentRecord) };
}

/**
 * The number of matches of the list's filters from the kept counts, when
 * they are one the counts give: a dashboard card's filter alone
 * (`keptCountOfFilter`; `card`: its name, one per text of its SQL), or a
 * broad decision alone (`keptDecisionTotalOf`). Undefined otherwise (the
 * matches are counted).
 */
async function keptTotalOf(db: Db, q: RecordsQuery, organizationId: string) {
  if (!q.disposition && !q.review_state) {
    const kept = keptCountOfFilter(q.filter);
    if (!kept) return undefined;
    const [item] = parseFilter(q.filter!).items;
    // The item's field, operator and value make its SQL's text: the card's name is their hash.
    const shape = `${item!.field} ${item!.operator} ${String(item!.value).toLowerCase()}`;
    const card = createHash('sha256').update(shape).digest('hex').slice(0, 24);
    return { total: keptFilterTotalOf(organizationId, kept), card };
  }
  if (q.filter !== undefined) return undefined;
  const total = await keptDecisionTotalOf(db, q, organizationId);
  return total && { total, card: undefined };
}
