import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type pg from 'pg';
import { createTestApp, type TestApp } from '../../test/helpers';
import { createJobQueue, poolOf } from './queue';

/** The durable queue: jobs sent in a transaction exist only if it commits; failures retry. */
describe('job queue [RULE-NOTIFY-4, FEAT-DURABILITY]', () => {
  let t: TestApp;
  const seen: string[] = [];
  let failuresLeft = 2;

  beforeAll(async () => {
    t = await createTestApp({
      register: (app) => {
        app.jobs.work<{ label: string }>('test.echo', async ({ label }) => {
          seen.push(label);
        });
        app.jobs.work<{ label: string }>(
          'test.flaky',
          async ({ label }, job) => {
            if (failuresLeft > 0) {
              failuresLeft -= 1;
              throw new Error(`fails on attempt ${job.retryCount}`);
            }
            seen.push(`${label}@${job.retryCount}`);
          },
          { retryDelay: 1, retryBackoff: false },
        );
      },
    });
  });
  afterAll(() => t.close());

  it('runs a job sent on the pool', async () => {
    await t.app.jobs.send('test.echo', { label: 'plain' });
    await t.app.jobs.waitForIdle(['test.echo']);
    expect(seen).toContain('plain');
  });

  it('a job sent in a rolled-back transaction never runs; a committed one does', async () => {
    await expect(
      t.db.transaction(async (tx) => {
        await t.app.jobs.send('test.echo', { label: 'rolled-back' }, { tx });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');

    await t.db.transaction(async (tx) => {
      await t.app.jobs.send('test.echo', { label: 'committed' }, { tx });
    });
    await t.app.jobs.waitForIdle(['test.echo']);
    expect(seen).toContain('committed');
    expect(seen).not.toContain('rolled-back');
    const { rows } = await t.db.execute(
      sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'test.echo' AND data->>'label' = 'rolled-back'`,
    );
    expect(rows[0]).toEqual({ n: 0 });
  });

  it('a failing job is retried until it succeeds, once', async () => {
    await t.app.jobs.send('test.flaky', { label: 'flaky' });
    await t.app.jobs.waitForIdle(['test.flaky'], 20_000);
    expect(seen.filter((s) => s.startsWith('flaky'))).toEqual(['flaky@2']);
  });

  it('refuses a job name without a worker', async () => {
    await expect(t.app.jobs.send('test.unknown', {})).rejects.toThrow(/no worker/);
  });

  it('processes starting together create the same new queues without a deadlock', async () => {
    // As WEB_CONCURRENCY workers do on a database that lacks the queues: each
    // creates every missing queue (pg-boss's createQueue, two at once, can deadlock).
    const names = Array.from({ length: 8 }, (_, i) => `test.together.${i}`);
    const errors: unknown[] = [];
    const queues = Array.from({ length: 4 }, () => {
      const queue = createJobQueue(
        poolOf(t.db),
        { error: (o) => errors.push(o), warn: () => undefined },
        { runWorkers: false },
      );
      for (const name of names) queue.work(name, async () => undefined);
      return queue;
    });
    const started = await Promise.allSettled(queues.map((q) => q.start()));
    await Promise.all(queues.map((q) => q.stop(5_000)));
    expect(started.filter((r) => r.status === 'rejected')).toEqual([]);
    expect(errors).toEqual([]);
    const { rows } = await t.db.execute(
      sql`SELECT name FROM pgboss.queue WHERE name LIKE 'test.together.%' ORDER BY name`,
    );
    expect(rows.map((r) => r.name)).toEqual(names);
  });

  it('stopping while a fetch is in flight: nothing touches the pool after stop, the job is kept', async () => {
    // A pool in front of the real one: fetches wait on a gate, and after "end"
    // every statement throws as pg's pool does.
    const real = poolOf(t.db);
    let ended = false;
    let gate: (() => void) | undefined;
    let fetchHeld: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (fetchHeld = resolve));
    let holding = false;
    const proxy = {
      connect: () => real.connect(),
      async query(text: string, values?: unknown[]) {
        if (ended) throw new Error('Cannot use a pool after calling end on the pool');
        // The worker's fetch (pg-boss fetchNextJob), once asked to hold it.
        if (holding && gate === undefined && /FOR UPDATE SKIP LOCKED/i.test(text)) {
          await new Promise<void>((resolve) => {
            gate = resolve;
            fetchHeld!();
          });
        }
        return real.query(text, values);
      },
    } as unknown as pg.Pool;
    const ran: string[] = [];
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const queue = createJobQueue(
        proxy,
        { error: () => undefined, warn: () => undefined },
        { pollingIntervalSeconds: 0.5 },
      );
      queue.work<{ label: string }>('test.race', async ({ label }) => {
        ran.push(label);
      });
      await queue.start();
      // The next fetch is held before it reaches PostgreSQL; the job is sent
      // meanwhile, so that fetch (and no earlier one) is the one that gets it.
      holding = true;
      await held;
      const jobId = await queue.send('test.race', { label: 'raced' });
      // Stop while the fetch is held; the fetch returns 150 ms later with the job.
      setTimeout(() => gate!(), 150);
      await queue.stop(5_000);
      ended = true;
      // Refused at stop and failed back to the queue: it runs again later, never lost.
      // Once it is back, the held fetch has come and gone: nothing ran, nothing threw.
      const state = async () =>
        (
          await t.db.execute(
            sql`SELECT state FROM pgboss.job WHERE name = 'test.race' AND id = ${jobId}::uuid`,
          )
        ).rows;
      await vi.waitFor(async () => expect(await state()).toEqual([{ state: 'retry' }]), {
        timeout: 5_000,
      });
      expect(rejections).toEqual([]);
      expect(ran).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});
