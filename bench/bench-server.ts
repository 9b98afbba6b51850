import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { loadConfig, REPO_ROOT, type RuntimeConfig } from '../apps/server/src/config';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/client';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '../apps/server/src/db/embedded';
import { runMigrations } from '../apps/server/src/db/migrate';
import { sessions, users } from '../apps/server/src/db/schema';
import { userTokens } from '../apps/server/src/db/schema-access';
import { newToken, sessionIdOf } from '../apps/server/src/modules/identity/auth/cookies';
import { createOrganization, setMembership } from '../apps/server/src/modules/orgs/repository';

/**
 * The product on a scratch database for benchmarks: a throwaway embedded
 * PostgreSQL (durable settings, as the product runs) or a scratch database
 * created in DATABASE_URL and dropped afterwards.
 */

export interface Bench {
  /** The app built in this process, listening on a free port. */
  baseUrl: string;
  handle: DatabaseHandle;
  /** The scratch database (for server processes of `startServerProcess`). */
  databaseUrl: string;
  close(): Promise<void>;
}

async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const external = process.env.DATABASE_URL;
  if (external === undefined) {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'coldtrace-bench-pg-'));
    const quiet = { info: () => undefined, warn: () => undefined, debug: () => undefined };
    const cluster: EmbeddedPostgresHandle = await startEmbeddedPostgres({
      dataDir,
      port: 25433 + Math.floor(Math.random() * 1000),
      database: 'coldtrace_bench',
      log: quiet,
      persistent: false,
    });
    return {
      url: cluster.url,
      async drop() {
        await cluster.stop();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `coldtrace_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: external });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${admin.escapeIdentifier(name)}`);
  await admin.end();
  const url = new URL(external);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: external });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(name)} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function startBench(opts: { webDist?: string } = {}): Promise<Bench> {
  const database = await scratchDatabase();
  const handle = openDatabase(database.url, { max: 10 });
  await runMigrations(handle.db);
  const base = loadConfig({ LOG_LEVEL: 'silent', SEED_DEMO: 'false' });
  const config: RuntimeConfig = {
    ...base,
    secretKey: 'bench-secret-key-bench-secret-key-bench-secret-key',
    webDist: opts.webDist ?? path.join(tmpdir(), 'coldtrace-bench-no-web-dist'),
  };
  const app = await buildApp({ config, db: handle.db });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    handle,
    databaseUrl: database.url,
    async close() {
      await app.close();
      await handle.close();
      await database.drop();
    },
  };
}

export interface BenchServerProcess {
  baseUrl: string;
  /** SIGTERM, then waits for the exit; throws unless it exited with 0. */
  close(): Promise<void>;
}

/** The Node flags `npm start` gives the server (apps/server/scripts/node-flags.json). */
function serverNodeFlags(root: string): string[] {
  const file = path.join(root, 'apps/server/scripts/node-flags.json');
  return JSON.parse(readFileSync(file, 'utf8')) as string[];
}

/**
 * The real server (`apps/server/src/server.ts`, as `npm start` runs it, with its
 * Node flags: docs/decisions/list-performance.md, "Young generation") on the
 * bench's database with WEB_CONCURRENCY=`processes`, on a free port. Resolves
 * once it says it is running (with several processes: once every worker listens).
 * `root`: the checkout whose server runs (another one, installed, to compare
 * an earlier commit on the same database).
 */
export async function startServerProcess(
  bench: Bench,
  processes: number,
  root: string = REPO_ROOT,
): Promise<BenchServerProcess> {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as AddressInfo;
      probe.close(() => resolve(free));
    });
  });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'coldtrace-bench-server-'));
  // The server logs at info, as in production (two lines per request), into a
  // file: the kernel takes them, as from a server writing to its log, and this
  // process (on the same cores as the server) does not read them.
  const logFile = path.join(dataDir, 'server.log');
  const log = await open(logFile, 'w');
  const child = spawn(
    process.execPath,
    [...serverNodeFlags(root), '--import', 'tsx', 'apps/server/src/server.ts'],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: bench.databaseUrl,
        WEB_CONCURRENCY: String(processes),
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SECRET_KEY: 'bench-secret-key-bench-secret-key-bench-secret-key',
        ADMIN_PASSWORD: 'bench-admin-password',
        SEED_DEMO: 'false',
        LOG_LEVEL: 'info',
        WEB_DIST: path.join(tmpdir(), 'coldtrace-bench-no-web-dist'),
      },
      stdio: ['ignore', log.fd, log.fd],
    },
  );
  await log.close();
  /** The log's last 20,000 characters, for errors. */
  const output = async () => (await readFile(logFile, 'utf8')).slice(-20_000);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  for (let waited = 0; !(await output()).includes('Coldtrace is running'); waited += 50) {
    if (exitCode !== undefined || waited > 60_000) {
      child.kill('SIGKILL');
      throw new Error(`the server process did not start:\n${await output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      child.kill('SIGTERM');
      const code = await exited;
      const last = await output();
      await rm(dataDir, { recursive: true, force: true });
      if (code !== 0) throw new Error(`the server process exited with ${code}:\n${last}`);
    },
  };
}

/** An organization, an administrator in it and a device token of that user. */
export async function deviceToken(handle: DatabaseHandle): Promise<string> {
  return (await benchUser(handle)).token;
}

/**
 * An organization, an administrator in it, a device token and a browser session
 * cookie value of that user.
 */
export async function benchUser(
  handle: DatabaseHandle,
): Promise<{ token: string; sessionCookie: string }> {
  const db = handle.db;
  const { organization } = await createOrganization(db, 'Bench Organization');
  const [user] = await db
    .insert(users)
    .values({
      username: 'bench',
      email: 'bench@example.test',
      firstName: 'Bench',
      lastName: 'Gateway',
      passwordHash: 'not-used',
    })
    .returning();
  await setMembership(db, user!.id, organization.id, 'Administrator');
  const token = newToken();
  await db.insert(userTokens).values({
    id: sessionIdOf(token),
    userId: user!.id,
    organizationId: organization.id,
    expiry: new Date(Date.now() + 86_400_000),
  });
  const sessionCookie = newToken();
  await db.insert(sessions).values({
    id: sessionIdOf(sessionCookie),
    userId: user!.id,
    organizationId: organization.id,
    expiresAt: new Date(Date.now() + 86_400_000),
  });
  return { token, sessionCookie };
}
