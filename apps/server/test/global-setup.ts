import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../src/db/embedded';
import { runMigrations } from '../src/db/migrate';
import { applyGrants, EMBEDDED_APP_ROLE } from '../src/db/roles';

/**
 * One throwaway PostgreSQL for the whole server suite: a temp folder, a free
 * port, no durability (fsync off). The migrated template database is cloned
 * per test file by `createTestApp` (`CREATE DATABASE x TEMPLATE ...`).
 * The same two roles as in production (`db/roles.ts`): the template is
 * migrated and granted as the owner role, the apps under test connect as the
 * application role, so a missing grant fails the tests.
 */

export const TEMPLATE_DATABASE = 'coldtrace_template';

declare module 'vitest' {
  export interface ProvidedContext {
    /** postgres://user:pw@127.0.0.1:port (no database), the superuser: creating databases only. */
    pgBaseUrl: string;
    /** The owner role (migrations, and fixtures the application may not write). */
    pgOwnerBaseUrl: string;
    /** The application role: what the apps under test connect as. */
    pgAppBaseUrl: string;
    pgTemplate: string;
  }
}

let cluster: EmbeddedPostgresHandle | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  dataDir = await mkdtemp(path.join(tmpdir(), 'coldtrace-test-pg-'));
  const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
  cluster = await startEmbeddedPostgres({
    dataDir,
    port: 15433 + Math.floor(Math.random() * 1000),
    database: TEMPLATE_DATABASE,
    log: quiet,
    persistent: false,
    unsafeFast: true,
  });
  // Migrate the template, then leave it without connections (a template
  // with open connections cannot be cloned).
  const template = openDatabase(cluster.ownerUrl, { max: 1 });
  try {
    await runMigrations(template.db);
    await applyGrants(template.db, EMBEDDED_APP_ROLE);
  } finally {
    await template.close();
  }
  project.provide('pgBaseUrl', cluster.baseUrl);
  project.provide('pgOwnerBaseUrl', cluster.ownerBaseUrl);
  project.provide('pgAppBaseUrl', cluster.appBaseUrl);
  project.provide('pgTemplate', TEMPLATE_DATABASE);
}

export async function teardown(): Promise<void> {
  await cluster?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
