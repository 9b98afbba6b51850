import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { installJobQueueSchema, JOB_SCHEMA } from '../jobs/queue';
import type { Database, Db } from './client';

/**
 * The server package's folder (apps/server): the nearest folder above this
 * module with a package.json. Found by walking up, so it is the same from the
 * source (src/db/migrate.ts) and from the build (dist/server.js).
 */
function serverPackageDir(from = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}

export const MIGRATIONS_FOLDER = path.join(serverPackageDir(), 'drizzle');

/** Apply the committed SQL migrations of `apps/server/drizzle/`, then pg-boss's own tables (idempotent). */
export async function runMigrations(db: Database): Promise<void> {
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  await installJobQueueSchema(db);
}

/** The schema version this pg-boss creates (its `version.json`). */
function jobQueueSchemaVersion(): number {
  const require = createRequire(import.meta.url);
  return (require('pg-boss/version.json') as { schema: number }).schema;
}

/** PostgreSQL's "insufficient privilege", also wrapped (Drizzle's DrizzleQueryError has it as `cause`). */
function permissionDenied(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if ((e as { code?: unknown }).code === '42501') return true;
  }
  return false;
}

/** Thrown when the database lacks migrations start-up may not (or cannot) apply. */
export class PendingMigrationsError extends Error {
  constructor(
    readonly pending: string[],
    why: string,
    options?: { cause: unknown },
  ) {
    super(`${why}: ${pending.length} pending: ${pending.join(', ')}`, options);
    this.name = 'PendingMigrationsError';
  }
}

/**
 * The migrations the database lacks, by name (`0006_record_aggregates`, and
 * `pg-boss schema 24` when pg-boss's tables are missing or older), read with
 * the rights of the application role: it may read Drizzle's journal
 * (`applyGrants`) and pg-boss's version table. Empty: nothing to migrate.
 * Drizzle applies a migration when it is newer than the newest one recorded;
 * this applies the same rule.
 */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const journal = JSON.parse(
    readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { tag: string; when: number }[] };
  const pending: string[] = [];
  try {
    const exists = await db.execute<{ t: string | null }>(
      sql`SELECT to_regclass('drizzle.__drizzle_migrations')::text AS t`,
    );
    let newest = -Infinity;
    if (exists.rows[0]?.t != null) {
      const last = await db.execute<{ created_at: string | null }>(
        sql`SELECT max(created_at)::text AS created_at FROM drizzle.__drizzle_migrations`,
      );
      const value = last.rows[0]?.created_at;
      if (value != null) newest = Number(value);
    }
    pending.push(...journal.entries.filter((e) => e.when > newest).map((e) => e.tag));
    const boss = await db.execute<{ t: string | null }>(
      sql`SELECT to_regclass(${`${JOB_SCHEMA}.version`})::text AS t`,
    );
    const wanted = jobQueueSchemaVersion();
    let have = 0;
    if (boss.rows[0]?.t != null) {
      const version = await db.execute<{ version: string }>(
        sql.raw(`SELECT version FROM ${JOB_SCHEMA}.version`),
      );
      have = Number(version.rows[0]?.version ?? 0);
    }
    if (have < wanted) pending.push(`pg-boss schema ${wanted}`);
  } catch (err) {
    if (permissionDenied(err)) {
      throw new Error(
        'The database role of DATABASE_URL may not read the migrations journal ' +
          '(drizzle.__drizzle_migrations): start once with the owner role as ' +
          'MIGRATION_DATABASE_URL, which grants it',
        { cause: err },
      );
    }
    throw err;
  }
  return pending;
}

/**
 * What a start does about migrations (under the start-up lock), on `db`:
 * the owner role's connection when there is one, else DATABASE_URL's.
 *
 * - `migrate` false (MIGRATE=false): migrates nothing; any migration pending
 *   is an error naming it (another instance, or a deploy step, migrates).
 * - as the owner: applies whatever is pending (idempotent).
 * - otherwise (DATABASE_URL alone): nothing pending, nothing done, so the
 *   application role alone can start on a database migrated by another;
 *   something pending is applied as DATABASE_URL's role (a one-role setup),
 *   and a role without the rights to do so gets an error naming the migrations.
 *
 * Returns whether it migrated.
 */
export async function migrateAtStart(
  db: Database,
  opts: { migrate: boolean; asOwner: boolean },
): Promise<boolean> {
  if (opts.migrate && opts.asOwner) {
    await runMigrations(db);
    return true;
  }
  const pending = await pendingMigrations(db);
  if (pending.length === 0) return false;
  if (!opts.migrate) {
    throw new PendingMigrationsError(
      pending,
      'MIGRATE=false, but the database lacks migrations: migrate it first ' +
        '(start one instance without MIGRATE=false, with the owner role as MIGRATION_DATABASE_URL)',
    );
  }
  try {
    await runMigrations(db);
  } catch (err) {
    if (permissionDenied(err)) {
      throw new PendingMigrationsError(
        pending,
        'The database lacks migrations and the role of DATABASE_URL may not apply them: ' +
          'give the owner role as MIGRATION_DATABASE_URL',
        { cause: err },
      );
    }
    throw err;
  }
  return true;
}
