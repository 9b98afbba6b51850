import { BUILT_IN_ROLES } from '@coldtrace/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/helpers';
import { insertToken, TokenClient } from '../../../../test/shipment-factories';
import { memberships, users } from '../../../db/schema';
import { userTokens } from '../../../db/schema-access';
import { sessionIdOf } from '../auth';
import { issueToken as issuePasswordToken } from '../password';

describe('user tokens [FEAT-ACCOUNT-SECURITY, SPEC-6.2]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('POST /api/auth/tokens/ issues a token shown once; only its SHA-256 is stored', async () => {
    const { client, orgs, user } = await t.signIn({ role: 'Operator' });
    const before = Date.now();
    const res = await client.post('/api/auth/tokens/', { name: 'gateway 1', expiry_days: 7 });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const expiry = Date.parse(body.expiry);
    expect(expiry - before).toBeGreaterThanOrEqual(7 * 86_400_000 - 1000);
    expect(expiry - before).toBeLessThanOrEqual(7 * 86_400_000 + 5000);
    expect(new Date(body.created).toISOString()).toBe(body.created);

    const rows = await t.db.select().from(userTokens).where(eq(userTokens.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe(sessionIdOf(body.token));
    expect(rows[0]!.id).not.toContain(body.token);
    expect(rows[0]!).toMatchObject({ organizationId: orgs[0]!.id, name: 'gateway 1' });
  });

  it('without expiry_days a token lasts TOKEN_TTL_DAYS (30); more than TOKEN_MAX_TTL_DAYS is refused', async () => {
    expect(t.config.tokenTtlDays).toEqual({ default: 30, max: 365 });
    const { client } = await t.signIn();
    const res = await client.post('/api/auth/tokens/');
    expect(res.statusCode).toBe(200);
    const days = (Date.parse(res.json().expiry) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
    expect((await client.post('/api/auth/tokens/', { expiry_days: 365 })).statusCode).toBe(200);
    const tooLong = await client.post('/api/auth/tokens/', { expiry_days: 366 });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json().fields).toEqual({ expiry_days: 'A token may last at most 365 days.' });
  });

  it('a token issued without an expiry (before tokens had one) dies TOKEN_MAX_TTL_DAYS after its creation', async () => {
    const org = await t.createOrg();
    const user = await t.createUser({ orgs: [org] });
    const old = await insertToken(t.db, user.id, org.id, { expiry: null });
    const recent = await insertToken(t.db, user.id, org.id, { expiry: null });
    await t.db
      .update(userTokens)
      .set({ created: new Date(Date.now() - 366 * 86_400_000) })
      .where(eq(userTokens.id, sessionIdOf(old)));
    expect((await new TokenClient(t, old).get('/api/auth/session/')).statusCode).toBe(401);
    expect((await new TokenClient(t, recent).get('/api/auth/session/')).statusCode).toBe(200);
  });

  it('bad input answers 400 naming the field', async () => {
    const { client } = await t.signIn();
    for (const [payload, field] of [
      [{ expiry_days: 0 }, 'expiry_days'],
      [{ expiry_days: 'ten' }, 'expiry_days'],
      [{ expiry_days: 1.5 }, 'expiry_days'],
      [{ name: 'x'.repeat(101) }, 'name'],
    ] as const) {
      const res = await client.post('/api/auth/tokens/', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(Object.keys(res.json().fields)).toContain(field);
    }
  });

  it('needs a signed-in session: 401 without, 403 with a token', async () => {
    const anonymous = t.client();
    expect((await anonymous.post('/api/auth/tokens/', {})).statusCode).toBe(401);
    const { client } = await t.signIn();
    const token = (await client.post('/api/auth/tokens/', {})).json().token as string;
    const res = await new TokenClient(t, token).post('/api/auth/tokens/', {});
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
  });

  it("a token acts as its user in its organization, with the role's permissions, without CSRF", async () => {
    const { client, user, orgs } = await t.signIn({ role: 'Manager' });
    const token = (await client.post('/api/auth/tokens/', {})).json().token as string;
    const device = new TokenClient(t, token);
    const session = await device.get('/api/auth/session/');
    expect(session.statusCode).toBe(200);
    expect(session.json().id).toBe(user.id);
    expect([...session.json().current_session_permissions].sort()).toEqual(
      [...BUILT_IN_ROLES.Manager!].sort(),
    );
    // A state-changing call with the token needs no CSRF header or cookie.
    const patched = await t.inject({
      method: 'PATCH',
      url: '/api/auth/user-settings/',
      headers: { authorization: `Token ${token}` },
      payload: { degrees_unit: 'F' },
    });
    expect(patched.statusCode).toBe(200);
    expect(orgs[0]).toBeDefined();
  });

  it('an unknown, malformed or expired token, a locked user or a former member: 401', async () => {
    const org = await t.createOrg();
    const user = await t.createUser({ role: 'Operator', orgs: [org] });
    const expired = await insertToken(t.db, user.id, org.id, { expiry: new Date(Date.now() - 1) });
    const live = await insertToken(t.db, user.id, org.id);
    const status = (token: string) =>
      new TokenClient(t, token).get('/api/auth/session/').then((r) => r.statusCode);

    expect(await status(live)).toBe(200);
    expect(await status(expired)).toBe(401);
    expect(await status('x'.repeat(43))).toBe(401);
    expect(await status('not a token')).toBe(401);

    await t.db.update(users).set({ isLocked: true }).where(eq(users.id, user.id));
    expect(await status(live)).toBe(401);
    await t.db.update(users).set({ isLocked: false }).where(eq(users.id, user.id));
    expect(await status(live)).toBe(200);

    await t.db
      .delete(memberships)
      .where(and(eq(memberships.userId, user.id), eq(memberships.organizationId, org.id)));
    expect(await status(live)).toBe(401);
  });

  it('a bad token is not rescued by a session cookie; another scheme falls back to the cookie', async () => {
    const { client } = await t.signIn();
    const bad = await client.get('/api/auth/session/', {
      authorization: `Token ${'y'.repeat(43)}`,
    });
    expect(bad.statusCode).toBe(401);
    const other = await client.get('/api/auth/session/', { authorization: 'Bearer whatever' });
    expect(other.statusCode).toBe(200);
  });

  describe("one's own tokens: list and revoke", () => {
    it("lists only the caller's live tokens, with their organization, never the token", async () => {
      const { client, user, orgs } = await t.signIn({ role: 'Operator' });
      const issued = (await client.post('/api/auth/tokens/', { name: 'gateway 7' })).json();
      await insertToken(t.db, user.id, orgs[0]!.id, { expiry: new Date(Date.now() - 1000) });
      const stranger = await t.signIn();
      await stranger.client.post('/api/auth/tokens/', { name: 'not yours' });
      await new TokenClient(t, issued.token).get('/api/auth/session/');

      const res = await client.get('/api/auth/tokens/');
      expect(res.statusCode).toBe(200);
      const list = res.json();
      expect(list).toEqual([
        {
          id: sessionIdOf(issued.token).slice(0, 16),
          name: 'gateway 7',
          organization: { id: orgs[0]!.id, name: orgs[0]!.name },
          created: issued.created,
          expiry: issued.expiry,
          last_used: expect.any(String),
        },
      ]);
      expect(res.body).not.toContain(issued.token);
      expect(res.body).not.toContain(sessionIdOf(issued.token));
    });

    it("revokes one's own token at once; another user's id or a malformed one answers 404", async () => {
      const { client } = await t.signIn();
      const mine = (await client.post('/api/auth/tokens/', { name: 'mine' })).json().token;
      const stranger = await t.signIn();
      const theirs = (await stranger.client.post('/api/auth/tokens/', {})).json().token;
      const theirId = sessionIdOf(theirs).slice(0, 16);

      for (const id of [theirId, sessionIdOf(theirs), 'zz%', '%', '0123456789abcdef']) {
        const res = await client.post('/api/auth/tokens/revoke/', { id });
        expect(res.statusCode, id).toBe(404);
      }
      expect((await new TokenClient(t, theirs).get('/api/auth/session/')).statusCode).toBe(200);

      const revoked = await client.post('/api/auth/tokens/revoke/', {
        id: sessionIdOf(mine).slice(0, 16),
      });
      expect(revoked.statusCode).toBe(204);
      expect((await new TokenClient(t, mine).get('/api/auth/session/')).statusCode).toBe(401);
      expect((await client.get('/api/auth/tokens/')).json()).toEqual([]);
    });

    it('ends every other session of the caller, keeping this one', async () => {
      const { client, user } = await t.signIn();
      const other = t.client();
      expect((await other.login(user.username, user.password)).statusCode).toBe(200);
      const token = (await client.post('/api/auth/tokens/', {})).json().token;
      expect((await client.post('/api/auth/sessions/revoke-others/')).statusCode).toBe(204);
      expect((await other.get('/api/auth/session/')).statusCode).toBe(401);
      expect((await client.get('/api/auth/session/')).statusCode).toBe(200);
      expect((await new TokenClient(t, token).get('/api/auth/session/')).statusCode).toBe(200);
    });
  });

  describe('tokens and sessions die with the credentials', () => {
    const status = (token: string) =>
      new TokenClient(t, token).get('/api/auth/session/').then((r) => r.statusCode);

    it('a password change revokes every token and other session, and keeps this session', async () => {
      const { client, user } = await t.signIn();
      const other = t.client();
      await other.login(user.username, user.password);
      const token = (await client.post('/api/auth/tokens/', {})).json().token;
      expect(await status(token)).toBe(200);
      const changed = await client.post('/api/auth/password-change/', {
        old_password: user.password,
        new_password: 'a brand new passphrase 42',
        new_password_confirm: 'a brand new passphrase 42',
      });
      expect(changed.statusCode).toBe(200);
      expect(await status(token)).toBe(401);
      expect((await other.get('/api/auth/session/')).statusCode).toBe(401);
      expect((await client.get('/api/auth/session/')).statusCode).toBe(200);
    });

    it('a password reset revokes every token and session', async () => {
      const { client, user } = await t.signIn();
      const token = (await client.post('/api/auth/tokens/', {})).json().token;
      const link = await issuePasswordToken(t.db, user.id, 'reset', 1);
      const confirmed = await t.client().post('/api/auth/password-reset-confirm/', {
        uuid: user.id,
        token: link,
        new_password: 'a brand new passphrase 42',
      });
      expect(confirmed.statusCode).toBe(204);
      expect(await status(token)).toBe(401);
      expect((await client.get('/api/auth/session/')).statusCode).toBe(401);
    });

    it('locking a user revokes their tokens: unlocking does not revive them', async () => {
      // Locking an account is the server administrator's (issue 34).
      const admin = await t.signIn({ role: 'Administrator', serverAdmin: true });
      const user = await t.createUser({ role: 'Operator', orgs: admin.orgs });
      const signedIn = t.client();
      await signedIn.login(user.username, user.password);
      const token = (await signedIn.post('/api/auth/tokens/', {})).json().token;
      for (const is_locked of [true, false]) {
        const res = await admin.client.post('/api/auth/user-lock/', {
          user_id: user.id,
          is_locked,
        });
        expect(res.statusCode, res.body).toBe(200);
      }
      expect(await status(token)).toBe(401);
      expect((await signedIn.get('/api/auth/session/')).statusCode).toBe(401);
    });
  });
});
