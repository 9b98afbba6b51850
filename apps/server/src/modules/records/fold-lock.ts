import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';

/** Fold an organization's count rows into one once it has more than this many. */
export const COUNT_ROWS_TO_FOLD = 64;

/**
 * Run a fold (a DELETE … RETURNING of count rows and the INSERT of their sums)
 * in a transaction holding the advisory lock named `key`, or not at all when
 * another transaction holds it (that one is folding the same rows).
 */
export async function foldUnderLock(db: Db, key: string, fold: SQL): Promise<void> {
  await db.transaction(async (tx) => {
    const lock = await tx.execute<{ ok: boolean }>(
      sql`SELECT pg_try_advisory_xact_lock(hashtextextended(${key}, 0)) AS ok`,
    );
    if (lock.rows[0]?.ok) await tx.execute(fold);
  });
}

/**
 * One pass of the count-fold job over a pair of kept tables: the
 * organizations with more than COUNT_ROWS_TO_FOLD rows in `whole.table` are
 * folded whole (`whole.fold`), and for each organization the buckets
 * (`touched.column`: hours, days) that rows written after row `since` of
 * `touched.table` fall in (its primary key: the cost follows the rows written
 * since the last run, not the table). Answers the counts and the last row id
 * seen, the next run's `since` (0: every row). A row written by a transaction
 * still open at the run, with a lower id, is left unfolded (what it adds
 * counts all the same); the next row in its bucket, or a read of it, folds it.
 */
export async function foldTouchedSince(
  db: Db,
  since: number,
  whole: { table: string; fold(organizationId: string): Promise<void> },
  touched: {
    table: string;
    column: string;
    fold(organizationId: string, buckets: string[]): Promise<void>;
  },
): Promise<{ organizations: number; touched: number; through: number }> {
  const piled = await db.execute<{ organization_id: string }>(sql`
    SELECT organization_id FROM ${sql.identifier(whole.table)}
    GROUP BY organization_id HAVING count(*) > ${COUNT_ROWS_TO_FOLD}`);
  for (const { organization_id } of piled.rows) await whole.fold(organization_id);
  const column = sql.identifier(touched.column);
  const rows = await db.execute<{
    organization_id: string;
    buckets: string[];
    through: string;
  }>(sql`
    SELECT organization_id, array_agg(DISTINCT ${column}::text) AS buckets, max(id)::text AS through
    FROM ${sql.identifier(touched.table)} WHERE id > ${since} GROUP BY organization_id`);
  let through = since;
  for (const row of rows.rows) {
    await touched.fold(row.organization_id, row.buckets);
    through = Math.max(through, Number(row.through));
  }
  return { organizations: piled.rows.length, touched: rows.rows.length, through };
}
