import { sql, type SQL } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import type pg from 'pg';
import type { Db } from '../db/client';
import { withStartupLock } from '../db/startup-lock';
import { inJobSpan } from '../observability/tracing';

/**
 * The durable job queue (pg-boss 10) in the application's own database:
 * e-mail, reports and alarm fan-out run here, so a restart or an unreachable
 * mail server delays work and never loses it. Jobs can be sent inside the
 * caller's transaction (`send(..., { tx })`): the job exists exactly when the
 * change that caused it was committed.
 *
 * Handlers must be idempotent (a job interrupted by a crash runs again); each
 * worker module keeps its own "done" mark in its tables (e.g. the mail outbox).
 */

export const JOB_SCHEMA = 'pgboss';

/**
 * How often pg-boss's maintenance runs (once across every instance): it is what
 * fails an active job past its expiry (a dead server's job) so that it is retried,
 * and it archives old jobs. pg-boss's default is 120 s. It runs when more than
 * this has passed since the last run, so a tick that comes a little early is
 * skipped: 5 s, at most 10 s apart, and a webhook delivery's 20 s lease is seen
 * over 20-30 s after its run started.
 */
export const EXPIRY_SWEEP_SECONDS = 5;

export interface JobContext {
  id: string;
  /** Attempt number, 0 for the first run. */
  retryCount: number;
}

export type JobHandler<T> = (data: T, job: JobContext) => Promise<void>;

export interface QueueSettings {
  /** Attempts after the first failure (default 10). */
  retryLimit?: number;
  /** Seconds before the first retry (default 15), doubled each time when `retryBackoff`. */
  retryDelay?: number;
  retryBackoff?: boolean;
  /**
   * A job running longer than this is considered dead and retried (default 300 s;
   * seen at pg-boss's next maintenance, `EXPIRY_SWEEP_SECONDS`). It runs from the
   * fetch: a batch's jobs share it.
   */
  expireInSeconds?: number;
  /** Jobs fetched at once (default 5, run one after another; a full batch fetches again at once). */
  batchSize?: number;
}

export interface SendJobOptions {
  /** Enqueue on this connection or transaction (commits or rolls back with it). */
  tx?: Db;
  /** At most one queued job with this key at a time (pg-boss singleton). */
  singletonKey?: string;
  startAfter?: Date | number;
}

export interface JobQueue {
  /** Registers a worker; workers start with `start()` (the app's onReady). */
  work<T extends object>(name: string, handler: JobHandler<T>, settings?: QueueSettings): void;
  /**
   * Also sends the job (registered with `work`, empty payload) on a cron
   * schedule in UTC (pg-boss `schedule`, kept in the database: whichever
   * instance runs workers sends it, once per time).
   */
  schedule(name: string, cron: string): void;
  send<T extends object>(name: string, data: T, options?: SendJobOptions): Promise<string | null>;
  start(): Promise<void>;
  /** Waits for running jobs (up to `timeoutMs`), then stops polling. */
  stop(timeoutMs?: number): Promise<void>;
  /** Tests and benchmarks: resolves when no job of `names` is queued, retrying or running. */
  waitForIdle(names: string[], timeoutMs?: number): Promise<void>;
  /** The queue names with registered workers. */
  readonly names: readonly string[];
  /** True once `start()` has finished, until `stop()` (the readiness probe asks). */
  readonly running: boolean;
}

interface QueueLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** pg-boss's `executeSql` on a Drizzle connection or transaction: `$n` placeholders become parameters. */
export function drizzleExecutor(db: Db): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const chunks: SQL[] = [];
      let last = 0;
      for (const match of text.matchAll(/\$(\d+)/g)) {
        chunks.push(sql.raw(text.slice(last, match.index)));
        // Drizzle drops an undefined value from the text; pg sends it as NULL.
        chunks.push(sql`${values[Number(match[1]) - 1] ?? null}`);
        last = match.index + match[0].length;
      }
      chunks.push(sql.raw(text.slice(last)));
      const result = await db.execute(sql.join(chunks, sql.raw('')));
      return { rows: result.rows };
    },
  };
}

