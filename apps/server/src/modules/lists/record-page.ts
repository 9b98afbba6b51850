import { desc, eq, sql, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { records } from '../../db/schema-shipments';
import {
  receiver,
  receiverOfRecord,
  recordViewRow,
  scannedBy,
  scannerOfRecord,
  shipper,
  shipperOfRecord,
} from '../records';

/**
 * The one page shape of the records list (docs/decisions/list-performance.md,
 * "One-statement pages"): the page's hits (each match's row version and the
 * number of matches, where `where`, in the list's order, the page) as a
 * derived table `hits`, joined by row version to the record select, ordered
 * again: one statement, one round trip. The hits' select joins the parties
 * (a filter or order may name them) but selects no view field, so PostgreSQL
 * orders ids, not the large select's rows, and evaluates the view for the
 * page's rows only.
 */

/** The number of matches as a window count over the page's own scan. */
export const WINDOW_TOTAL = sql<number>`(count(*) over ())::int`;

/**
 * A hit's row version (its tuple id): the page's select reads each hit's row
 * by it, as it was read for the page in the same statement (the statement's
 * one snapshot), instead of looking its id up in the primary key again:
 * twenty index descents on cold pages were a tenth of the search's time in
 * PostgreSQL (list-performance.md, "One-statement pages").
 */
const TUPLE_ID = sql<string>`${records}.ctid`;

export interface PageOfRecords {
  organizationId: string | Placeholder;
  /** Every condition but the organization's (which the page adds). */
  where: SQL | undefined;
  orderBy: SQL[];
  /**
   * `limit …` (and `offset …`): a named statement writes its page size as a
   * constant (`pageOf`), so PostgreSQL plans for it (a generic plan takes an
   * unknown LIMIT for a tenth of the matches).
   */
  page: SQL;
  /** The number of matches: WINDOW_TOTAL, or a kept count (a scalar subquery). */
  total: SQL<number>;
  /** The organization's number of count rows, read with the page to fold them (the whole list). */
  countRows?: SQL<number> | undefined;
}

/** `limit size offset offset`, the size written as a constant (its offset too when 0). */
export const pageOf = (size: number, offset: number | Placeholder): SQL =>
  offset === 0
    ? sql.raw(`limit ${Math.trunc(size)}`)
    : sql`limit ${sql.raw(String(Math.trunc(size)))} offset ${offset}`;

/** The page's select: its rows as `{ row, total, countRows }`. */
export function pageOfRecords(db: Db, p: PageOfRecords) {
  const order = sql.join([...p.orderBy, desc(records.id)], sql`, `);
  const where = p.where
    ? sql`${eq(records.organizationId, p.organizationId)} and ${p.where}`
    : eq(records.organizationId, p.organizationId);
  const hits = db
    .select({
      tid: TUPLE_ID.as('tid'),
      total: p.total.as('total'),
      countRows: (p.countRows ?? sql<number>`0`).as('count_rows'),
    })
    .from(records)
    .leftJoin(shipper, shipperOfRecord)
    .leftJoin(receiver, receiverOfRecord)
    .leftJoin(scannedBy, scannerOfRecord)
    .where(where);
  return db
    .select({
      row: recordViewRow,
      total: sql<number>`"hits"."total"`,
      countRows: sql<number>`"hits"."count_rows"`,
    })
    .from(records)
    .leftJoin(shipper, shipperOfRecord)
    .leftJoin(receiver, receiverOfRecord)
    .leftJoin(scannedBy, scannerOfRecord)
    .innerJoin(
      sql`(${hits.getSQL()} order by ${order} ${p.page}) "hits"`,
      sql`${TUPLE_ID} = "hits"."tid"`,
    )
    .where(eq(records.organizationId, p.organizationId))
    .orderBy(order);
}
