import { ZUser } from '@coldtrace/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { loadConfig } from '../../config';
import { sessions } from '../../db/schema';
import { sessionIdOf } from './cookies';

describe('POST /api/auth/login/', () => {
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

  it('throttles an account after 5 failures, even with the right password', async () => {
    const user = await t.createUser();
    const victim = await t.createUser();
    for (let i = 0; i < 5; i += 1) {
      expect((await fromNewAddress().login(user.email, `wrong-${i}`)).statusCode).toBe(400);
    }
    const res = await fromNewAddress().login(user.username, user.password);
    expect(res.statusCode).toBe(429);
    expect(res.json().code).toBe('THROTTLED');
    expect(res.json().message).toMatch(
      /Too many failed sign-in attempts\. Try again in \d+ minutes?\./,
    );
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    // Another account is not affected.
    expect((await fromNewAddress().login(victim.username, victim.password)).statusCode).toBe(200);
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

describe('login throttling per client address', () => {
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

describe('login throttling behind a proxy (TRUST_PROXY)', () => {
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
