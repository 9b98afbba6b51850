import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import * as schema from './schema';
import type { Database } from './client';

/** Arbitrary constant naming Coldtrace's start-up lock (migrations, seed, pg-boss's queues). */
const STARTUP_LOCK_KEY = 7_240_113;

/**
 * Run `work` while holding a PostgreSQL advisory lock on one connection, so
 * several instances starting together migrate and seed one after the other.
 * `work` receives a Drizzle instance bound to that connection.
 */
export async function withStartupLock<T>(
  pool: pg.Pool,
  work: (db: Database) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [STARTUP_LOCK_KEY]);
    try {
      return await work(drizzle({ client, schema }) as unknown as Database);
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [STARTUP_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
