import { Param, SQL, sql, type SQLWrapper } from 'drizzle-orm';
import type { Db } from '../../db/client';

/**
 * Writes of one upload that need no answer, sent to the database together:
 * each is queued as it is decided and all go as the data-modifying WITH
 * clauses of one statement (one round trip instead of one each).
 *
 * What that allows (PostgreSQL's rules for data-modifying WITH): the
 * statements of one flush run on the same snapshot, so none of them sees
 * another's effect, and no row may be modified by two of them. Queue only
 * writes that are independent of each other (inserts of different rows,
 * updates of different rows, or a statement that reads only what earlier
 * statements of the transaction wrote); a write that must see another one
 * goes in a later flush. Errors (a unique violation, say) surface from the
 * flush with their code and constraint, as from a single statement.
 */
export class WriteBatch {
  private pending: SQL[] = [];

  /** PostgreSQL takes at most 65,535 parameters a statement: a larger batch is split. */
  static readonly MAX_PARAMS = 30_000;

  /** Queue a statement (an INSERT, UPDATE or DELETE; a Drizzle builder or `sql`). */
  add(statement: SQLWrapper | SQL): void {
    this.pending.push('getSQL' in statement ? statement.getSQL() : statement);
  }

  get size(): number {
    return this.pending.length;
  }

  /** Send the queued statements (none: no round trip). */
  async flush(db: Db): Promise<void> {
    if (this.pending.length > 0) await this.run(db, null);
  }

  /**
   * Send the queued statements with `main` as the statement they precede,
   * and answer main's rows (RETURNING). Without `main`, the last queued
   * statement is the main one.
   */
  async run<T extends Record<string, unknown>>(db: Db, main: SQL | null): Promise<T[]> {
    const statements = this.pending;
    this.pending = [];
    const all = main ? [...statements, main] : statements;
    if (all.length === 0) return [];
    // Split by parameter count (rare: an upload's statements carry a few hundred at most).
    const groups: SQL[][] = [[]];
    let params = 0;
    for (const statement of all) {
      const count = paramCount(statement);
      if (params + count > WriteBatch.MAX_PARAMS && groups.at(-1)!.length > 0) {
        groups.push([]);
        params = 0;
      }
      groups.at(-1)!.push(statement);
      params += count;
    }
    let rows: T[] = [];
    for (const group of groups) {
      rows = (await db.execute<T>(combine(group))).rows as T[];
    }
    return rows;
  }
}

/** `with w0 as (s0), w1 as (s1), ... sN`: one statement. */
function combine(statements: readonly SQL[]): SQL {
  const last = statements.at(-1)!;
  if (statements.length === 1) return last;
  const clauses = statements
    .slice(0, -1)
    .map((statement, i) => sql`${sql.raw(`w${i}`)} as (${statement})`);
  return sql`with ${sql.join(clauses, sql`, `)} ${last}`;
}

/** The parameters of a statement (nested ones counted too). */
function paramCount(statement: SQL): number {
  let count = 0;
  const visit = (chunks: readonly unknown[]) => {
    for (const chunk of chunks) {
      if (chunk instanceof Param) count++;
      else if (chunk instanceof SQL) visit(chunk.queryChunks);
      else if (Array.isArray(chunk)) visit(chunk);
      else if (chunk === null || typeof chunk !== 'object') count++;
    }
  };
  visit(statement.queryChunks);
  return count;
}
