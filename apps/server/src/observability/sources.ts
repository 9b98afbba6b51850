import type pg from 'pg';
import { JOB_SCHEMA } from '../jobs/queue';
import type { PoolStats, QueueStats, ScrapeSource } from './metrics';

/** A scrape waits at most this long for the job queue's counts (then leaves them out). */
export const QUEUE_SCRAPE_TIMEOUT_MS = 2_000;

/** The pg Pool's own counters (no query). */
export function poolSource(pool: pg.Pool): ScrapeSource {
  return {
    collect: (): PoolStats => ({
      kind: 'pool',
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }),
  };
}

/**
 * The jobs not finished, per name, in one statement over pg-boss's job table:
 * only the rows of the unfinished states are read (`state <= 'active'`, the
 * partial index pg-boss keeps for fetching covers the waiting ones), so a
 * scrape costs in proportion to the backlog, not to the history. `names`:
 * the catalogue's jobs, reported as 0 when none is waiting.
 */
export function queueSource(pool: pg.Pool, names: () => readonly string[]): ScrapeSource {
  const text = `
    SELECT name,
           count(*) FILTER (WHERE state < 'active' AND start_after <= now())::int AS ready,
           count(*) FILTER (WHERE state < 'active' AND start_after > now())::int AS deferred,
           count(*) FILTER (WHERE state = 'active')::int AS active,
           COALESCE(EXTRACT(EPOCH FROM now() - min(start_after)
             FILTER (WHERE state < 'active' AND start_after <= now())), 0)::float8 AS oldest
      FROM ${JOB_SCHEMA}.job
     WHERE state <= 'active'
     GROUP BY name`;
  return {
    async collect(): Promise<QueueStats[]> {
      const { rows } = await pool.query<{
        name: string;
        ready: number;
        deferred: number;
        active: number;
        oldest: number;
      }>({ text, query_timeout: QUEUE_SCRAPE_TIMEOUT_MS } as pg.QueryConfig);
      const byName = new Map<string, QueueStats>();
      for (const name of names()) {
        byName.set(name, {
          kind: 'queue',
          job: name,
          ready: 0,
          deferred: 0,
          active: 0,
          oldestReadySeconds: 0,
        });
      }
      for (const r of rows) {
        byName.set(r.name, {
          kind: 'queue',
          job: r.name,
          ready: r.ready,
          deferred: r.deferred,
          active: r.active,
          oldestReadySeconds: r.oldest,
        });
      }
      return [...byName.values()];
    },
  };
}
