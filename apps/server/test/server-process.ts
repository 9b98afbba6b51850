import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { REPO_ROOT } from '../src/config';
import {
  createDatabaseFromTemplate,
  createTestApp,
  type CreateTestAppOptions,
  type TestApp,
} from './helpers';

/**
 * The real server process (tsx, an external PostgreSQL: DATABASE_URL the
 * application role, MIGRATION_DATABASE_URL the owner role, as in production)
 * for tests that kill it (SIGKILL) and start it again.
 */
export interface ServerProcess {
  child: ChildProcess;
  output: string[];
  exited: Promise<void>;
}

/**
 * Starts `apps/server/src/server.ts` and waits until it answers (30 s at most).
 * `databaseUrl` undefined: the server starts its own embedded PostgreSQL in `dataDir`.
 */
export async function startServerProcess(
  databaseUrl: string | undefined,
  port: number,
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const { DATABASE_URL: _ignored, MIGRATION_DATABASE_URL: _ignoredToo, ...inherited } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: REPO_ROOT,
    env: {
      ...inherited,
      ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      SECRET_KEY: 'kill-test-secret-key-kill-test-secret-key',
      ADMIN_PASSWORD: 'kill-test-admin-password',
      SEED_DEMO: 'false',
      ARGON2_MEMORY_KIB: '64',
      ARGON2_TIME_COST: '1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  child.stdout?.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr?.on('data', (d: Buffer) => output.push(d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  for (let waited = 0; waited < 30_000; waited += 100) {
    if (gone) throw new Error(`server exited during start-up:\n${output.join('')}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/auth/csrf/`);
      if (res.ok) return { child, output, exited };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start:\n${output.join('')}`);
}

/**
 * A database of its own, an in-process app on it (to arrange and inspect),
 * a data folder, and the server processes a test file starts against them;
 * every process still running is killed after the file. Call at describe level.
 */
export function useServerProcesses(name: string, appOptions: CreateTestAppOptions = {}) {
  let app: TestApp | undefined;
  let databaseUrl = '';
  let migrationUrl = '';
  let dataDir = '';
  const started: ServerProcess[] = [];
  beforeAll(async () => {
    const databaseName = await createDatabaseFromTemplate();
    databaseUrl = `${inject('pgAppBaseUrl')}/${databaseName}`;
    migrationUrl = `${inject('pgOwnerBaseUrl')}/${databaseName}`;
    app = await createTestApp({ ...appOptions, databaseName });
    dataDir = await mkdtemp(path.join(tmpdir(), `coldtrace-${name}-`));
  });
  afterAll(async () => {
    for (const server of started) {
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill('SIGKILL');
      }
      await server.exited;
    }
    await app?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return {
    /** The in-process app on the same database. */
    get t(): TestApp {
      if (!app) throw new Error('useServerProcesses: the app exists from beforeAll on');
      return app;
    },
    /** Starts a server process on `port` (again after a kill: same database, same data folder). */
    async start(port: number, env: Record<string, string> = {}): Promise<ServerProcess> {
      const server = await startServerProcess(databaseUrl, port, dataDir, {
        MIGRATION_DATABASE_URL: migrationUrl,
        ...env,
      });
      started.push(server);
      return server;
    },
  };
}
