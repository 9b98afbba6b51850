import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { startEmbeddedPostgres } from '../db/embedded';

/**
 * Where the backup tools find the embedded database. The server keeps its
 * cluster in `DATA_DIR/postgres` and the superuser's password in
 * `DATA_DIR/postgres_password` (db/embedded.ts). A running PostgreSQL writes
 * its port and socket folder into `postmaster.pid`, so the tools connect to
 * the server's own PostgreSQL while it runs; when nothing runs they start the
 * embedded PostgreSQL themselves for the time they need it.
 *
 * The tools connect as the cluster's superuser, not as the owner role of
 * db/roles.ts: the backup functions (pg_backup_start / pg_backup_stop) and a
 * temporary replication slot are the superuser's by default, and the owner
 * role is deliberately given nothing beyond its database.
 */

/** The database the server creates in the embedded cluster (server.ts). */
export const EMBEDDED_DATABASE = 'coldtrace';

export const clusterDirOf = (dataDir: string) => path.join(dataDir, 'postgres');

export interface RunningPostmaster {
  pid: number;
  port: number;
  /** Unix socket folder, if PostgreSQL listens on one. */
  socketDir: string | undefined;
}

/** The PostgreSQL running on the cluster in `dataDir`, read from its postmaster.pid; undefined when none. */
export async function runningPostmaster(dataDir: string): Promise<RunningPostmaster | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(clusterDirOf(dataDir), 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  // Lines: pid, data folder, start time, port, socket folder, listen address, ...
  const lines = text.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!Number.isInteger(pid) || !Number.isInteger(port) || !isAlive(pid)) return undefined;
  const socketDir = lines[4]?.trim() || undefined;
  return { pid, port, socketDir };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function superuserPassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'postgres_password');
  if (!existsSync(file)) {
    throw new Error(
      `${file} not found: DATA_DIR (${dataDir}) does not hold an embedded PostgreSQL. ` +
        'With DATABASE_URL use your own pg_basebackup or pg_dump (docs/operations.md).',
    );
  }
  return (await readFile(file, 'utf8')).trim();
}

export interface EmbeddedConnection {
  /** Superuser URL of the `coldtrace` database. */
  url: string;
  /** Whether this tool started PostgreSQL (and stops it in `release`). */
  startedHere: boolean;
  release(): Promise<void>;
}

/**
 * A superuser connection URL to the embedded database in `dataDir`: the running
 * server's PostgreSQL, else one started here (stopped again by `release`).
 */
export async function connectEmbedded(
  dataDir: string,
  opts: { walArchiveDir?: string | undefined; port?: number | undefined; quiet?: boolean } = {},
): Promise<EmbeddedConnection> {
  if (!existsSync(path.join(clusterDirOf(dataDir), 'PG_VERSION'))) {
    throw new Error(`${clusterDirOf(dataDir)} holds no PostgreSQL cluster (no PG_VERSION)`);
  }
  const password = await superuserPassword(dataDir);
  const running = await runningPostmaster(dataDir);
  if (running) {
    const host = running.socketDir ? `?host=${encodeURIComponent(running.socketDir)}` : '';
    return {
      url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${running.port}/${EMBEDDED_DATABASE}${host}`,
      startedHere: false,
      release: async () => undefined,
    };
  }
  const say = (m: string) => {
    if (!opts.quiet) process.stderr.write(`${m}\n`);
  };
  const pg = await startEmbeddedPostgres({
    dataDir,
    port: opts.port ?? 5433,
    database: EMBEDDED_DATABASE,
    walArchiveDir: opts.walArchiveDir,
    log: { info: say, warn: say, debug: () => undefined },
  });
  return { url: pg.url, startedHere: true, release: () => pg.stop() };
}
