import { BUILT_IN_ROLES, ZUser } from '@coldtrace/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/helpers';
import { sessions, users } from '../../../db/schema';

describe('session, organizations and logout [SPEC-7.1, SPEC-1, SPEC-2.5]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET session without a cookie: 401 UNAUTHENTICATED', async () => {
    const res = await t.client().get('/api/auth/session/');
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHENTICATED');
  });

  it('GET session answers the full user', async () => {
    await t.publishTerms();
    const orgA = await t.createOrg();
    const orgB = await t.createOrg();
    const { client, user } = await t.signIn({ role: 'Manager', orgs: [orgA, orgB] });
    const res = await client.get('/api/auth/session/');
    expect(res.statusCode).toBe(200);
    const body = ZUser.parse(res.json());
    expect(body).toMatchObject({
      id: user.id,
      username: user.username,
      email: user.email,
      first_name: 'Test',
      settings: { degrees_unit: 'C', timezone: 'UTC' },
      org_settings: { alarm_notify_my_scans_orgs: [], alarm_notify_any_scans_orgs: [] },
      has_agreed_to_tos: true,
      is_locked: false,
      is_server_admin: false,
    });
    expect(new Date(body.date_joined!).toISOString()).toBe(body.date_joined);
    expect(body.organizations?.map((o) => o.id).sort()).toEqual([orgA.id, orgB.id].sort());
    expect(body.role_memberships).toHaveLength(2);
    expect(body.role_memberships.every((m) => m.role_name === 'Manager')).toBe(true);
    expect([...body.current_session_permissions].sort()).toEqual(
      [...BUILT_IN_ROLES.Manager!].sort(),
    );
    expect([orgA.id, orgB.id]).toContain(body.last_session_org_id);
  });

  it('has_agreed_to_tos is false until the user agrees to the active terms', async () => {
    const { client } = await t.signIn({ agreedToTos: false });
    expect((await client.get('/api/auth/session/')).json().has_agreed_to_tos).toBe(false);
  });

  it('the session organization is the last one used when still a member', async () => {
    const orgA = await t.createOrg('A ' + Math.random());
    const orgB = await t.createOrg('B ' + Math.random());
    const user = await t.createUser({ orgs: [orgA, orgB] });
    await t.db.update(users).set({ lastSessionOrgId: orgB.id }).where(eq(users.id, user.id));
    const client = t.client();
    const res = await client.login(user.username, user.password);
    expect(res.json().last_session_org_id).toBe(orgB.id);
  });

  it('PATCH session switches to an own organization and answers the new permissions', async () => {
    const home = await t.createOrg();
    const other = await t.createOrg();
    const user = await t.createUser({ role: 'Viewer', orgs: [home] });
    const { setMembership } = await import('../../orgs/repository');
    await setMembership(t.db, user.id, other.id, 'Administrator');
    await t.db.update(users).set({ lastSessionOrgId: home.id }).where(eq(users.id, user.id));
    const client = t.client();
    await client.login(user.username, user.password);

    const res = await client.patch('/api/auth/session/', { id: other.id });
    expect(res.statusCode).toBe(200);
    const body = ZUser.parse(res.json());
    expect(body.last_session_org_id).toBe(other.id);
    expect(body.current_session_permissions).toContain('sysAdminUser');

    const again = ZUser.parse((await client.get('/api/auth/session/')).json());
    expect(again.last_session_org_id).toBe(other.id);
    expect(again.current_session_permissions).toContain('sysAdminUser');
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.lastSessionOrgId).toBe(other.id);

    const back = ZUser.parse((await client.patch('/api/auth/session/', { id: home.id })).json());
    expect([...back.current_session_permissions].sort()).toEqual(
      [...BUILT_IN_ROLES.Viewer!].sort(),
    );
  });

  it("PATCH session to another organization's id answers 404", async () => {
    const foreign = await t.createOrg();
    const { client } = await t.signIn();
    for (const id of [foreign.id, '00000000-0000-0000-0000-000000000000', 'not-a-uuid']) {
      const res = await client.patch('/api/auth/session/', { id });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
  });

  it('GET orgs and admin-orgs list the user organizations', async () => {
    const admin = await t.createOrg();
    const viewer = await t.createOrg();
    const user = await t.createUser({ role: 'Administrator', orgs: [admin] });
    const { setMembership } = await import('../../orgs/repository');
    await setMembership(t.db, user.id, viewer.id, 'Viewer');
    const client = t.client();
    await client.login(user.username, user.password);
    const orgs = (await client.get('/api/auth/orgs/')).json();
    expect(orgs).toHaveLength(2);
    expect(orgs).toEqual(expect.arrayContaining([admin, viewer]));
    expect((await client.get('/api/auth/admin-orgs/')).json()).toEqual([admin]);
    expect((await t.client().get('/api/auth/orgs/')).statusCode).toBe(401);
  });

  it('a user without organizations signs in with no permissions', async () => {
    const { body } = await t.signIn({ orgs: [] });
    expect(body.current_session_permissions).toEqual([]);
    expect(body.organizations).toEqual([]);
  });

  it('logout ends the session and clears the cookie', async () => {
    const { client, user } = await t.signIn();
    const token = client.sessionToken!;
    const res = await client.get('/api/auth/logout/');
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(String(res.headers['set-cookie'])).toMatch(/sessionid=;/);
    expect(client.sessionToken).toBeUndefined();
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    const replay = t.client({ headers: { cookie: `sessionid=${token}` } });
    expect((await replay.get('/api/auth/session/')).statusCode).toBe(401);
    // Logging out without a session is fine too.
    expect((await t.client().get('/api/auth/logout/')).statusCode).toBe(204);
  });

  it('an expired session is refused', async () => {
    const { client, user } = await t.signIn();
    await t.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id));
    expect((await client.get('/api/auth/session/')).statusCode).toBe(401);
  });

  it('locking a user ends their sessions', async () => {
    const { client, user } = await t.signIn();
    await t.db.update(users).set({ isLocked: true }).where(eq(users.id, user.id));
    expect((await client.get('/api/auth/session/')).statusCode).toBe(401);
  });

  it('sets Secure cookies behind an https proxy only when TRUST_PROXY is on', async () => {
    const user = await t.createUser();
    const plain = t.client({ headers: { 'x-forwarded-proto': 'https' } });
    const res = await plain.login(user.username, user.password);
    expect(String(res.headers['set-cookie'])).not.toContain('Secure');

    const proxied = await createTestApp({
      databaseName: t.databaseName,
      config: { trustProxy: 1 },
    });
    try {
      const c = proxied.client({ headers: { 'x-forwarded-proto': 'https' } });
      const r = await c.login(user.username, user.password);
      expect(r.statusCode).toBe(200);
      expect(String(r.headers['set-cookie'])).toContain('Secure');
    } finally {
      await proxied.close();
    }
  });
});

describe('POST /api/auth/public-login/ [SPEC-7.1, SPEC-6.2]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 404 when PUBLIC_LOGIN_USER is not configured', async () => {
    const res = await t.client().post('/api/auth/public-login/');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('signs in as the configured public account', async () => {
    const publicUser = await t.createUser({ role: 'Viewer' });
    const configured = await createTestApp({
      databaseName: t.databaseName,
      config: { publicLoginUser: publicUser.email },
    });
    try {
      const client = configured.client();
      const res = await client.post('/api/auth/public-login/');
      expect(res.statusCode, res.body).toBe(200);
      expect(ZUser.parse(res.json()).id).toBe(publicUser.id);
      expect((await client.get('/api/auth/session/')).json().username).toBe(publicUser.username);
      // Also with an empty JSON body, as generated clients send it.
      const c2 = configured.client();
      const r2 = await c2.request({
        method: 'POST',
        url: '/api/auth/public-login/',
        payload: '',
        headers: { 'content-type': 'application/json' },
      });
      expect(r2.statusCode).toBe(200);
    } finally {
      await configured.close();
    }
  });
});
