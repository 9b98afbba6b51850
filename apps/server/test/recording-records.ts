import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { inject } from 'vitest';
import type { Database } from '../src/db/client';
import { createListsService } from '../src/modules/lists/service';
import type { TestApp, TestOrg } from './helpers';

/** A statement the service sent: its text, values and name (a prepared statement's). */
export interface SentStatement {
  text: string;
  values?: unknown[] | undefined;
  name?: string | undefined;
}

/**
 * The list calls of `org`'s reader on one connection of its own, which
 * records every statement it sends (`sent`, emptied with `clear()`): its
 * prepared statements can be read back in pg_prepared_statements, and a
 * statement explained with the values it was sent with.
 */
export function recordingRecords(t: TestApp, org: TestOrg) {
  const pool = new pg.Pool({
    connectionString: `${inject('pgAppBaseUrl')}/${t.databaseName}`,
    max: 1,
  });
  const sent: SentStatement[] = [];
  const recording = new Proxy(pool, {
    get(target, key, receiver) {
      if (key !== 'query') return Reflect.get(target, key, receiver) as unknown;
      return (config: string | { text: string; name?: string }, values?: unknown[]) => {
        sent.push(typeof config === 'string' ? { text: config, values } : { ...config, values });
        return (target.query as (...a: unknown[]) => unknown)(config, values);
      };
    },
  });
  return {
    pool,
    sent,
    /** The organization the list calls work in. */
    organizationId: org.id,
    service: createListsService(drizzle({ client: recording }) as unknown as Database),
    clear: () => void sent.splice(0),
    /** EXPLAIN (`options`, FORMAT JSON) of a statement sent, with its values: the plan's root. */
    async explain<Node>(statement: SentStatement, options = ''): Promise<Node> {
      const { rows } = await pool.query<{ 'QUERY PLAN': [{ Plan: Node }] }>(
        `EXPLAIN (${options ? `${options}, ` : ''}FORMAT JSON) ${statement.text}`,
        statement.values,
      );
      return rows[0]!['QUERY PLAN'][0].Plan;
    },
  };
}
