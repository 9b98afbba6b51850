import { ZRole, ZUserRegistration, ZUserSmall } from '@coldtrace/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, uid, type TestApp, type TestOrg } from '../../../test/helpers';
import { memberships, roles as rolesTable, sessions, users } from '../../db/schema';
import { auditEvents } from '../../db/schema-audit';
import { mailOutbox } from '../../db/schema-mail';

const USERS = '/api/auth/users/';

describe('Manage Users: list, invite, role, suspend, lock [RULE-ORG-2, RULE-ACCOUNT-1, SPEC-7.1]', () => {
  let t: TestApp;
  let org: TestOrg;
  let roles: Record<string, string>;
  let admin: Awaited<ReturnType<TestApp['signIn']>>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.signIn({ role: 'Administrator' });
    org = admin.orgs[0]!;
    const res = await admin.client.get('/api/auth/role-permissions/');
    expect(res.statusCode).toBe(200);
    const list = z.array(ZRole).parse(res.json());
    roles = Object.fromEntries(list.map((r) => [r.name, r.id]));
    expect(Object.keys(roles).sort()).toEqual(['Administrator', 'Manager', 'Operator', 'Viewer']);
    expect(list.every((r) => r.created_by_organization_id === org.id)).toBe(true);
  });
  afterAll(() => t.close());

  const registerBody = (overrides: Record<string, unknown> = {}) => {
    const name = `new_${uid()}`;
    return {
      username: name,
      first_name: 'Nina',
      last_name: 'New',
      email: `${name}@example.test`,
      organization_id: org.id,
      role_id: roles.Operator,
      ...overrides,
    };
  };

  it('lists the members of the session organization only, with their role there', async () => {
    const member = await t.createUser({ role: 'Viewer', orgs: [org] });
    const outsider = await t.createUser({ role: 'Administrator' });
    const res = await admin.client.get(USERS);
    expect(res.statusCode).toBe(200);
    const list = z.array(ZUserSmall).parse(res.json());
    const ids = list.map((u) => u.id);
    expect(ids).toContain(member.id);
    expect(ids).toContain(admin.user.id);
    expect(ids).not.toContain(outsider.id);
    const row = list.find((u) => u.id === member.id)!;
    expect(row.role_memberships).toEqual([
      expect.objectContaining({ organization_id: org.id, role_name: 'Viewer' }),
    ]);
  });

  it("a tenant's list leaves out the server administrator who created the organization", async () => {
    const { client: serverAdmin, user: serverAdminUser } = await t.signIn({
      role: 'Viewer',
      serverAdmin: true,
    });
    const created = await serverAdmin.post('/api/auth/orgs/', { name: `Tenant ${uid()}` });
    expect(created.statusCode, created.body).toBe(200);
    const tenant = created.json() as TestOrg;
    // The creator is a member (Administrator) of the new organization...
    const [membership] = await t.db
      .select()
      .from(memberships)
      .where(
        and(eq(memberships.organizationId, tenant.id), eq(memberships.userId, serverAdminUser.id)),
      );
    expect(membership).toBeDefined();
    const tenantAdmin = await t.signIn({ role: 'Administrator', orgs: [tenant] });
    const tenantViewer = await t.createUser({ role: 'Viewer', orgs: [tenant] });
    const res = await tenantAdmin.client.get(USERS);
    expect(res.statusCode).toBe(200);
    const list = z.array(ZUserSmall).parse(res.json());
    // ...but the tenant's administrator sees the tenant's own members only.
    expect(list.map((u) => u.id).sort()).toEqual([tenantAdmin.user.id, tenantViewer.id].sort());
    expect(res.body).not.toContain(serverAdminUser.email);
    // The server administrator sees every account in the server-admin view.
    const all = await serverAdmin.get(`${USERS}?server_admin=true`);
    expect(all.statusCode).toBe(200);
    expect(all.json().map((u: { id: string }) => u.id)).toEqual(
      expect.arrayContaining([serverAdminUser.id, tenantAdmin.user.id, tenantViewer.id]),
    );
  });

  it('refuses users without sysAdminUser (403), and server_admin=true to non server admins', async () => {
    const { client: manager } = await t.signIn({ role: 'Manager', orgs: [org] });
    expect((await manager.get(USERS)).statusCode).toBe(403);
    expect((await manager.get('/api/auth/role-permissions/')).statusCode).toBe(403);
    expect((await admin.client.get(`${USERS}?server_admin=true`)).statusCode).toBe(403);
    expect((await t.client().get(USERS)).statusCode).toBe(401);
  });

  it('server administrators list every user with server_admin=true', async () => {
    const outsider = await t.createUser({ role: 'Viewer' });
    const { client } = await t.signIn({ role: 'Viewer', serverAdmin: true });
    const res = await client.get(`${USERS}?server_admin=true`);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((u: { id: string }) => u.id)).toContain(outsider.id);
  });

  it('registering invites: the reply is the invitation, the e-mail carries its link, nobody is created yet', async () => {
    const body = registerBody();
    const res = await admin.client.post(USERS, body);
    expect(res.statusCode, res.body).toBe(200);
    const reply = ZUserRegistration.parse(res.json());
    expect(reply).toMatchObject({ status: 'invited', user: null });
    expect(reply.invitation).toMatchObject({
      email: body.email,
      username: body.username,
      organization_id: org.id,
      role_id: roles.Operator,
      role_name: 'Operator',
    });
    const mail = await t.db.select().from(mailOutbox);
    const invitation = mail.find((m) => m.to.includes(body.email));
    expect(invitation?.subject).toBe(`Invitation to join ${org.name} on Coldtrace`);
    expect(invitation?.text).toMatch(/\/invitation\/[^/\s]+\/\S+/);
    expect(await t.db.select().from(users).where(eq(users.email, body.email))).toHaveLength(0);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.entityId, reply.invitation!.id), eq(auditEvents.action, 'user.invite')),
      );
    expect(audit).toEqual([
      expect.objectContaining({ organizationId: org.id, actorUserId: admin.user.id }),
    ]);
    // Listed as pending; the member list does not show the person.
    const pending = await admin.client.get('/api/auth/invitations/');
    expect(pending.json().map((i: { id: string }) => i.id)).toContain(reply.invitation!.id);
    expect((await admin.client.get(USERS)).body).not.toContain(body.email);
  });

  it('requires each of the six fields (400 naming it); a second invitation to an address replaces the first', async () => {
    for (const field of [
      'username',
      'first_name',
      'last_name',
      'email',
      'organization_id',
      'role_id',
    ]) {
      const body: Record<string, unknown> = registerBody();
      delete body[field];
      const res = await admin.client.post(USERS, body);
      expect(res.statusCode, field).toBe(400);
      expect(Object.keys(res.json().fields ?? {}), field).toContain(field);
    }
    const first = registerBody();
    const one = ZUserRegistration.parse((await admin.client.post(USERS, first)).json());
    const again = await admin.client.post(USERS, registerBody({ email: first.email }));
    expect(again.statusCode).toBe(200);
    const two = ZUserRegistration.parse(again.json());
    const ids = (await admin.client.get('/api/auth/invitations/'))
      .json()
      .map((i: { id: string }) => i.id);
    expect(ids).toContain(two.invitation!.id);
    expect(ids).not.toContain(one.invitation!.id);
  });

  it('invitations of one address at the same moment leave one pending, never a 500', async () => {
    const email = `race_${uid()}@example.test`;
    const results = await Promise.all(
      Array.from({ length: 4 }, () => admin.client.post(USERS, registerBody({ email }))),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const pending = (await admin.client.get('/api/auth/invitations/'))
      .json()
      .filter((i: { email: string }) => i.email === email);
    expect(pending).toHaveLength(1);
  });

  it('a server administrator adds directly; a person who never chose a password gets a new welcome link', async () => {
    const serverAdmin = await t.signIn({ role: 'Administrator', orgs: [org], serverAdmin: true });
    const other = await t.createOrg();
    const [otherViewer] = await t.db
      .select()
      .from(rolesTable)
      .where(and(eq(rolesTable.organizationId, other.id), eq(rolesTable.name, 'Viewer')));
    const pending = registerBody({ organization_id: other.id, role_id: otherViewer!.id });
    const added = await serverAdmin.client.post(USERS, pending);
    expect(added.statusCode, added.body).toBe(200);
    const reply = ZUserRegistration.parse(added.json());
    expect(reply.status).toBe('added');
    expect(reply.user).toMatchObject({ username: pending.username, email: pending.email });
    const res = await serverAdmin.client.post(USERS, registerBody({ email: pending.email }));
    expect(res.statusCode, res.body).toBe(200);
    expect(ZUserRegistration.parse(res.json()).user!.id).toBe(reply.user!.id);
    const mail = (await t.db.select().from(mailOutbox)).filter((m) => m.to.includes(pending.email));
    expect(mail.map((m) => m.subject)).toEqual(['Welcome to Coldtrace', 'Welcome to Coldtrace']);
    // Audited in the organization joined and in the one the person was in already.
    const audit = await t.db
      .select({ organizationId: auditEvents.organizationId, action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, reply.user!.id));
    expect(audit).toEqual(
      expect.arrayContaining([
        { organizationId: other.id, action: 'user.register' },
        { organizationId: org.id, action: 'user.member.add' },
        { organizationId: other.id, action: 'user.member.add.elsewhere' },
      ]),
    );
  });

  it('ignores mass-assigned admin flags and refuses an organization the caller does not administer', async () => {
    const body = registerBody({ is_server_admin: true, is_locked: true, is_staff: true });
    const res = await admin.client.post(USERS, body);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('is_server_admin');
    expect(await t.db.select().from(users).where(eq(users.email, body.email))).toHaveLength(0);

    const other = await t.createOrg();
    const foreign = await admin.client.post(USERS, registerBody({ organization_id: other.id }));
    expect(foreign.statusCode).toBe(404);
    expect(
      await t.db.select().from(memberships).where(eq(memberships.organizationId, other.id)),
    ).toHaveLength(0);
    // A role of another organization is refused too (naming role_id).
    const [foreignRole] = await t.db
      .select()
      .from(rolesTable)
      .where(eq(rolesTable.organizationId, other.id));
    const withForeignRole = await admin.client.post(
      USERS,
      registerBody({ role_id: foreignRole!.id }),
    );
    expect(withForeignRole.statusCode).toBe(400);
    expect(withForeignRole.json().fields).toHaveProperty('role_id');
  });

  it('changes a member role (audited); other organizations, foreign roles and oneself answer 404/403', async () => {
    const member = await t.createUser({ role: 'Viewer', orgs: [org] });
    const res = await admin.client.patch('/api/auth/user-roles/', {
      user_id: member.id,
      role_id: roles.Manager,
      organization_id: (await t.createOrg()).id,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().role_memberships[0]).toMatchObject({
      role_name: 'Manager',
      organization_id: org.id,
    });
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, member.id), eq(auditEvents.action, 'user.role.change')));
    expect(audit).toEqual([
      expect.objectContaining({
        organizationId: org.id,
        actorUserId: admin.user.id,
        oldValue: 'Viewer',
        newValue: 'Manager',
      }),
    ]);

    const outsider = await t.createUser({ role: 'Viewer' });
    const foreignUser = await admin.client.patch('/api/auth/user-roles/', {
      user_id: outsider.id,
      role_id: roles.Manager,
    });
    expect(foreignUser.statusCode).toBe(404);
    const otherAdmin = await t.signIn({ role: 'Administrator' });
    const otherRoles = z
      .array(ZRole)
      .parse((await otherAdmin.client.get('/api/auth/role-permissions/')).json());
    const foreignRole = await admin.client.patch('/api/auth/user-roles/', {
      user_id: member.id,
      role_id: otherRoles[0]!.id,
    });
    expect(foreignRole.statusCode).toBe(404);
    const self = await admin.client.patch('/api/auth/user-roles/', {
      user_id: admin.user.id,
      role_id: roles.Viewer,
    });
    expect(self.statusCode).toBe(403);
  });

  it('suspending ends what the member can do here only; reactivating restores the same membership (audited)', async () => {
    const other = await t.createOrg();
    const member = await t.signIn({ role: 'Operator', orgs: [org, other] });
    await member.client.patch('/api/auth/session/', { id: org.id });
    const token = await member.client.post('/api/auth/tokens/', { name: 'phone' });
    expect(token.statusCode, token.body).toBe(200);
    const phone = t.client({ headers: { authorization: `Token ${token.json().token}` } });
    expect((await phone.get('/api/devices/xt1/records/')).statusCode).toBe(200);
    const before = (await admin.client.get(USERS))
      .json()
      .find((u: { id: string }) => u.id === member.user.id);

    const suspended = await admin.client.post('/api/auth/user-suspend/', {
      user_id: member.user.id,
      is_suspended: true,
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect(suspended.json()).toMatchObject({ is_suspended: true, is_locked: false });
    // The account and the other membership are untouched: the session moves there.
    const session = await member.client.get('/api/auth/session/');
    expect(session.statusCode).toBe(200);
    expect(session.json().last_session_org_id).toBe(other.id);
    expect(session.json().organizations.map((o: { id: string }) => o.id)).toEqual([other.id]);
    expect((await member.client.patch('/api/auth/session/', { id: org.id })).statusCode).toBe(404);
    // The token acting here died; the person cannot be changed while suspended.
    expect((await phone.get('/api/devices/xt1/records/')).statusCode).toBe(401);
    const role = await admin.client.patch('/api/auth/user-roles/', {
      user_id: member.user.id,
      role_id: roles.Manager,
    });
    expect(role.statusCode).toBe(409);
    // Listed as suspended.
    const listed = (await admin.client.get(USERS))
      .json()
      .find((u: { id: string }) => u.id === member.user.id);
    expect(listed.is_suspended).toBe(true);

    const reactivated = await admin.client.post('/api/auth/user-suspend/', {
      user_id: member.user.id,
      is_suspended: false,
    });
    expect(reactivated.statusCode).toBe(200);
    const after = (await admin.client.get(USERS))
      .json()
      .find((u: { id: string }) => u.id === member.user.id);
    expect(after).toEqual(before);
    expect((await member.client.patch('/api/auth/session/', { id: org.id })).statusCode).toBe(200);
    const audit = await t.db
      .select({ action: auditEvents.action, organizationId: auditEvents.organizationId })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, member.user.id));
    expect(audit).toEqual([
      { action: 'user.suspend', organizationId: org.id },
      { action: 'user.reactivate', organizationId: org.id },
    ]);
    // Oneself and someone of another organization: 403 and 404.
    const self = await admin.client.post('/api/auth/user-suspend/', {
      user_id: admin.user.id,
      is_suspended: true,
    });
    expect(self.statusCode).toBe(403);
    const outsider = await t.createUser({ role: 'Viewer' });
    const foreign = await admin.client.post('/api/auth/user-suspend/', {
      user_id: outsider.id,
      is_suspended: true,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it("only a server administrator locks an account: it ends every session at once (audited in each of the person's organizations)", async () => {
    const other = await t.createOrg();
    const victim = await t.signIn({ role: 'Operator', orgs: [org, other] });
    expect((await victim.client.get('/api/auth/session/')).statusCode).toBe(200);
    // An organization's administrator may not.
    const refused = await admin.client.post('/api/auth/user-lock/', {
      user_id: victim.user.id,
      is_locked: true,
    });
    expect(refused.statusCode).toBe(403);
    expect((await victim.client.get('/api/auth/session/')).statusCode).toBe(200);

    const serverAdmin = await t.signIn({ role: 'Viewer', serverAdmin: true });
    const locked = await serverAdmin.client.post('/api/auth/user-lock/', {
      user_id: victim.user.id,
      is_locked: true,
    });
    expect(locked.statusCode, locked.body).toBe(200);
    expect(locked.json().is_locked).toBe(true);
    expect((await victim.client.get('/api/auth/session/')).statusCode).toBe(401);
    const left = await t.db.select().from(sessions).where(eq(sessions.userId, victim.user.id));
    expect(left).toHaveLength(0);
    expect(
      (await t.client().login(victim.user.username, victim.user.password)).statusCode,
    ).not.toBe(200);

    const unlocked = await serverAdmin.client.post('/api/auth/user-lock/', {
      user_id: victim.user.id,
      is_locked: false,
    });
    expect(unlocked.json().is_locked).toBe(false);
    expect((await t.client().login(victim.user.username, victim.user.password)).statusCode).toBe(
      200,
    );
    const audit = await t.db
      .select({ action: auditEvents.action, organizationId: auditEvents.organizationId })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, victim.user.id));
    expect(audit).toHaveLength(4);
    expect(audit).toEqual(
      expect.arrayContaining([
        { action: 'user.lock', organizationId: org.id },
        { action: 'user.lock', organizationId: other.id },
        { action: 'user.unlock', organizationId: org.id },
        { action: 'user.unlock', organizationId: other.id },
      ]),
    );
  });
});

