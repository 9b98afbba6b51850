// First: OpenTelemetry's hooks must be in place before http, Fastify or pg load (observability/tracing.ts).
import { tracing } from './observability/tracing-init';
import cluster from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { startWorkers, WorkersStopped, type WorkerPool } from './cluster';
import { ConfigError, loadConfig, type Config, type RuntimeConfig } from './config';
import { openDatabase, type DatabaseHandle } from './db/client';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './db/embedded';
import { migrateAtStart } from './db/migrate';
import { withStartupLock } from './db/startup-lock';
import { applyGrants, currentRole, roleProblems } from './db/roles';
import { isDatabaseUnavailable } from './db/unavailable';
import { ADMIN_USERNAME, seed } from './seed/seed';
import { createLogger } from './logger';
import { publicOriginWarning, servedOrigin } from './public-origin';
import { withSecretKey } from './secret-key';
import { startMetricsEndpoint, type MetricsEndpoint } from './observability/cluster-metrics';

/**
 * The process: configuration, database (embedded PostgreSQL unless
 * DATABASE_URL), migrations and seed, listen, graceful shutdown. Everything
 * else is the app (`app.ts`). With WEB_CONCURRENCY > 1 this process does the
 * once-only part, then forks that many workers (`cluster.ts`); a worker (given
 * the database URL as DATABASE_URL) only builds the app and listens.
 */

const EMBEDDED_DATABASE = 'coldtrace';

function readConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}

const config = readConfig();
const log = createLogger(config.logLevel);

const role = cluster.isWorker ? 'worker' : config.webConcurrency > 1 ? 'primary' : 'single';

let embedded: EmbeddedPostgresHandle | undefined;
let database: DatabaseHandle | undefined;
let app: FastifyInstance | undefined;
let workers: WorkerPool | undefined;
let metricsEndpoint: MetricsEndpoint | undefined;
let stopping = false;

class Stopping extends Error {}
/** Between start-up steps: give up when a signal arrived meanwhile. */
const checkpoint = () => {
  if (stopping) throw new Stopping();
};

/**
 * The once-only part: secret key, database, migrations (as the owner role),
 * grants to the application role, and seed (as the application role). Leaves
 * `database` (the application role's pool) open.
 */
async function prepare(): Promise<{ runtime: RuntimeConfig; url: string }> {
  const runtime = await withSecretKey(config);
  let url = config.databaseUrl;
  let ownerUrl = config.migrationDatabaseUrl;
  if (url === undefined) {
    embedded = await startEmbeddedPostgres({
      dataDir: config.dataDir,
      port: config.embeddedPg.port,
      exactPort: config.embeddedPg.exact,
      walArchiveDir: config.backupWalDir,
      database: EMBEDDED_DATABASE,
      log: { info: (m) => log.info(m), warn: (m) => log.warn(m), debug: (m) => log.debug(m) },
    });
    url = embedded.appUrl;
    ownerUrl = embedded.ownerUrl;
  }
  checkpoint();
  const opened = openDatabase(url, { max: config.databasePoolSize, log });
  database = opened;
  // MIGRATE=false: another migrates; this instance needs the application role only.
  const owner =
    ownerUrl === undefined || !config.migrate ? undefined : openDatabase(ownerUrl, { max: 2, log });
  let seeded;
  let migratedAsApp = false;
  try {
    seeded = await withStartupLock((owner ?? opened).pool, async (db) => {
      const migrated = await migrateAtStart(db, { migrate: config.migrate, asOwner: !!owner });
      migratedAsApp = migrated && !owner;
      if (owner) {
        const problems = await roleProblems(owner.pool, opened.pool);
        if (problems.sameRole) {
          log.warn(
            'MIGRATION_DATABASE_URL and DATABASE_URL log in as the same role: the audit trail ' +
              'is not protected against the application role (docs/security.md)',
          );
        } else {
          await applyGrants(db, problems.appRole);
        }
        for (const problem of problems.warnings) log.warn(problem);
      }
      return seed(
        opened.db,
        runtime,
        { info: (m) => log.info(m), warn: (m) => log.warn(m) },
        // Demo records go through the pool, several at a time, while the lock is held.
        { demoRecords: true, pool: opened.db },
      );
    });
  } finally {
    await owner?.close();
  }
  // Without the owner role: warn when DATABASE_URL's role owns the tables (it just migrated
  // them, or a one-role setup did before), not when it is an application role proper.
  if (!owner && (migratedAsApp || (await currentRole(opened.pool)).owns > 0)) {
    log.warn(
      'MIGRATION_DATABASE_URL is not set: the server migrates and runs as the one role of ' +
        'DATABASE_URL, which owns the tables, so that role could switch the append-only audit ' +
        'trail off. Give an owner role as MIGRATION_DATABASE_URL and an application role as ' +
        'DATABASE_URL (docs/security.md).',
    );
  }
  // Right after seeding, before anything else can fail: the generated password is shown only once.
  if (seeded.generatedAdminPassword !== undefined) {
    log.warn(
      `First start: sign in as '${ADMIN_USERNAME}' (or ${config.adminEmail}) with the generated ` +
        `password ${seeded.generatedAdminPassword} - it is shown only this once. ` +
        'Set ADMIN_PASSWORD before the first start to choose it yourself.',
    );
  } else if (seeded.adminCreated) {
    log.info(
      `First start: sign in as '${ADMIN_USERNAME}' (or ${config.adminEmail}) with ADMIN_PASSWORD.`,
    );
  }
  checkpoint();
  return { runtime, url };
}