/** The pg pool under a Drizzle instance made by `openDatabase`. */
export function poolOf(db: Db): pg.Pool {
  return (db as unknown as { $client: pg.Pool }).$client;
}

/** pg-boss's `executeSql` on the pool, counting the statements in flight (see `stop`). */
function poolExecutor(pool: pg.Pool): PgBoss.Db & { readonly inFlight: number } {
  let inFlight = 0;
  return {
    get inFlight() {
      return inFlight;
    },
    async executeSql(text: string, values: unknown[] = []) {
      inFlight++;
      try {
        const result = await pool.query(text, values);
        return { rows: result.rows };
      } finally {
        inFlight--;
      }
    },
  };
}

/** Creates or upgrades pg-boss's tables (run with the migrations, under the start-up lock). */
export async function installJobQueueSchema(db: Db): Promise<void> {
  const boss = new PgBoss({
    db: drizzleExecutor(db),
    schema: JOB_SCHEMA,
    supervise: false,
    schedule: false,
    migrate: true,
  });
  boss.on('error', () => undefined);
  await boss.start();
  await boss.stop({ graceful: false, wait: true });
}

interface QueueOptions {
  pollingIntervalSeconds?: number;
  runWorkers?: boolean;
}

/** One queue instance: its pg-boss, the registered workers and schedules, and where it stands. */
interface QueueState {
  readonly pool: pg.Pool;
  readonly log: QueueLogger;
  readonly options: QueueOptions;
  readonly executor: ReturnType<typeof poolExecutor>;
  readonly boss: PgBoss;
  readonly workers: Map<string, { handler: JobHandler<object>; settings: QueueSettings }>;
  readonly schedules: Map<string, string>;
  started: Promise<void> | undefined;
  stopped: boolean;
  running: boolean;
}

const sendOptions = (settings: QueueSettings) => ({
  retryLimit: settings.retryLimit ?? 10,
  retryDelay: settings.retryDelay ?? 15,
  retryBackoff: settings.retryBackoff ?? true,
  expireInSeconds: settings.expireInSeconds ?? 300,
});

/**
 * The queues this process works that the database lacks, created. Processes
 * starting together (WEB_CONCURRENCY, several instances) create them one after
 * the other: two createQueue at once deadlock in PostgreSQL. A start that finds
 * them all takes no lock.
 */
async function createMissingQueues(state: QueueState): Promise<void> {
  const { boss, workers } = state;
  // In one read.
  const missing = async () => {
    const existing = new Set((await boss.getQueues()).map((q) => q.name));
    return [...workers.keys()].filter((name) => !existing.has(name));
  };
  if ((await missing()).length > 0) {
    await withStartupLock(state.pool, async () => {
      for (const name of await missing()) await boss.createQueue(name, { name });
    });
  }
}

/** One queue's worker: batches fetched, each job completed or failed on its own. */
async function startWorker(
  state: QueueState,
  name: string,
  { handler, settings }: { handler: JobHandler<object>; settings: QueueSettings },
): Promise<void> {
  const { boss, log } = state;
  const batchSize = settings.batchSize ?? 5;
  const worker: { id?: string } = {};
  worker.id = await boss.work<object>(
    name,
    {
      batchSize,
      pollingIntervalSeconds: state.options.pollingIntervalSeconds ?? 2,
      includeMetadata: true,
    },
    async (jobs) => {
      // A full batch: more may be waiting, fetch again without the polling pause.
      if (jobs.length === batchSize && worker.id !== undefined) boss.notifyWorker(worker.id);
      // One by one, each completed or failed on its own: a failure retries only its job.
      for (const job of jobs) {
        if (state.stopped) throw new Error('job queue stopping');
        try {
          const context = { id: job.id, retryCount: job.retryCount };
          await inJobSpan(name, context, () => handler(job.data, context));
        } catch (err) {
          log.warn({ err, job: job.id, queue: name }, 'job failed; it will be retried');
          await boss.fail(name, job.id, { message: String(err) });
          continue;
        }
        await boss.complete(name, job.id);
      }
    },
  );
}

