import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '../../../../test/helpers';
import { memberships, sessions } from '../../../db/schema';
import { principalCacheOf } from './principal';
import { JOB_SCHEMA } from '../../../jobs/queue';

const SUMMARY = '/api/devices/xt1/records/statistics/summary/';

/** Resolves once `check` holds (the notification reached the process), or fails after 5 s. */
async function eventually(check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > 5_000) throw new Error('never held');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * The principal cache (PRINCIPAL_CACHE_SECONDS): a repeated signed-in request
 * does not look its session up again, and no change to who may do what is
 * served from it: a change made through a request holds from the next
 * request; a change made anywhere else (another process, a script) holds once
 * PostgreSQL's notification arrives; nothing is cached while the listening
 * connection is down.
 */
describe('principal cache [SPEC-6.2, FEAT-PERFORMANCE]', () => {
  let t: TestApp;
  const summary = async (client: TestClient) => (await client.get(SUMMARY)).statusCode;

  beforeAll(async () => {
    t = await createTestApp({ config: { principalCacheSeconds: 5 } });
    await principalCacheOf(t.db)!.ready();
  });
  afterAll(() => t.close());

  it('a repeated request makes no session query', async () => {
    const { client } = await t.signIn({ role: 'Viewer' });
    expect(await summary(client)).toBe(200);
    const query = vi.spyOn(t.handle.pool, 'query');
    try {
      expect(await summary(client)).toBe(200);
      // The organization's counts only.
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      query.mockRestore();
    }
  });

  it('signing out through the API: the very next request is anonymous', async () => {
    const { client } = await t.signIn({ role: 'Viewer' });
    expect(await summary(client)).toBe(200);
    const cookie = [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const out = await client.get('/api/auth/logout/');
    expect(out.statusCode).toBeLessThan(300);
    // The old cookie again, at once.
    const again = await t.inject({ method: 'GET', url: SUMMARY, headers: { cookie } });
    expect(again.statusCode).toBe(401);
  });

  it('a session deleted in the database (another process, a script) is refused once notified', async () => {
    const { client, user } = await t.signIn({ role: 'Viewer' });
    expect(await summary(client)).toBe(200);
    expect(await summary(client)).toBe(200);
    await t.db.delete(sessions).where(eq(sessions.userId, user.id));
    const ms = await eventually(async () => (await summary(client)) === 401);
    expect(ms).toBeLessThan(1_000);
  });

  it('a membership removed in the database is refused once notified; new terms too', async () => {
    const org = await t.createOrg();
    const { client, user } = await t.signIn({ role: 'Viewer', orgs: [org] });
    expect(await summary(client)).toBe(200);
    await t.db
      .delete(memberships)
      .where(sql`${memberships.userId} = ${user.id} AND ${memberships.organizationId} = ${org.id}`);
    await eventually(async () => (await summary(client)) !== 200);

    const other = await t.signIn({ role: 'Viewer' });
    expect(await summary(other.client)).toBe(200);
    const terms = await t.publishTerms();
    await eventually(async () => (await summary(other.client)) === 403);
    // Agreeing through the API: served at the very next request (the refused
    // lookup was cached; the agreement's request empties the cache as it answers).
    const agreed = await other.client.post('/api/auth/tos-agreement/', { id: terms.id });
    expect(agreed.statusCode).toBe(200);
    expect(await summary(other.client)).toBe(200);
  });

  it('a lookup that started before a change is not kept', async () => {
    const cache = principalCacheOf(t.db)!;
    const { client } = await t.signIn({ role: 'Viewer' });
    const before = cache.generation();
    cache.clear();
    // What a lookup begun before the clear would try to keep.
    const sessionId = (await t.db.select().from(sessions).limit(1))[0]!.id;
    const stale = { session: { expiresAt: new Date(Date.now() + 60_000) } } as never;
    cache.set(sessionId, stale, before, new Date());
    expect(cache.get(sessionId, new Date())).toBeUndefined();
    expect(await summary(client)).toBe(200);
  });

  it('serves nothing from the cache while it cannot listen, and listens again', async () => {
    const cache = principalCacheOf(t.db)!;
    const { client } = await t.signIn({ role: 'Viewer' });
    expect(await summary(client)).toBe(200);
    // The listening connection is cut (as by a restart of PostgreSQL).
    await t.db.execute(
      sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND query = 'LISTEN coldtrace_principals'`,
    );
    await eventually(async () => !cache.listening);
    const query = vi.spyOn(t.handle.pool, 'query');
    // The request's own queries: the job queue polls the same pool every 0.5 s in tests.
    const textOf = (c: unknown) =>
      typeof c === 'string' ? c : String((c as { text?: string }).text);
    const requests = () =>
      query.mock.calls.filter(([c]) => !textOf(c).includes(`${JOB_SCHEMA}.`)).length;
    try {
      expect(await summary(client)).toBe(200);
      expect(requests()).toBe(2); // the session, then the counts
    } finally {
      query.mockRestore();
    }
    await cache.ready(10_000);
    expect(await summary(client)).toBe(200);
  });
});