/** Build the app on `url` and listen; the port listened on. */
async function serve(runtime: RuntimeConfig, url: string): Promise<number> {
  database ??= openDatabase(url, { max: config.databasePoolSize, log });
  app = await buildApp({ config: runtime, db: database.db, logger: log });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  // PORT=0 listens on a free port: links without PUBLIC_ORIGIN point to the one it got.
  runtime.port = port;
  return port;
}

async function start(): Promise<void> {
  if (role === 'worker') {
    // The primary prepared everything and passed the database URL as DATABASE_URL.
    await serve(await withSecretKey(config), config.databaseUrl!);
    return;
  }
  const { runtime, url } = await prepare();
  // METRICS_PORT and the merging of the workers' metrics (observability/cluster-metrics.ts).
  metricsEndpoint = await startMetricsEndpoint({
    ...config.metrics,
    clustered: role === 'primary',
    log,
  });
  let port: number;
  let processes = '';
  if (role === 'single') {
    port = await serve(runtime, url);
  } else {
    await database?.close();
    database = undefined;
    checkpoint();
    workers = startWorkers({
      count: config.webConcurrency,
      env: { DATABASE_URL: url },
      log: { info: (m) => log.info(m), warn: (m) => log.warn(m), error: (m) => log.error(m) },
    });
    port = await workers.ready;
    processes = `, ${config.webConcurrency} server processes`;
  }
  log.info(
    `Coldtrace is running at ${servedOrigin({ host: config.host, port })}/ (API docs at ` +
      `/api/docs/${processes}, up to ${config.databasePoolSize} database connections per process)`,
  );
  // Once per server (not per worker process).
  const noOrigin = publicOriginWarning({ ...config, port }, process.env.NODE_ENV);
  if (noOrigin !== undefined) log.warn(noOrigin);
}

/**
 * One step of the shutdown, given at most `ms`: a step that fails or overruns is
 * logged by name and the shutdown goes on, so the later steps (above all stopping
 * the embedded PostgreSQL cleanly) still run inside the 20 s the shutdown has.
 */
async function boundedStep(name: string, ms: number, work: () => Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const overran = new Promise<'overran'>((resolve) => {
    timer = setTimeout(() => resolve('overran'), ms);
  });
  const outcome = await Promise.race([
    work().then(
      () => 'done' as const,
      (err: unknown) => {
        log.error({ err }, `${name} failed`);
        return 'failed' as const;
      },
    ),
    overran,
  ]);
  clearTimeout(timer);
  if (outcome === 'overran') log.warn(`${name} took longer than ${ms / 1000} s: going on`);
}

/**
 * Close in order: the workers or the app (in-flight requests finish, running
 * jobs get up to 10 s), the pool, then PostgreSQL (trap 2). Each step is bounded
 * so the whole stays under the 20 s limit of {@link shutdown}.
 */
async function release(): Promise<void> {
  await workers?.stop();
  await boundedStep('closing the app', 11_000, async () => app?.close());
  await boundedStep('closing the pool', 3_000, async () => database?.close());
  await boundedStep('stopping PostgreSQL', 5_000, async () => embedded?.stop());
  await boundedStep('closing the metrics port', 1_000, async () => metricsEndpoint?.close());
  await boundedStep('sending the last traces', 2_000, async () => tracing?.shutdown());
}

const startup = start();

async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info(`${signal} received: shutting down`);
  // Workers still starting up would hold `startup` back: stop them now.
  void workers?.stop();
  setTimeout(() => {
    log.error('shutdown took longer than 20 s: exiting');
    process.exit(1);
  }, 20_000).unref();
  await startup.catch(() => undefined);
  await release();
  log.info('stopped');
  process.exit(0);
}

// Last resort: a lost database connection whose error nobody caught must not end the
// server (it answers 503 and recovers); a rejection nobody awaited is logged. Any other
// uncaught exception leaves the process in an unknown state: exit (a worker is replaced).
process.on('unhandledRejection', (err) => {
  log.error({ err }, 'unhandled promise rejection');
});
process.on('uncaughtException', (err) => {
  if (isDatabaseUnavailable(err)) {
    log.error({ err }, 'database connection lost (uncaught): continuing');
    return;
  }
  log.fatal({ err }, `uncaught exception: ${err.message}`);
  process.exit(1);
});

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.on(signal, () => void shutdown(signal));
}

startup.catch(async (err: unknown) => {
  if (err instanceof Stopping || err instanceof WorkersStopped) return;
  log.fatal({ err }, err instanceof Error ? err.message : 'start-up failed');
  stopping = true;
  await release();
  process.exit(1);
});
