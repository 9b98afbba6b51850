import { sql, type SQL } from 'drizzle-orm';
import type { PreparedQueryConfig } from 'drizzle-orm/pg-core';
import type { Db } from './client';
import { statementNames } from './compiled-select';
import { renderSql } from './render-sql';

/** Most texts named here; the others go unnamed (each connection keeps every text it has prepared). */
export const MAX_NAMED_QUERIES = 64;

const nameOf = statementNames('nq', MAX_NAMED_QUERIES);

/**
 * The rows of `query` sent as a named (server-side) prepared statement, so
 * each connection parses it once and PostgreSQL may keep one plan for it
 * instead of planning it on every call. Only for a text whose plan holds for
 * any value bound (write lists as one array parameter, not one parameter
 * each, so the text stays the same).
 */
export async function namedQuery<Row>(db: Db, query: SQL): Promise<Row[]> {
  const { sql: text, params } = renderSql(query);
  const statement = db._.session.prepareQuery<PreparedQueryConfig & { execute: { rows: Row[] } }>(
    { sql: text, params },
    undefined,
    nameOf(text),
    false,
  );
  return (await statement.execute()).rows;
}

/**
 * A value bound as `(SELECT $n::type)`, for a named statement whose plan
 * holds for any value: PostgreSQL estimates a subquery's value as unknown
 * (an InitPlan), as its generic plan estimates every `$n`. After five calls
 * it keeps the generic plan only if that is estimated no dearer than the
 * plans it made for the values; a value that makes those estimates much
 * cheaper (an empty span, `created >= $a AND created < $a`) keeps it
 * planning the statement on every call. Bind such values with this.
 * Index conditions still take the value; each costs an InitPlan, so bind
 * only those that decide (list-performance.md, "Plan-stable values").
 */
export const planStableParam = (
  value: unknown,
  type: 'uuid' | 'date' | 'timestamptz' | 'bigint' | 'text' | 'bigint[]',
) => sql`(SELECT ${value}::${sql.raw(type)})`;