describe('server administration: organizations [RULE-ORG-2, SPEC-7.1]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('a server administrator creates an organization with the built-in roles and lists them all', async () => {
    const { client, user } = await t.signIn({ role: 'Viewer', serverAdmin: true });
    const name = `Created ${uid()}`;
    const res = await client.post('/api/auth/orgs/', { name, id: 'ignored' });
    expect(res.statusCode).toBe(200);
    const org = res.json() as { id: string; name: string };
    expect(org.name).toBe(name);
    const list = await client.get('/api/auth/server-orgs/');
    expect(list.statusCode).toBe(200);
    const row = list.json().find((o: { id: string }) => o.id === org.id);
    expect(row).toMatchObject({ name, user_ids: [user.id], num_devices: 0, num_records: 0 });
  });

  it('anyone else gets 403, an Administrator of an organization included', async () => {
    const { client } = await t.signIn({ role: 'Administrator' });
    expect((await client.post('/api/auth/orgs/', { name: 'Nope' })).statusCode).toBe(403);
    expect((await client.get('/api/auth/server-orgs/')).statusCode).toBe(403);
    expect((await t.client().get('/api/auth/server-orgs/')).statusCode).toBe(401);
    const bad = await (await t.signIn({ serverAdmin: true })).client.post('/api/auth/orgs/', {});
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fields).toHaveProperty('name');
  });
});
