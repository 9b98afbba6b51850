import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as baseSchema from './schema';
import * as alarmMailSchema from './schema-alarm-mail';
import * as accessSchema from './schema-access';
import * as auditSchema from './schema-audit';
import * as mailSchema from './schema-mail';
import * as notificationsSchema from './schema-notifications';
import * as reportsSchema from './schema-reports';
import * as shipmentSchema from './schema-shipments';

/** Every schema file (one per capability: add yours here and in drizzle.config.ts's glob). */
const schema = {
  ...baseSchema,
  ...shipmentSchema,
  ...auditSchema,
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

/** A pool and its Drizzle instance. An idle client's error (e.g. the server restarting) is logged, never thrown. */
export function openDatabase(
  connectionString: string,
  opts: { max?: number; log?: ErrorLogger } = {},
): DatabaseHandle {
  const pool = new pg.Pool({ connectionString, max: opts.max ?? 10 });
  pool.on('error', (err) => {
    if (opts.log) opts.log.error({ err }, 'idle database client error');
  });
  // pool.end() resolves before its clients' sockets have closed; PostgreSQL
  // stopped in that gap terminates them (57P01). Track them to wait for real.
  const open = new Set<pg.PoolClient>();
  pool.on('connect', (client) => open.add(client));
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
