import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';

/** The durable queue: jobs sent in a transaction exist only if it commits; failures retry. */
describe('job queue', () => {
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
});
