import { BUILT_IN_ROLES } from '@coldtrace/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { insertToken, TokenClient } from '../../../test/shipment-factories';
import { memberships, users } from '../../db/schema';
import { userTokens } from '../../db/schema-shipments';
import { sessionIdOf } from '../auth/cookies';

describe('user tokens', () => {
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

  it('without a body the token lasts 365 days', async () => {
    const { client } = await t.signIn();
    const res = await client.post('/api/auth/tokens/');
    expect(res.statusCode).toBe(200);
    const days = (Date.parse(res.json().expiry) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(364.9);
    expect(days).toBeLessThan(365.1);
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
});
