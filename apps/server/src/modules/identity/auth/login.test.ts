import { ZUser } from '@coldtrace/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/helpers';
import { loadConfig } from '../../../config';
import { loginAttempts, sessions } from '../../../db/schema';
import { sessionIdOf } from './cookies';

describe('POST /api/auth/login/ [SPEC-7.1, FEAT-ACCOUNT-SECURITY]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      config: { loginThrottle: { maxPerAccount: 5, maxPerAddress: 8, windowMinutes: 15 } },
    });
  });
  afterAll(() => t.close());

  /** Each test its own client address, so address throttling of one test does not leak into another. */
  let n = 0;
  const fromNewAddress = () =>
    t.client({ remoteAddress: `10.1.${Math.floor(n / 250)}.${n++ % 250}` });

  it('signs in by username or e-mail, case-insensitively, and answers the full user', async () => {
    const user = await t.createUser({ role: 'Operator' });
    for (const login of [
      user.username,
      user.email.toUpperCase(),
      ` ${user.username.toUpperCase()} `,
    ]) {
      const client = fromNewAddress();
      const res = await client.login(login, user.password);
      expect(res.statusCode, res.body).toBe(200);
      const body = ZUser.parse(res.json());
      expect(body.id).toBe(user.id);
      expect(body.current_session_permissions).toContain('readerScan');
      expect(body.current_session_permissions).not.toContain('sysAdminUser');
      expect(client.sessionToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const cookie = res.headers['set-cookie'];
      expect(String(cookie)).toMatch(/sessionid=.*HttpOnly.*SameSite=Lax/);
      expect(String(cookie)).not.toContain('Secure');
    }
  });

  it('stores only the sha256 of the session token', async () => {
    const { client, user } = await t.signIn();
    const rows = await t.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(sessionIdOf(client.sessionToken!));
    expect(rows[0]!.id).not.toContain(client.sessionToken!);
  });

  it('issues a new session id at every sign-in and drops the one it replaces', async () => {
    const { client, user } = await t.signIn();
    const first = client.sessionToken!;
    expect((await client.login(user.username, user.password)).statusCode).toBe(200);
    const second = client.sessionToken!;
    expect(second).not.toBe(first);
    const stale = t.client({ headers: { cookie: `sessionid=${first}` } });
    expect((await stale.get('/api/auth/session/')).statusCode).toBe(401);
    expect((await client.get('/api/auth/session/')).statusCode).toBe(200);
  });

  it('refuses wrong credentials with one message for unknown user and wrong password', async () => {
    const user = await t.createUser();
    const wrong = await fromNewAddress().login(user.username, 'not the password');
    const unknown = await fromNewAddress().login('nobody-at-all', 'whatever');
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        code: 'INVALID_CREDENTIALS',
        message: 'Unable to log in with provided credentials.',
      });
    }
  });

  it('a locked user gets 403 ACCOUNT_LOCKED only with the right password', async () => {
    const user = await t.createUser({ locked: true });
    const wrong = await fromNewAddress().login(user.username, 'nope');
    expect(wrong.statusCode).toBe(400);
    const right = await fromNewAddress().login(user.username, user.password);
    expect(right.statusCode).toBe(403);
    expect(right.json().code).toBe('ACCOUNT_LOCKED');
  });

  it("a stranger's 5 wrong passwords throttle new clients, not the user's known browser", async () => {
    const user = await t.createUser();
    const victim = await t.createUser();
    // The user signed in on this browser before: it holds a device cookie.
    const known = fromNewAddress();
    const first = await known.login(user.username, user.password);
    expect(first.statusCode).toBe(200);
    expect(String(first.headers['set-cookie'])).toMatch(/deviceid=[^;]+;.*Path=\/api\/;.*HttpOnly/);

    for (let i = 0; i < 5; i += 1) {
      expect((await fromNewAddress().login(user.email, `wrong-${i}`)).statusCode).toBe(400);
    }
    const res = await fromNewAddress().login(user.username, user.password);
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('THROTTLED');
    expect(res.json().message).toMatch(
      /Too many failed sign-in attempts\. Try again in \d+ minutes?\./,
    );
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    // The known browser signs in regardless.
    expect((await known.login(user.username, user.password)).statusCode).toBe(200);
    // Another account is not affected.
    expect((await fromNewAddress().login(victim.username, victim.password)).statusCode).toBe(200);
  });

  /** Moves the account's failures into the past, as if `ms` had gone by. */
  const age = (userId: string, ms: number) =>
    t.db
      .update(loginAttempts)
      .set({ failedAt: sql`${loginAttempts.failedAt} - make_interval(secs => ${ms / 1000})` })
      .where(and(eq(loginAttempts.kind, 'account'), eq(loginAttempts.key, `user:${userId}`)));

  it('beyond 5 failures a stranger waits 1, 2, 4... minutes between attempts, not a wall', async () => {
    const user = await t.createUser();
    for (let i = 0; i < 5; i += 1) await fromNewAddress().login(user.username, 'wrong');
    expect((await fromNewAddress().login(user.username, 'wrong')).statusCode).toBe(429);
    await age(user.id, 61_000);
    // One attempt is admitted after a minute; its failure doubles the delay.
    expect((await fromNewAddress().login(user.username, 'wrong')).statusCode).toBe(400);
    const next = await fromNewAddress().login(user.username, user.password);
    expect(next.statusCode).toBe(429);
    expect(Number(next.headers['retry-after'])).toBeGreaterThan(60);
    expect(Number(next.headers['retry-after'])).toBeLessThanOrEqual(120);
    await age(user.id, 121_000);
    // The right password passes once the delay is over, and clears the failures.
    expect((await fromNewAddress().login(user.username, user.password)).statusCode).toBe(200);
    expect((await fromNewAddress().login(user.username, 'wrong')).statusCode).toBe(400);
  });

  it('a device cookie is trusted for its own user only, and not after its own 5 failures', async () => {
    const user = await t.createUser();
    const other = await t.createUser();
    const known = fromNewAddress();
    expect((await known.login(other.username, other.password)).statusCode).toBe(200);
    expect((await known.login(user.username, user.password)).statusCode).toBe(200);
    // A stranger spends the account's allowance.
    for (let i = 0; i < 5; i += 1) await fromNewAddress().login(user.username, 'wrong');
    // The browser remembers both users; an altered entry, or another user's, is a stranger's.
    const [mine, others] = known.cookies.get('deviceid')!.split('~');
    expect(others).toBeDefined();
    for (const value of [mine!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')), others!]) {
      const forged = fromNewAddress();
      forged.cookies.set('deviceid', value);
      expect((await forged.login(user.username, user.password)).statusCode).toBe(429);
    }
    // Wrong passwords from the known browser count against its cookie only...
    for (let i = 0; i < 5; i += 1) {
      expect((await known.login(user.username, 'wrong')).statusCode).toBe(400);
    }
    // ...and after 5 of them the cookie is no longer trusted.
    expect((await known.login(user.username, user.password)).statusCode).toBe(429);
  });
  it('unknown accounts are throttled like known ones (no enumeration through throttling)', async () => {
    for (let i = 0; i < 5; i += 1) await fromNewAddress().login('ghost-user', 'x');
    expect((await fromNewAddress().login('ghost-user', 'x')).statusCode).toBe(429);
  });

  it('a successful sign-in clears the account failures', async () => {
    const user = await t.createUser();
    for (let i = 0; i < 4; i += 1) await fromNewAddress().login(user.username, 'wrong');
    expect((await fromNewAddress().login(user.username, user.password)).statusCode).toBe(200);
    for (let i = 0; i < 4; i += 1) await fromNewAddress().login(user.username, 'wrong');
    expect((await fromNewAddress().login(user.username, user.password)).statusCode).toBe(200);
  });
});

