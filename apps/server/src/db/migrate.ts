import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { installJobQueueSchema } from '../jobs/queue';
import type { Database } from './client';

export const MIGRATIONS_FOLDER = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../drizzle',
);

/** Apply the committed SQL migrations of `apps/server/drizzle/`, then pg-boss's own tables (idempotent). */
export async function runMigrations(db: Database): Promise<void> {
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  await installJobQueueSchema(db);
}