async function startQueue(state: QueueState): Promise<void> {
  const { boss, workers } = state;
  // Sending needs the queue rows; a stopped instance (tests, CLI) still sends.
  await boss.start();
  await createMissingQueues(state);
  for (const [name, cron] of state.schedules) {
    await boss.schedule(name, cron, {}, { tz: 'UTC', ...sendOptions(workers.get(name)!.settings) });
  }
  if (state.options.runWorkers === false) {
    state.running = true;
    return;
  }
  for (const [name, worker] of workers) await startWorker(state, name, worker);
  state.running = true;
}

async function stopQueue(state: QueueState, timeoutMs: number): Promise<void> {
  if (!state.started || state.stopped) return;
  state.stopped = true;
  state.running = false;
  await state.started.catch(() => undefined);
  await state.boss.stop({ graceful: true, wait: true, timeout: timeoutMs, close: false });
  // pg-boss's stop does not wait for a fetch already in flight: its jobs then
  // arrive after the stop, our worker refuses them, and pg-boss fails them
  // without awaiting. Wait until no statement of the queue has been in flight
  // for two checks in a row, so none touches the pool after it is closed
  // (the follow-up statements are issued within microtasks of the last one).
  const drainUntil = Date.now() + timeoutMs;
  for (let quiet = 0; quiet < 2 && Date.now() < drainUntil;) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    quiet = state.executor.inFlight === 0 ? quiet + 1 : 0;
  }
}

async function waitForIdle(pool: pg.Pool, names: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await pool.query<{ n: string }>(
      `SELECT count(*)::text AS n FROM ${JOB_SCHEMA}.job
        WHERE name = ANY($1) AND state IN ('created', 'retry', 'active')`,
      [names],
    );
    if (rows[0]!.n === '0') return;
    if (Date.now() > deadline) throw new Error(`jobs still pending after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function newBoss(executor: PgBoss.Db, log: QueueLogger, options: QueueOptions): PgBoss {
  const boss = new PgBoss({
    db: executor,
    schema: JOB_SCHEMA,
    supervise: true,
    maintenanceIntervalSeconds: EXPIRY_SWEEP_SECONDS,
    // The cron clock runs where the workers do.
    schedule: options.runWorkers !== false,
    migrate: false,
  });
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  return boss;
}

export function createJobQueue(
  pool: pg.Pool,
  log: QueueLogger,
  options: QueueOptions = {},
): JobQueue {
  const executor = poolExecutor(pool);
  const state: QueueState = {
    pool,
    log,
    options,
    executor,
    boss: newBoss(executor, log, options),
    workers: new Map(),
    schedules: new Map(),
    started: undefined,
    stopped: false,
    running: false,
  };
  const { boss, workers, schedules } = state;

  const queue: JobQueue = {
    get names() {
      return [...workers.keys()];
    },
    get running() {
      return state.running;
    },
    work(name, handler, settings = {}) {
      if (state.started) throw new Error(`job queue already started; register '${name}' earlier`);
      workers.set(name, { handler: handler as JobHandler<object>, settings });
    },
    schedule(name, cron) {
      if (state.started) throw new Error(`job queue already started; schedule '${name}' earlier`);
      if (!workers.has(name)) throw new Error(`no worker registered for job '${name}'`);
      schedules.set(name, cron);
    },
    async send(name, data, opts = {}) {
      if (!workers.has(name)) throw new Error(`no worker registered for job '${name}'`);
      const settings = workers.get(name)!.settings;
      return boss.send(name, data, {
        ...(opts.tx ? { db: drizzleExecutor(opts.tx) } : {}),
        ...(opts.singletonKey ? { singletonKey: opts.singletonKey } : {}),
        ...(opts.startAfter !== undefined ? { startAfter: opts.startAfter } : {}),
        ...sendOptions(settings),
      });
    },
    start() {
      state.started ??= startQueue(state);
      return state.started;
    },
    stop: (timeoutMs = 10_000) => stopQueue(state, timeoutMs),
    waitForIdle: (names, timeoutMs = 30_000) => waitForIdle(pool, names, timeoutMs),
  };
  return queue;
}