describe('login throttling per client address [FEAT-ACCOUNT-SECURITY]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      config: { loginThrottle: { maxPerAccount: 100, maxPerAddress: 3, windowMinutes: 15 } },
    });
  });
  afterAll(() => t.close());

  it('throttles an address after its failures, whatever the account', async () => {
    const users = await Promise.all([t.createUser(), t.createUser(), t.createUser()]);
    const client = t.client({ remoteAddress: '192.0.2.77' });
    for (const u of users) expect((await client.login(u.username, 'wrong')).statusCode).toBe(400);
    const fresh = await t.createUser();
    const res = await client.login(fresh.username, fresh.password);
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('THROTTLED');
  });
});

describe('login throttling behind a proxy (TRUST_PROXY) [FEAT-ACCOUNT-SECURITY, FEAT-DEPLOYMENT]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      config: {
        // As an operator writes it: TRUST_PROXY=true means one hop.
        trustProxy: loadConfig({ TRUST_PROXY: 'true' }).trustProxy,
        loginThrottle: { maxPerAccount: 100, maxPerAddress: 3, windowMinutes: 15 },
      },
    });
  });
  afterAll(() => t.close());

  it('a forged X-Forwarded-For does not bypass the per-address limit', async () => {
    const users = await Promise.all([1, 2, 3, 4, 5].map(() => t.createUser()));
    // One client (198.51.100.7) through one proxy (10.0.0.1), which appends the
    // address it saw to whatever the client sent; the client rotates its forged value.
    const through = (forged: string) =>
      t.client({
        remoteAddress: '10.0.0.1',
        headers: { 'x-forwarded-for': `${forged}, 198.51.100.7` },
      });
    for (const [i, u] of users.slice(0, 3).entries()) {
      expect((await through(`1.2.3.${i}`).login(u.username, 'wrong')).statusCode).toBe(400);
    }
    const res = await through('1.2.3.99').login(users[3]!.username, users[3]!.password);
    expect(res.statusCode).toBe(429);
    // Another client behind the same proxy is not affected.
    const other = t.client({
      remoteAddress: '10.0.0.1',
      headers: { 'x-forwarded-for': '198.51.100.8' },
    });
    expect((await other.login(users[4]!.username, users[4]!.password)).statusCode).toBe(200);
  });
});
