import { sql, type SQL } from 'drizzle-orm';
import type { Db } from './client';

/**
 * Named statements (docs/decisions/list-performance.md, "Named statements"):
 * a statement sent under a name is parsed once per connection, and
 * PostgreSQL may keep one generic plan for it instead of planning it on every
 * call. Only for a text whose plan holds for any value bound (ids, an
 * organization; page sizes written as constants, lists as one array). They
 * go through Drizzle's own `.prepare(name)`, with `sql.placeholder(…)` for
 * the values; one name is always one text.
 */

/**
 * A statement prepared once per database handle (a Drizzle prepared query is
 * bound to the handle's pool or transaction): `build(db)` is the query with
 * its `.prepare(name)`; run it with `.execute({ …placeholders })`.
 */
export function preparedOnce<P>(build: (db: Db) => P): (db: Db) => P {
  const byDb = new WeakMap<Db, P>();
  return (db) => {
    let prepared = byDb.get(db);
    if (prepared === undefined) {
      prepared = build(db);
      byDb.set(db, prepared);
    }
    return prepared;
  };
}

/**
 * A statement of raw SQL as a select Drizzle can prepare: `select <fields>
 * from (<query>) "q"`, each field a column of `query` (`q."name"`).
 */
export function selectFrom<F extends Record<string, SQL>>(db: Db, fields: F, query: SQL) {
  return db.select(fields).from(sql`(${query}) "q"`);
}

/** Column `name` of `selectFrom`'s query, typed. */
export const column = <T>(name: string) => sql<T>`"q".${sql.identifier(name)}`;

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
