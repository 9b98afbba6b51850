import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, pendingMigrations } from '../src/db/migrate';
import { useServerProcesses } from './server-process';
import { freePort } from './smtp-sink';

/**
 * Migrations at start (issue 36 item 3): an instance with the application
 * role alone starts on a database another instance migrated, MIGRATE=false
 * never migrates, and a pending migration it may not apply is an error that
 * names it.
 */

const { entries } = JSON.parse(
  readFileSync(path.join(MIGRATIONS_FOLDER, 'meta', '_journal.json'), 'utf8'),
) as { entries: { tag: string; when: number }[] };
const newest = entries.at(-1)!;

/** The output of a start that must fail. */
async function failedStart(start: Promise<unknown>): Promise<string> {
  const message = await start.then(
    () => 'the server started',
    (err: Error) => err.message,
  );
  expect(message).toMatch(/^server exited during start-up/);
  return message;
}

describe('migrations at start [FEAT-DEPLOYMENT]', () => {
  // The in-process app runs no jobs: only the server processes touch the queue.
  const processes = useServerProcesses('migrate', { jobs: { runWorkers: false } });

  it('finds nothing pending on a migrated database, as the application role', async () => {
    expect(await pendingMigrations(processes.t.db)).toEqual([]);
  });

  it('starts with the application role alone on a migrated database', async () => {
    // No MIGRATION_DATABASE_URL: DATABASE_URL is the application role (no DDL, no owner).
    const port = await freePort();
    const server = await processes.start(port, { MIGRATION_DATABASE_URL: '' });
    const health = await fetch(`http://127.0.0.1:${port}/api/health/`);
    expect(health.status).toBe(200);
    // It is an application role proper: no warning about a role owning the tables.
    expect(server.output.join('')).not.toContain('MIGRATION_DATABASE_URL is not set');
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('with MIGRATE=false does not use the owner role', async () => {
    // An owner URL that cannot log in: a start that used it would fail.
    const port = await freePort();
    const server = await processes.start(port, {
      MIGRATE: 'false',
      MIGRATION_DATABASE_URL: 'postgres://nobody:wrong@127.0.0.1:1/none',
    });
    const health = await fetch(`http://127.0.0.1:${port}/api/health/`);
    expect(health.status).toBe(200);
    server.child.kill('SIGTERM');
    await server.exited;
  });

  it('names the pending migrations it may not apply', async () => {
    const owner = processes.t.ownerHandle.pool;
    // The newest migration and pg-boss's latest schema version look unapplied.
    await owner.query('DELETE FROM drizzle.__drizzle_migrations WHERE created_at = $1', [
      newest.when,
    ]);
    const { rows } = await owner.query<{ version: string }>('SELECT version FROM pgboss.version');
    const bossVersion = Number(rows[0]!.version);
    await owner.query('UPDATE pgboss.version SET version = $1', [String(bossVersion - 1)]);
    expect(await pendingMigrations(processes.t.db)).toEqual([
      newest.tag,
      `pg-boss schema ${bossVersion}`,
    ]);

    const skipped = await failedStart(processes.start(await freePort(), { MIGRATE: 'false' }));
    expect(skipped).toContain('MIGRATE=false, but the database lacks migrations');
    expect(skipped).toContain(`2 pending: ${newest.tag}, pg-boss schema ${bossVersion}`);

    // The application role alone may not apply them: it says so, naming them.
    const refused = await failedStart(
      processes.start(await freePort(), { MIGRATION_DATABASE_URL: '' }),
    );
    expect(refused).toContain('the role of DATABASE_URL may not apply them');
    expect(refused).toContain(newest.tag);
  });

  it('says how to grant the journal when the application role may not read it', async () => {
    // A database the owner last granted before the application role could read the journal.
    const owner = processes.t.ownerHandle.pool;
    const role = (await processes.t.handle.pool.query<{ r: string }>('SELECT current_user AS r'))
      .rows[0]!.r;
    await owner.query(`REVOKE USAGE ON SCHEMA drizzle FROM ${role}`);
    await expect(pendingMigrations(processes.t.db)).rejects.toThrow(
      /may not read the migrations journal .*MIGRATION_DATABASE_URL/,
    );
  });
});
