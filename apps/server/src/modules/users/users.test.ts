import { ZRole, ZUserSmall } from '@coldtrace/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, uid, type TestApp, type TestOrg } from '../../../test/helpers';
import { memberships, roles as rolesTable, sessions, users } from '../../db/schema';
import { auditEvents } from '../../db/schema-audit';
import { mailOutbox } from '../../db/schema-mail';

const USERS = '/api/auth/users/';

describe('Manage Users: list, register, role, lock', () => {
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

  it('registers a user with all six fields, queues the welcome e-mail and audits it', async () => {
    const body = registerBody();
    const res = await admin.client.post(USERS, body);
    expect(res.statusCode).toBe(200);
    const created = ZUserSmall.parse(res.json());
    expect(created).toMatchObject({ username: body.username, email: body.email, is_locked: false });
    expect(created.role_memberships).toEqual([
      expect.objectContaining({ organization_id: org.id, role_id: roles.Operator }),
    ]);
    const mail = await t.db.select().from(mailOutbox);
    const welcome = mail.find((m) => m.to.includes(body.email));
    expect(welcome?.subject).toBe('Welcome to Coldtrace');
    expect(welcome?.text).toMatch(/\/welcome\/[^/\s]+\/\S+/);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, created.id), eq(auditEvents.action, 'user.register')));
    expect(audit).toHaveLength(1);
    // No usable password until the welcome link is followed.
    expect((await t.client().login(body.username, 'anything at all')).statusCode).toBe(400);
  });

  it('requires each of the six fields (400 naming it) and refuses duplicates (409 naming it)', async () => {
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
    expect((await admin.client.post(USERS, first)).statusCode).toBe(200);
    const again = await admin.client.post(USERS, registerBody({ email: first.email }));
    expect(again.statusCode).toBe(409);
    expect(again.json().fields).toHaveProperty('email');
  });

  it('registering an e-mail of another organization adds that person as a member, tells them, reveals nothing', async () => {
    const elsewhere = await t.createUser({
      role: 'Operator',
      firstName: 'Elsa',
      lastName: 'Elsewhere',
    });
    const otherOrg = elsewhere.orgs[0]!;
    const fresh = registerBody();
    const fresher = await admin.client.post(USERS, fresh);
    // The same e-mail in other letter case, with another username and names.
    const body = registerBody({ email: elsewhere.email.toUpperCase(), role_id: roles.Viewer });
    const res = await admin.client.post(USERS, body);
    // Same answer as for a new person: 200 and a user with their membership here only.
    expect(res.statusCode, res.body).toBe(fresher.statusCode);
    const added = ZUserSmall.parse(res.json());
    expect(Object.keys(added).sort()).toEqual(Object.keys(fresher.json()).sort());
    expect(added.id).toBe(elsewhere.id);
    expect(added.role_memberships).toEqual([
      expect.objectContaining({ organization_id: org.id, role_name: 'Viewer' }),
    ]);
    expect(res.body).not.toContain(otherOrg.id);
    expect(res.body).not.toContain(otherOrg.name);

    // Their account is unchanged: name, password, other membership.
    const [row] = await t.db.select().from(users).where(eq(users.id, elsewhere.id));
    expect(row).toMatchObject({
      username: elsewhere.username,
      email: elsewhere.email,
      firstName: 'Elsa',
      lastName: 'Elsewhere',
      passwordHash: elsewhere.row.passwordHash,
    });
    const theirs = await t.db
      .select({ organizationId: memberships.organizationId, roleId: memberships.roleId })
      .from(memberships)
      .where(eq(memberships.userId, elsewhere.id));
    expect(theirs.map((m) => m.organizationId).sort()).toEqual([org.id, otherOrg.id].sort());
    const [otherOperator] = await t.db
      .select()
      .from(rolesTable)
      .where(and(eq(rolesTable.organizationId, otherOrg.id), eq(rolesTable.name, 'Operator')));
    expect(theirs.find((m) => m.organizationId === otherOrg.id)!.roleId).toBe(otherOperator!.id);

    // Told by e-mail, without a secret link; they sign in with their password and switch.
    const mail = (await t.db.select().from(mailOutbox)).filter((m) =>
      m.to.includes(elsewhere.email),
    );
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe(`You were added to ${org.name} on Coldtrace`);
    expect(mail[0]!.text).toContain(org.name);
    expect(mail[0]!.text).not.toMatch(/\/(welcome|passwordreset)\//);
    const signedIn = t.client();
    expect((await signedIn.login(elsewhere.username, elsewhere.password)).statusCode).toBe(200);
    expect((await signedIn.patch('/api/auth/session/', { id: org.id })).statusCode).toBe(200);

    // Audited in this organization.
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.entityId, elsewhere.id), eq(auditEvents.action, 'user.member.add')),
      );
    expect(audit).toEqual([
      expect.objectContaining({
        organizationId: org.id,
        actorUserId: admin.user.id,
        newValue: 'Viewer',
      }),
    ]);

    // A member of this organization already: 409 naming email (the admin sees their members).
    const again = await admin.client.post(USERS, registerBody({ email: elsewhere.email }));
    expect(again.statusCode).toBe(409);
    expect(Object.keys(again.json().fields)).toEqual(['email']);
  });

  it('registrations of one new address at the same moment make one account, never a 500', async () => {
    const email = `race_${uid()}@example.test`;
    const results = await Promise.all(
      Array.from({ length: 4 }, () => admin.client.post(USERS, registerBody({ email }))),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200).length, statuses.join()).toBeGreaterThanOrEqual(1);
    expect(
      statuses.every((s) => s === 200 || s === 409),
      statuses.join(),
    ).toBe(true);
    expect(await t.db.select().from(users).where(eq(users.email, email))).toHaveLength(1);
  });

  it('an existing person who never chose a password gets a new welcome link instead', async () => {
    const otherAdmin = await t.signIn({ role: 'Administrator' });
    const otherRoles = z
      .array(ZRole)
      .parse((await otherAdmin.client.get('/api/auth/role-permissions/')).json());
    const pending = registerBody({
      organization_id: otherAdmin.orgs[0]!.id,
      role_id: otherRoles.find((r) => r.name === 'Viewer')!.id,
    });
    expect((await otherAdmin.client.post(USERS, pending)).statusCode).toBe(200);
    const res = await admin.client.post(USERS, registerBody({ email: pending.email }));
    expect(res.statusCode, res.body).toBe(200);
    const mail = (await t.db.select().from(mailOutbox)).filter((m) => m.to.includes(pending.email));
    expect(mail.map((m) => m.subject)).toEqual(['Welcome to Coldtrace', 'Welcome to Coldtrace']);
  });

  it('ignores mass-assigned admin flags and refuses an organization the caller does not administer', async () => {
    const body = registerBody({ is_server_admin: true, is_locked: true, is_staff: true });
    const res = await admin.client.post(USERS, body);
    expect(res.statusCode).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, res.json().id));
    expect(row!.isServerAdmin).toBe(false);
    expect(row!.isLocked).toBe(false);

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

  it("locking ends the user's sessions at once; unlocking lets them sign in again (both audited)", async () => {
    const victim = await t.signIn({ role: 'Operator', orgs: [org] });
    expect((await victim.client.get('/api/auth/session/')).statusCode).toBe(200);

    const locked = await admin.client.post('/api/auth/user-lock/', {
      user_id: victim.user.id,
      is_locked: true,
    });
    expect(locked.statusCode).toBe(200);
    expect(locked.json().is_locked).toBe(true);
    expect((await victim.client.get('/api/auth/session/')).statusCode).toBe(401);
    const left = await t.db.select().from(sessions).where(eq(sessions.userId, victim.user.id));
    expect(left).toHaveLength(0);
    expect(
      (await t.client().login(victim.user.username, victim.user.password)).statusCode,
    ).not.toBe(200);

    const unlocked = await admin.client.post('/api/auth/user-lock/', {
      user_id: victim.user.id,
      is_locked: false,
    });
    expect(unlocked.json().is_locked).toBe(false);
    expect((await t.client().login(victim.user.username, victim.user.password)).statusCode).toBe(
      200,
    );
    const audit = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.entityId, victim.user.id));
    expect(audit.map((a) => a.action).sort()).toEqual(['user.lock', 'user.unlock']);

    const outsider = await t.createUser({ role: 'Viewer' });
    const foreign = await admin.client.post('/api/auth/user-lock/', {
      user_id: outsider.id,
      is_locked: true,
    });
    expect(foreign.statusCode).toBe(404);
  });
});

describe('server administration: organizations', () => {
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
