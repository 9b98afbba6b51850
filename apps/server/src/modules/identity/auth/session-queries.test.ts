import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/helpers';

const SUMMARY = '/api/devices/xt1/records/statistics/summary/';

/**
 * A signed-in request reads its session, user, role and the terms agreement
 * in one query (docs/decisions/list-performance.md, "Session lookup"); without the principal
 * cache (PRINCIPAL_CACHE_SECONDS=0, the tests' setting; principal-cache.test.ts
 * tests it) nothing is kept between requests: new terms stop the very next request.
 */
describe('session lookup per request [SPEC-6.2, FEAT-PERFORMANCE]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await t.publishTerms();
  });
  afterAll(() => t.close());

  it('costs one query, terms check included', async () => {
    const org = await t.createOrg();
    const { client } = await t.signIn({ role: 'Viewer', orgs: [org] });
    expect((await client.get(SUMMARY)).statusCode).toBe(200);
    const query = vi.spyOn(t.handle.pool, 'query');
    try {
      const res = await client.get(SUMMARY);
      expect(res.statusCode).toBe(200);
      // The session (with the terms agreement) and the organization's counts.
      expect(query).toHaveBeenCalledTimes(2);
    } finally {
      query.mockRestore();
    }
  });

  it('refuses the next request once new terms are published, and serves it once agreed', async () => {
    const org = await t.createOrg();
    const { client, user } = await t.signIn({ role: 'Viewer', orgs: [org] });
    expect((await client.get(SUMMARY)).statusCode).toBe(200);
    const terms = await t.publishTerms();
    const refused = await client.get(SUMMARY);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('TERMS_NOT_ACCEPTED');
    // The agreement as POST tos-agreement/ stores it.
    await t.db.execute(
      sql`INSERT INTO tos_agreements (user_id, tos_id) VALUES (${user.id}, ${terms.id})`,
    );
    expect((await client.get(SUMMARY)).statusCode).toBe(200);
  });
});
