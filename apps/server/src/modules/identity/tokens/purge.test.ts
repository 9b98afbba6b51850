import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/helpers';
import { insertToken, TokenClient } from '../../../../test/shipment-factories';
import { passwordTokens } from '../../../db/schema-mail';
import { userTokens } from '../../../db/schema-access';
import { PURGE_EXPIRED_TOKENS_JOB } from '../../../jobs/catalogue';
import { sessionIdOf } from '../auth';
import { consumeToken, hashToken, issueToken as issuePasswordToken } from '../password';

const DAY_MS = 86_400_000;

describe('the daily purge of expired tokens (tokens.purge-expired) [FEAT-ACCOUNT-SECURITY]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('is scheduled every day in the job queue', async () => {
    const { rows } = await t.db.execute<{ cron: string; timezone: string }>(
      sql`SELECT cron, timezone FROM pgboss.schedule WHERE name = ${PURGE_EXPIRED_TOKENS_JOB}`,
    );
    expect(rows).toEqual([{ cron: '17 3 * * *', timezone: 'UTC' }]);
  });

  it('deletes expired user tokens and password links; live ones stay and still work', async () => {
    const org = await t.createOrg();
    const user = await t.createUser({ orgs: [org] });
    const now = Date.now();
    const live = await insertToken(t.db, user.id, org.id, { expiry: new Date(now + DAY_MS) });
    const expired = await insertToken(t.db, user.id, org.id, { expiry: new Date(now - 1000) });
    // Issued before tokens had an expiry: alive until TOKEN_MAX_TTL_DAYS (365) after creation.
    const legacyLive = await insertToken(t.db, user.id, org.id, { expiry: null });
    const legacyOld = await insertToken(t.db, user.id, org.id, { expiry: null });
    await t.db
      .update(userTokens)
      .set({ created: new Date(now - 366 * DAY_MS) })
      .where(eq(userTokens.id, sessionIdOf(legacyOld)));

    const liveLink = await issuePasswordToken(t.db, user.id, 'welcome', 1);
    const expiredLink = await issuePasswordToken(
      t.db,
      user.id,
      'reset',
      1,
      new Date(now - 2 * 3_600_000),
    );
    // A used link is deleted as it is used.
    const usedLink = await issuePasswordToken(t.db, user.id, 'reset', 1);
    expect(await consumeToken(t.db, user.id, usedLink)).toBe('reset');

    const userTokenIds = () =>
      t.db
        .select({ id: userTokens.id })
        .from(userTokens)
        .where(eq(userTokens.userId, user.id))
        .then((rows) => rows.map((r) => r.id).sort());
    const linkHashes = () =>
      t.db
        .select({ hash: passwordTokens.tokenHash })
        .from(passwordTokens)
        .where(inArray(passwordTokens.tokenHash, [liveLink, expiredLink, usedLink].map(hashToken)))
        .then((rows) => rows.map((r) => r.hash).sort());
    expect(await userTokenIds()).toHaveLength(4);
    expect(await linkHashes()).toEqual([hashToken(liveLink), hashToken(expiredLink)].sort());

    await t.app.jobs.send(PURGE_EXPIRED_TOKENS_JOB, {});
    await t.app.jobs.waitForIdle([PURGE_EXPIRED_TOKENS_JOB]);

    expect(await userTokenIds()).toEqual([sessionIdOf(live), sessionIdOf(legacyLive)].sort());
    expect(await linkHashes()).toEqual([hashToken(liveLink)]);
    for (const token of [live, legacyLive]) {
      expect((await new TokenClient(t, token).get('/api/auth/session/')).statusCode).toBe(200);
    }
    expect((await new TokenClient(t, expired).get('/api/auth/session/')).statusCode).toBe(401);
    const check = await t
      .client()
      .post('/api/auth/password-reset-validate/', { uuid: user.id, token: liveLink });
    expect(check.statusCode, check.body).toBe(204);
  });
});
