import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { metrics } from '../observability/metrics';
import * as baseSchema from './schema';
import * as alarmMailSchema from './schema-alarm-mail';
import * as accessSchema from './schema-access';
import * as auditSchema from './schema-audit';
import * as auditReviewSchema from './schema-audit-review';
import * as evidenceSchema from './schema-evidence';
import * as mailSchema from './schema-mail';
import * as notificationsSchema from './schema-notifications';
import * as reportsSchema from './schema-reports';
import * as shipmentSchema from './schema-shipments';

/** Every schema file (one per capability: add yours here and in drizzle.config.ts's glob). */
const schema = {
  ...baseSchema,
  ...shipmentSchema,
  ...auditSchema,
  ...auditReviewSchema,
  ...evidenceSchema,
  ...mailSchema,
  ...reportsSchema,
  ...alarmMailSchema,
  ...accessSchema,
  ...notificationsSchema,
};

export type Database = NodePgDatabase<typeof schema>;
/** A transaction handle (what `db.transaction(async (tx) => ...)` passes). */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Repository functions that may run inside a transaction take this. */
export type Db = Database | Transaction;

export interface DatabaseHandle {
  db: Database;
  pool: pg.Pool;
  /** Ends the pool (idempotent). Call it before stopping an embedded PostgreSQL. */
  close(): Promise<void>;
}

interface ErrorLogger {
  error(obj: object, msg: string): void;
}

/** How long a request waits for a connection before it answers 503 (the database unreachable or every connection busy). */
export const CONNECT_TIMEOUT_MS = 5_000;

/**
 * A pool and its Drizzle instance. A connection's error (PostgreSQL stopped,
 * restarted or killed) is logged, never thrown: the pool drops that
 * connection and opens a new one for the next query, so the server outlives
 * its database and recovers by itself when it is back (the request that was
 * using it fails with the error, answered 503 by `http/errors.ts`).
 */
export function openDatabase(
  connectionString: string,
  opts: { max?: number; log?: ErrorLogger } = {},
): DatabaseHandle {
  const pool = new pg.Pool({
    connectionString,
    max: opts.max ?? 10,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  const logError = (err: Error, msg: string) => {
    metrics.databaseError();
    if (opts.log) opts.log.error({ err }, msg);
  };
  pool.on('error', (err) => logError(err, 'idle database connection lost'));
  // pool.end() resolves before its clients' sockets have closed; PostgreSQL
  // stopped in that gap terminates them (57P01). Track them to wait for real.
  const open = new Set<pg.PoolClient>();
  pool.on('connect', (client) => {
    open.add(client);
    // A client checked out of the pool emits its errors itself (no pool listener then):
    // without this, a connection lost between two queries of a transaction ends the process.
    client.on('error', (err) => {
      if (!open.has(client)) return;
      logError(err, 'database connection lost');
    });
  });
  pool.on('remove', (client) => open.delete(client));
  const db = drizzle({ client: pool, schema });
  let closed: Promise<void> | undefined;
  return {
    db,
    pool,
    close: () =>
      (closed ??= (async () => {
        await pool.end();
        for (let waited = 0; open.size > 0 && waited < 5_000; waited += 10) {
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })()),
  };
}
