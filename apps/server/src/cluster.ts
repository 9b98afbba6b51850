import cluster, { type Worker } from 'node:cluster';

/**
 * WEB_CONCURRENCY > 1: the primary process (`server.ts`) prepares everything
 * once (secret key, embedded PostgreSQL, migrations, pg-boss's tables, seed),
 * then forks the workers here. Each worker builds the app against the same
 * database and listens on the same port (node:cluster hands the primary's
 * connections out round-robin). The app keeps nothing in memory that matters
 * and pg-boss is made for several instances, so any worker serves any request
 * and runs any job.
 *
 * A worker that dies unexpectedly is replaced (sooner or later: one that keeps
 * dying at start-up is retried at growing intervals, up to 30 s). `stop()`
 * forwards SIGTERM to every worker (each one closes its app, finishing the
 * requests and jobs in hand, then its pool) and waits for all of them to
 * exit; the primary stops PostgreSQL after that.
 */

export interface ClusterLogger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

export interface WorkerPool {
  /** Resolves with the port once every first worker listens; rejects when one exits before. */
  readonly ready: Promise<number>;
  /** SIGTERM to every worker, then waits for them (SIGKILL after `graceMs`). Idempotent. */
  stop(graceMs?: number): Promise<void>;
}

/** Rejection of `ready` when `stop()` came first. */
export class WorkersStopped extends Error {
  constructor() {
    super('stopped before the workers were ready');
    this.name = 'WorkersStopped';
  }
}

const LONG_LIVED_MS = 30_000;
const MAX_RESPAWN_DELAY_MS = 30_000;

interface WorkerOptions {
  count: number;
  env: Record<string, string>;
  log: ClusterLogger;
}

/** The workers of a pool and where the pool stands (ready, stopping, a respawn pending). */
interface PoolState {
  readonly opts: WorkerOptions;
  readonly live: Set<Worker>;
  readonly bornAt: Map<Worker, number>;
  listening: number;
  isReady: boolean;
  stopping: Promise<void> | undefined;
  respawnDelay: number;
  respawnTimer: NodeJS.Timeout | undefined;
  resolveReady: (port: number) => void;
  rejectReady: (err: Error) => void;
}

function fork(state: PoolState): void {
  const { count, env, log } = state.opts;
  const worker = cluster.fork(env);
  state.live.add(worker);
  state.bornAt.set(worker, Date.now());
  worker.once('listening', (address) => {
    if (state.isReady) {
      log.info(`replacement worker ${worker.process.pid} is listening`);
      return;
    }
    state.listening += 1;
    if (state.listening === count) {
      state.isReady = true;
      state.resolveReady(address.port);
    }
  });
  worker.once('exit', (code, signal) =>
    exited(state, worker, signal ? `signal ${signal}` : `code ${code}`),
  );
}

/**
 * A worker exited: during start-up the pool fails; later another is started, at
 * once after a long life, else after a delay that doubles (up to 30 s).
 */
function exited(state: PoolState, worker: Worker, how: string): void {
  state.live.delete(worker);
  const lived = Date.now() - (state.bornAt.get(worker) ?? 0);
  state.bornAt.delete(worker);
  if (state.stopping) return;
  if (!state.isReady) {
    state.rejectReady(new Error(`worker ${worker.process.pid} exited during start-up (${how})`));
    return;
  }
  const respawnDelay =
    lived >= LONG_LIVED_MS
      ? 0
      : Math.min(MAX_RESPAWN_DELAY_MS, Math.max(1_000, state.respawnDelay * 2));
  state.respawnDelay = respawnDelay;
  state.opts.log.error(
    `worker ${worker.process.pid} exited unexpectedly (${how}): starting another` +
      (respawnDelay > 0 ? ` in ${respawnDelay / 1000} s` : ''),
  );
  if (respawnDelay === 0) fork(state);
  else
    state.respawnTimer = setTimeout(() => {
      state.respawnTimer = undefined;
      if (!state.stopping) fork(state);
    }, respawnDelay);
}

const exitOf = (worker: Worker) =>
  new Promise<void>((resolve) => {
    if (worker.isDead()) resolve();
    else worker.once('exit', () => resolve());
  });

async function stopWorkers(state: PoolState, graceMs: number): Promise<void> {
  clearTimeout(state.respawnTimer);
  if (!state.isReady) state.rejectReady(new WorkersStopped());
  const workers = [...state.live];
  for (const worker of workers) worker.process.kill('SIGTERM');
  const all = Promise.all(workers.map(exitOf));
  let timer: NodeJS.Timeout | undefined;
  const late = await Promise.race([
    all.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), graceMs);
    }),
  ]);
  clearTimeout(timer);
  if (late) {
    const left = workers.filter((w) => !w.isDead());
    state.opts.log.warn(
      `${left.length} worker(s) still running after ${graceMs / 1000} s: killing them`,
    );
    for (const worker of left) worker.process.kill('SIGKILL');
    await all;
  }
}

/** Forks `count` workers with `env` added to theirs (call in the primary only). */
export function startWorkers(opts: WorkerOptions): WorkerPool {
  let resolveReady!: (port: number) => void;
  let rejectReady!: (err: Error) => void;
  const ready = new Promise<number>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // Nobody may be waiting on it when stop() rejects it.
  ready.catch(() => undefined);
  const state: PoolState = {
    opts,
    live: new Set(),
    bornAt: new Map(),
    listening: 0,
    isReady: false,
    stopping: undefined,
    respawnDelay: 0,
    respawnTimer: undefined,
    resolveReady,
    rejectReady,
  };

  for (let i = 0; i < opts.count; i++) fork(state);

  return {
    ready,
    stop(graceMs = 15_000) {
      state.stopping ??= stopWorkers(state, graceMs);
      return state.stopping;
    },
  };
}
