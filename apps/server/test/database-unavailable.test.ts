import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { isDatabaseUnavailable } from '../src/db/unavailable';
import { createTestApp, type TestApp, type TestClient } from './helpers';
import { epoch, insertToken, serial, xt1Body } from './shipment-factories';

/**
 * The app while its database is away (in-process): every connection is cut
 * (`pg_terminate_backend`, as a PostgreSQL shutdown does) and new ones are
 * refused (connection limit 0: SQLSTATE 53300). Nothing throws out of the
 * pool, a connection held by a request included; calls answer 503
 * SERVICE_UNAVAILABLE with Retry-After, the health check says down; once the
 * database takes connections again everything answers as before, without a
 * restart. (test/database-loss.test.ts kills a real server's PostgreSQL.)
 */

async function asSuperuser(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: `${inject('pgBaseUrl')}/postgres` });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

describe('the database unavailable [FEAT-DURABILITY]', () => {
  let t: TestApp;
  let client: TestClient;
  let token: string;
  const upload = () =>
    t.inject({
      method: 'POST',
      url: '/api/devices/xt1/scans/',
      headers: { authorization: `Token ${token}` },
      payload: xt1Body(serial('DOWN'), {
        start_time_seconds: epoch(new Date()) - 3600,
        temps: [4, 5, 6],
      }),
    });

  beforeAll(async () => {
    t = await createTestApp();
    const signedIn = await t.signIn({ role: 'Administrator' });
    client = signedIn.client;
    token = await insertToken(t.db, signedIn.user.id, signedIn.orgs[0]!.id);
  });
  afterAll(async () => {
    await asSuperuser(`ALTER DATABASE ${t.databaseName} CONNECTION LIMIT -1`);
    await t.close();
  });

  it('the health check says up', async () => {
    const res = await t.inject({ url: '/api/health/' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: 'up' });
    expect((await upload()).statusCode).toBe(200);
  });

  it('answers 503 with Retry-After while the database is away, and recovers by itself', async () => {
    // A connection checked out of the pool (as in a transaction) when the server goes away.
    const held = await t.handle.pool.connect();
    await asSuperuser(`ALTER DATABASE ${t.databaseName} CONNECTION LIMIT 0`);
    await asSuperuser(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${t.databaseName}'`,
    );
    const lost = await held.query('SELECT 1').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(isDatabaseUnavailable(lost)).toBe(true);
    held.release(true);

    const health = await t.inject({ url: '/api/health/' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toEqual({ status: 'unavailable', database: 'down' });
    expect(health.headers['retry-after']).toBe('5');

    for (const res of [await client.get('/api/auth/session/'), await upload()]) {
      expect(res.statusCode, res.body).toBe(503);
      expect(res.json()).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: expect.stringMatching(/temporarily unavailable/),
      });
      expect(res.headers['retry-after']).toBe('5');
    }

    await asSuperuser(`ALTER DATABASE ${t.databaseName} CONNECTION LIMIT -1`);
    const back = await t.inject({ url: '/api/health/' });
    expect(back.json()).toEqual({ status: 'ok', database: 'up' });
    expect((await client.get('/api/auth/session/')).statusCode).toBe(200);
    expect((await upload()).statusCode).toBe(200);
  });
});

describe('isDatabaseUnavailable [FEAT-DURABILITY]', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

  it('knows connection failures, also inside a query wrapper', () => {
    for (const err of [
      withCode('ECONNREFUSED'),
      withCode('ECONNRESET'),
      // The embedded PostgreSQL's Unix socket while it restarts (no socket file yet).
      Object.assign(withCode('ENOENT', 'connect ENOENT /data/postgres/.s.PGSQL.5433'), {
        syscall: 'connect',
      }),
      withCode('57P01'),
      withCode('57P02'),
      withCode('57P03'),
      withCode('08006'),
      withCode('08001'),
      withCode('53300'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('Failed query: select 1'), {
        query: 'select 1',
        cause: withCode('57P01'),
      }),
    ]) {
      expect(isDatabaseUnavailable(err), err.message).toBe(true);
    }
  });

  it('leaves the query’s own faults alone', () => {
    for (const err of [
      withCode('23505'),
      withCode('42501'),
      // A missing file is not a lost database.
      Object.assign(withCode('ENOENT'), { syscall: 'open' }),
      withCode('22P02'),
      new Error('boom'),
      // A parameter that reads like a connection error does not make one.
      Object.assign(new Error('Failed query: ... params: Connection terminated'), {
        query: 'insert',
        cause: withCode('23505'),
      }),
      'Connection terminated',
      undefined,
    ]) {
      expect(isDatabaseUnavailable(err), String(err)).toBe(false);
    }
  });
});
