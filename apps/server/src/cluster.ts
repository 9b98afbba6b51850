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

/** Forks `count` workers with `env` added to theirs (call in the primary only). */
export function startWorkers(opts: {
  count: number;
  env: Record<string, string>;
  log: ClusterLogger;
}): WorkerPool {
  const { count, env, log } = opts;
  const live = new Set<Worker>();
  const bornAt = new Map<Worker, number>();
  let listening = 0;
  let isReady = false;
  let stopping: Promise<void> | undefined;
  let respawnDelay = 0;
  let respawnTimer: NodeJS.Timeout | undefined;
  let resolveReady!: (port: number) => void;
  let rejectReady!: (err: Error) => void;
  const ready = new Promise<number>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // Nobody may be waiting on it when stop() rejects it.
  ready.catch(() => undefined);

  const fork = (): void => {
    const worker = cluster.fork(env);
    live.add(worker);
    bornAt.set(worker, Date.now());
    worker.once('listening', (address) => {
      if (isReady) {
        log.info(`replacement worker ${worker.process.pid} is listening`);
        return;
      }
      listening += 1;
      if (listening === count) {
        isReady = true;
        resolveReady(address.port);
      }
    });
    worker.once('exit', (code, signal) => {
      live.delete(worker);
      const lived = Date.now() - (bornAt.get(worker) ?? 0);
      bornAt.delete(worker);
      if (stopping) return;
      const how = signal ? `signal ${signal}` : `code ${code}`;
      if (!isReady) {
        rejectReady(new Error(`worker ${worker.process.pid} exited during start-up (${how})`));
        return;
      }
      respawnDelay =
        lived >= LONG_LIVED_MS
          ? 0
          : Math.min(MAX_RESPAWN_DELAY_MS, Math.max(1_000, respawnDelay * 2));
      log.error(
        `worker ${worker.process.pid} exited unexpectedly (${how}): starting another` +
          (respawnDelay > 0 ? ` in ${respawnDelay / 1000} s` : ''),
      );
      if (respawnDelay === 0) fork();
      else
        respawnTimer = setTimeout(() => {
          respawnTimer = undefined;
          if (!stopping) fork();
        }, respawnDelay);
    });
  };

  for (let i = 0; i < count; i++) fork();

  const exitOf = (worker: Worker) =>
    new Promise<void>((resolve) => {
      if (worker.isDead()) resolve();
      else worker.once('exit', () => resolve());
    });

  return {
    ready,
    stop(graceMs = 15_000) {
      stopping ??= (async () => {
        clearTimeout(respawnTimer);
        if (!isReady) rejectReady(new WorkersStopped());
        const workers = [...live];
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
          log.warn(
            `${left.length} worker(s) still running after ${graceMs / 1000} s: killing them`,
          );
          for (const worker of left) worker.process.kill('SIGKILL');
          await all;
        }
      })();
      return stopping;
    },
  };
}
