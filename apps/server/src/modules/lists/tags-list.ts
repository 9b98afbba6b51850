import { and, count, desc, eq, isNotNull, notExists, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { TTagExtended } from '@coldtrace/contract';
import { inOrderOf, pageOf, type Listed, type Page, type PageQuery } from '../../kernel/paging';
import { tagLatestRecords } from '../../db/schema-record-counts';
import { records, tags } from '../../db/schema-shipments';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { jsonRow } from '../../db/json-rows';
import { column, planStableParam, preparedOnce, selectFrom } from '../../db/named-query';
import {
  calibrationAt,
  compileFilter,
  compileOrderBy,
  DEFAULT_ORDER_BY,
  isFallbackOrder,
  presentTag,
  TAG_FIELDS,
  lastReceiver,
  lastRecord,
  lastShipper,
  organizationCounts,
  partyOf,
  type TagView,
} from '../records';
import type { Paged } from './paged';

/** The tag lists (`GET details/`, `GET sensors/`): tags with their latest record. */

/**
 * The latest record of the tag in its organization (the highest id), for the
 * tag list: a LATERAL probe per tag through records_org_tag_id_idx, named
 * `last_record` like the alias the tag fields (`TAG_FIELDS`) use. As a join
 * condition (`last_record.id = (SELECT max(id) …)`) the planner hashed every
 * record of the database against the tags: 14–17 s on 1,000,000 records
 * (docs/decisions/list-performance.md, "Tag list").
 */
const lastRecordLateral = (db: Db) =>
  db
    .select()
    .from(records)
    .where(and(eq(records.tagId, tags.id), eq(records.organizationId, tags.organizationId)))
    // As the index orders it (NULLS LAST): with `id DESC` alone (NULLS FIRST) the
    // planner read every record of the tag and sorted them (1.5 s for 50,000 tags).
    // The LIMIT written as a constant: the views' select holds no bound value.
    .orderBy(sql`${records.id} DESC NULLS LAST LIMIT 1`)
    .as('last_record');
const shipperOfLastRecord = partyOf(lastShipper, lastRecord.shipperLocationId, tags.organizationId);
const receiverOfLastRecord = partyOf(
  lastReceiver,
  lastRecord.receiverLocationId,
  tags.organizationId,
);

const tagViewSelection = {
  tag: tags,
  last: lastRecord,
  lastShipperId: lastShipper.id,
  lastShipperName: lastShipper.name,
  lastReceiverId: lastReceiver.id,
  lastReceiverName: lastReceiver.name,
  calibrationNow: calibrationAt(tags.organizationId, tags.id, sql`now()`),
};

function selectTagViews(db: Db) {
  return db
    .select(tagViewSelection)
    .from(tags)
    .leftJoinLateral(lastRecordLateral(db), sql`true`)
    .leftJoin(lastShipper, shipperOfLastRecord)
    .leftJoin(lastReceiver, receiverOfLastRecord)
    .$dynamic();
}

type TagViewRow = Awaited<ReturnType<ReturnType<typeof selectTagViews>['execute']>>[number];

/** The tag view as one JSON array a row (db/json-rows.ts); `last` is null for a tag without a record. */
const tagViewRow = jsonRow<TagViewRow>(
  tagViewSelection,
  ((db: Db, fields: SelectedFields) =>
    db
      .select(fields)
      .from(tags)
      .leftJoinLateral(lastRecordLateral(db), sql`true`)
      .leftJoin(lastShipper, shipperOfLastRecord)
      .leftJoin(lastReceiver, receiverOfLastRecord)) as never,
  { nullable: ['last'] },
);

/** A page's tags by id: one named statement (its ids bound as one array). */
const tagViewsByIds = preparedOnce((db) =>
  db
    .select({ row: tagViewRow })
    .from(tags)
    .leftJoinLateral(lastRecordLateral(db), sql`true`)
    .leftJoin(lastShipper, shipperOfLastRecord)
    .leftJoin(lastReceiver, receiverOfLastRecord)
    .where(
      and(
        eq(tags.organizationId, sql.placeholder('org')),
        sql`${tags.id} = any(${sql.placeholder('ids')}::bigint[])`,
      ),
    )
    .prepare('tag_views_by_ids'),
);

/** The tags a condition keeps; without one, the organization's tags alone (no join to count through). */
function countTags(db: Db, condition: SQL | undefined) {
  const count = db
    .select({ n: sql<number>`count(*)::int` })
    .from(tags)
    .$dynamic();
  if (condition === undefined) return count;
  return count
    .leftJoinLateral(lastRecordLateral(db), sql`true`)
    .leftJoin(lastShipper, shipperOfLastRecord)
    .leftJoin(lastReceiver, receiverOfLastRecord);
}

function toTagView(row: TagViewRow): TagView {
  return {
    tag: row.tag,
    last: row.last,
    lastShipper: { id: row.lastShipperId, name: row.lastShipperName },
    lastReceiver: { id: row.lastReceiverId, name: row.lastReceiverName },
    calibrationAt: row.calibrationNow,
  };
}

export interface TagListQuery {
  condition?: SQL | undefined;
  orderBy: SQL[];
  /**
   * `orderBy` is the default order (the latest record's last action, newest
   * first): with no condition, a page reads it from tag_latest_records.
   */
  byLastAction?: boolean;
  /** No page: every tag. */
  page?: Page;
}

export async function listTags(
  db: Db,
  organizationId: string,
  q: TagListQuery,
): Promise<Paged<TagView>> {
  if (q.byLastAction && q.condition === undefined && q.page) {
    return listTagsByLastAction(db, organizationId, q.page);
  }
  const where = and(eq(tags.organizationId, organizationId), q.condition);
  if (!q.page) {
    const rows = await selectTagViews(db)
      .where(where)
      .orderBy(...q.orderBy, desc(tags.id));
    return { total: rows.length, rows: rows.map(toTagView) };
  }
  const [count] = await countTags(db, q.condition).where(where);
  const total = count?.n ?? 0;
  if (total === 0 || q.page.offset >= total) return { total, rows: [] };
  const rows = await selectTagViews(db)
    .where(where)
    .orderBy(...q.orderBy, desc(tags.id))
    .limit(q.page.size)
    .offset(q.page.offset);
  return { total, rows: rows.map(toTagView) };
}

/**
 * A page of the tag list in its default order (`-last_action_taken`, then the
 * tag id, newest first) read from tag_latest_records, where triggers keep each
 * tag's latest record and its last action (migration 0022): the page's 20
 * entries of its order index, then their views. Ordering the tags by their
 * latest records took 0.2 s a page at 50,000 tags, as every tag's latest
 * record was read to sort them (docs/decisions/list-performance.md,
 * "Tag list"). The total is the maintained count of the organization's tags.
 */
async function listTagsByLastAction(
  db: Db,
  organizationId: string,
  page: Page,
): Promise<Paged<TagView>> {
  const total = (await organizationCounts(db, organizationId)).tags;
  if (total === 0 || page.offset >= total) return { total, rows: [] };
  const ids = await tagIdsByLastAction(db, organizationId, page);
  if (ids.length === 0) return { total, rows: [] };
  const rows = await tagViewsByIds(db).execute({ org: organizationId, ids });
  return {
    total,
    rows: inOrderOf(ids, rows, (r) => r.row.tag.id).map((r) => toTagView(r.row)),
  };
}

const latest = tagLatestRecords;

/**
 * The page's tags with a last action, named (one plan: the index in order,
 * whatever the page), and ordered as the index is (NULLS LAST on both), so
 * PostgreSQL reads it in order. The page bound plan-stable: a known LIMIT
 * made the plans for the values cheaper than the generic one, and it planned
 * the statement on every call (list-performance.md, "Plan-stable values").
 */
const tagIdsWithAction = preparedOnce((db) =>
  selectFrom(
    db,
    { id: column<string>('id') },
    sql`select ${latest.tagId} as id from ${latest}
      where ${latest.organizationId} = ${sql.placeholder('org')} and ${latest.lastActionTaken} is not null
      order by ${latest.lastActionTaken} DESC NULLS LAST, ${latest.tagId} DESC NULLS LAST
      limit ${planStableParam(sql.placeholder('size'), 'bigint')} offset ${planStableParam(sql.placeholder('offset'), 'bigint')}`,
  ).prepare('tag_ids_by_last_action'),
);

/**
 * The page's tag ids in the default order: first the tags whose latest record
 * has a last action, from the order index; where the page goes past them, the
 * other tags (no record, or a latest record without a last action: NULLS
 * LAST in the list's order), newest tag first.
 */
async function tagIdsByLastAction(db: Db, organizationId: string, page: Page): Promise<number[]> {
  const withAction = and(
    eq(latest.organizationId, organizationId),
    isNotNull(latest.lastActionTaken),
  );
  const first = await tagIdsWithAction(db).execute({
    org: organizationId,
    size: page.size,
    offset: page.offset,
  });
  const ids = first.map((r) => Number(r.id));
  if (ids.length === page.size) return ids;
  const [counted] = await db.select({ n: count() }).from(latest).where(withAction);
  const withActionCount = counted?.n ?? 0;
  const hasAction = db
    .select({ one: sql`1` })
    .from(latest)
    .where(
      and(
        eq(latest.organizationId, tags.organizationId),
        eq(latest.tagId, tags.id),
        isNotNull(latest.lastActionTaken),
      ),
    );
  const rest = await db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.organizationId, organizationId), notExists(hasAction)))
    .orderBy(desc(tags.id))
    .limit(page.size - ids.length)
    .offset(Math.max(0, page.offset - withActionCount));
  return [...ids, ...rest.map((r) => r.id)];
}

/** `GET sensors/`: every tag, in the default order. */
export async function sensorsCall(db: Db, organizationId: string): Promise<TTagExtended[]> {
  const { rows } = await listTags(db, organizationId, {
    orderBy: compileOrderBy(undefined, TAG_FIELDS, DEFAULT_ORDER_BY),
  });
  return rows.map(presentTag);
}

/** `GET details/`: a page of tags, filtered and ordered. */
export async function detailsCall(
  db: Db,
  organizationId: string,
  q: PageQuery & { filter?: string | undefined; order_by?: string[] | undefined },
): Promise<Listed<TTagExtended>> {
  const { total, rows } = await listTags(db, organizationId, {
    condition: compileFilter(q.filter, TAG_FIELDS),
    orderBy: compileOrderBy(q.order_by, TAG_FIELDS, DEFAULT_ORDER_BY),
    byLastAction: isFallbackOrder(q.order_by, DEFAULT_ORDER_BY),
    page: pageOf(q),
  });
  return { total, items: rows.map(presentTag) };
}
