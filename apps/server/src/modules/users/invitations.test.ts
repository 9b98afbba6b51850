import { ZInvitationView, ZRole, ZUserRegistration } from '@coldtrace/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createTestApp,
  TEST_PASSWORD,
  uid,
  type TestApp,
  type TestClient,
  type TestOrg,
  type TestUser,
} from '../../../test/helpers';
import { invitations, memberships, sessions, users } from '../../db/schema';
import { auditEvents } from '../../db/schema-audit';
import { mailOutbox } from '../../db/schema-mail';
import { scrubDeadInvitationLinks } from './invitations';

const USERS = '/api/auth/users/';
const LINK = /\/invitation\/([^/\s]+)\/([^\s"'<>]+)/;

/**
 * Issue 34: an organization's administrator can neither add, lock, suspend,
 * rename nor see another organization's users; joining needs the person's consent.
 */
describe('accounts belong to their owners [RULE-ACCOUNT-1, RULE-AUDIT-2]', () => {
  let t: TestApp;
  let orgA: TestOrg;
  let orgB: TestOrg;
  let adminA: { client: TestClient; user: TestUser };
  let adminB: { client: TestClient; user: TestUser };
  let rolesB: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    const a = await t.signIn({ role: 'Administrator', firstName: 'Ada', lastName: 'Alpha' });
    const b = await t.signIn({ role: 'Administrator', firstName: 'Bob', lastName: 'Bravo' });
    [adminA, adminB, orgA, orgB] = [a, b, a.orgs[0]!, b.orgs[0]!];
    const list = z
      .array(ZRole)
      .parse((await adminB.client.get('/api/auth/role-permissions/')).json());
    rolesB = Object.fromEntries(list.map((r) => [r.name, r.id]));
  });
  afterAll(() => t.close());

  const registerBody = (overrides: Record<string, unknown> = {}) => {
    const name = `new_${uid()}`;
    return {
      username: name,
      first_name: 'Nina',
      last_name: 'New',
      email: `${name}@example.test`,
      organization_id: orgB.id,
      role_id: rolesB.Administrator,
      ...overrides,
    };
  };

  /** A member of A only, signed in. */
  const memberOfA = async () =>
    t.signIn({
      role: 'Administrator',
      orgs: [orgA],
      firstName: `Alma${uid()}`,
      lastName: `Apple${uid()}`,
    });

  /** The link of the newest invitation e-mail to `email`. */
  async function invitationLinkTo(email: string) {
    const mail = (await t.db.select().from(mailOutbox))
      .filter((m) => m.to.includes(email) && m.subject.startsWith('Invitation'))
      .sort((a, b) => a.created.getTime() - b.created.getTime());
    const match = LINK.exec(mail.at(-1)?.text ?? '');
    if (!match) throw new Error(`no invitation link to ${email}`);
    return { uuid: decodeURIComponent(match[1]!), token: decodeURIComponent(match[2]!) };
  }

  const storedMailHolds = async (token: string) =>
    (await t.db.select().from(mailOutbox)).some(
      (m) => m.text.includes(token) || (m.html ?? '').includes(token),
    );

  const membershipsOf = async (userId: string) =>
    (await t.db.select().from(memberships).where(eq(memberships.userId, userId)))
      .map((m) => m.organizationId)
      .sort();

  it("B's administrator cannot add, lock, suspend, rename or see A's users by e-mail or username", async () => {
    const victim = await memberOfA();
    const fresh = await adminB.client.post(USERS, registerBody());
    const emailBody = registerBody({ email: victim.user.email });
    const byEmail = await adminB.client.post(USERS, emailBody);
    const byUsername = await adminB.client.post(
      USERS,
      registerBody({ username: victim.user.username }),
    );
    // The same answer whatever exists: status, shape, and nothing of the account.
    for (const res of [byEmail, byUsername]) {
      expect(res.statusCode, res.body).toBe(fresh.statusCode);
      const reply = ZUserRegistration.parse(res.json());
      expect(reply.status).toBe('invited');
      expect(Object.keys(reply.invitation!).sort()).toEqual(
        Object.keys(fresh.json().invitation).sort(),
      );
      expect(res.body).not.toContain(victim.user.id);
      expect(res.body).not.toContain(victim.user.row.firstName);
      expect(res.body).not.toContain(orgA.id);
    }
    // It echoes what the administrator typed, not the account's username or names.
    expect(byEmail.json().invitation).toMatchObject({
      username: emailBody.username,
      first_name: 'Nina',
      last_name: 'New',
    });
    // Not a member of B, not listed there, not changeable from there.
    expect(await membershipsOf(victim.user.id)).toEqual([orgA.id]);
    expect((await adminB.client.get(USERS)).body).not.toContain(victim.user.email);
    const calls = [
      adminB.client.post('/api/auth/user-lock/', { user_id: victim.user.id, is_locked: true }),
      adminB.client.post('/api/auth/user-suspend/', {
        user_id: victim.user.id,
        is_suspended: true,
      }),
      adminB.client.patch('/api/auth/user-roles/', {
        user_id: victim.user.id,
        role_id: rolesB.Viewer,
      }),
    ];
    expect((await Promise.all(calls)).map((r) => r.statusCode)).toEqual([403, 404, 404]);
    // The account is as it was, and still works.
    const [row] = await t.db.select().from(users).where(eq(users.id, victim.user.id));
    const { username, email, firstName, lastName, passwordHash, isLocked } = victim.user.row;
    expect(row).toMatchObject({ username, email, firstName, lastName, passwordHash, isLocked });
    expect((await victim.client.get('/api/auth/session/')).statusCode).toBe(200);
    expect((await t.client().login(victim.user.email, victim.user.password)).statusCode).toBe(200);
  });

  it('the invited person accepts, signed in, and only then appears; every step is audited in both organizations', async () => {
    const person = await memberOfA();
    const sent = await adminB.client.post(
      USERS,
      registerBody({ email: person.user.email, role_id: rolesB.Operator }),
    );
    const invitation = ZUserRegistration.parse(sent.json()).invitation!;
    const link = await invitationLinkTo(person.user.email);
    expect(link.uuid).toBe(invitation.id);

    // The page's view: the person's own address has an account.
    const view = await t.client().post('/api/auth/invitation-validate/', link);
    expect(view.statusCode, view.body).toBe(200);
    expect(ZInvitationView.parse(view.json())).toMatchObject({
      role_name: 'Operator',
      invited_by: 'Bob Bravo',
      account_exists: true,
    });
    // Not signed in, or signed in as someone else: refused, and nothing changes.
    expect((await t.client().post('/api/auth/invitation-accept/', link)).statusCode).toBe(401);
    const stranger = await t.signIn({ role: 'Viewer' });
    const wrong = await stranger.client.post('/api/auth/invitation-accept/', link);
    expect(wrong.statusCode).toBe(403);
    expect(await membershipsOf(person.user.id)).toEqual([orgA.id]);
    expect(await membershipsOf(stranger.user.id)).not.toContain(orgB.id);

    const accepted = await person.client.post('/api/auth/invitation-accept/', link);
    expect(accepted.statusCode, accepted.body).toBe(204);
    expect(await membershipsOf(person.user.id)).toEqual([orgA.id, orgB.id].sort());
    const session = (await person.client.get('/api/auth/session/')).json();
    expect(session.last_session_org_id).toBe(orgB.id);
    const listed = (await adminB.client.get(USERS))
      .json()
      .find((u: { id: string }) => u.id === person.user.id);
    expect(listed.role_memberships).toEqual([
      expect.objectContaining({ organization_id: orgB.id, role_name: 'Operator' }),
    ]);
    expect((await adminB.client.get('/api/auth/invitations/')).body).not.toContain(invitation.id);
    // The link is used up, and the stored copy of the mail no longer holds it.
    expect((await person.client.post('/api/auth/invitation-accept/', link)).statusCode).toBe(400);
    expect(await storedMailHolds(link.token)).toBe(false);

    const trail = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityType, 'user'), eq(auditEvents.entityId, person.user.id)));
    const inA = trail.filter((e) => e.organizationId === orgA.id);
    const inB = trail.filter((e) => e.organizationId === orgB.id);
    // Inviting wrote nothing in A; accepting, the person's own act, is recorded there too.
    expect(inA.map((e) => e.action)).toEqual(['user.member.join.elsewhere']);
    expect(inA[0]).toMatchObject({
      actorUserId: person.user.id,
      newValue: '(another organization)',
    });
    expect(inB.map((e) => e.action)).toEqual(['user.member.join']);
    expect(inB[0]).toMatchObject({ actorUserId: person.user.id, newValue: 'Operator' });
    // A's trail names B only as another organization.
    expect(JSON.stringify(inA)).not.toContain(adminB.user.email);
    expect(JSON.stringify(inA)).not.toContain('Bravo');
    expect(JSON.stringify(inA)).not.toContain(orgB.id);
    const invited = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, invitation.id), eq(auditEvents.action, 'user.invite')));
    expect(invited).toEqual([
      expect.objectContaining({ organizationId: orgB.id, actorUserId: adminB.user.id }),
    ]);
  });

  it('a new address: the invited person creates the account with a username and password of their own', async () => {
    const taken = await memberOfA();
    const body = registerBody({ username: taken.user.username, role_id: rolesB.Viewer });
    expect((await adminB.client.post(USERS, body)).statusCode).toBe(200);
    const link = await invitationLinkTo(body.email);
    const view = ZInvitationView.parse(
      (await t.client().post('/api/auth/invitation-validate/', link)).json(),
    );
    expect(view).toMatchObject({ account_exists: false, username: taken.user.username });

    const anonymous = t.client();
    const create = (overrides: Record<string, unknown>) =>
      anonymous.post('/api/auth/invitation-register/', {
        ...link,
        username: `chosen_${uid()}`,
        first_name: 'Nina',
        last_name: 'New',
        new_password: TEST_PASSWORD,
        ...overrides,
      });
    // The suggested username is someone else's: the invited person chooses another.
    const clash = await create({ username: taken.user.username });
    expect(clash.statusCode).toBe(409);
    expect(Object.keys(clash.json().fields)).toEqual(['username']);
    const weak = await create({ new_password: 'password' });
    expect(weak.statusCode).toBe(400);
    expect(Object.keys(weak.json().fields)).toEqual(['new_password']);
    expect(await t.db.select().from(users).where(eq(users.email, body.email))).toHaveLength(0);

    const username = `chosen_${uid()}`;
    const made = await create({ username });
    expect(made.statusCode, made.body).toBe(204);
    const signedIn = t.client();
    expect((await signedIn.login(username, TEST_PASSWORD)).statusCode).toBe(200);
    const [user] = await t.db.select().from(users).where(eq(users.email, body.email));
    expect(await membershipsOf(user!.id)).toEqual([orgB.id]);
    expect((await adminB.client.get(USERS)).body).toContain(username);
    const audit = await t.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.entityId, user!.id), eq(auditEvents.action, 'user.register')));
    expect(audit).toEqual([
      expect.objectContaining({ organizationId: orgB.id, actorUserId: user!.id }),
    ]);
    // Used up.
    expect((await create({ username: `again_${uid()}` })).statusCode).toBe(400);
  });

  it('a declined, revoked or expired invitation link is dead (400 naming token); each is audited', async () => {
    const dead = async (link: { uuid: string; token: string }) => {
      const res = await t.client().post('/api/auth/invitation-validate/', link);
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json().fields)).toEqual(['token']);
    };
    const declined = registerBody();
    await adminB.client.post(USERS, declined);
    const declinedLink = await invitationLinkTo(declined.email);
    expect((await t.client().post('/api/auth/invitation-decline/', declinedLink)).statusCode).toBe(
      204,
    );
    await dead(declinedLink);

    const revoked = registerBody();
    const sent = ZUserRegistration.parse((await adminB.client.post(USERS, revoked)).json());
    const revokedLink = await invitationLinkTo(revoked.email);
    // Another organization's administrator cannot revoke it.
    const foreign = await adminA.client.post('/api/auth/invitation-revoke/', {
      invitation_id: sent.invitation!.id,
    });
    expect(foreign.statusCode).toBe(404);
    const ok = await adminB.client.post('/api/auth/invitation-revoke/', {
      invitation_id: sent.invitation!.id,
    });
    expect(ok.statusCode).toBe(204);
    await dead(revokedLink);

    const expired = registerBody();
    await adminB.client.post(USERS, expired);
    const expiredLink = await invitationLinkTo(expired.email);
    await t.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.id, expiredLink.uuid));
    await dead(expiredLink);
    // The daily housekeeping clears the expired link's stored copy, and no live one.
    const live = registerBody();
    await adminB.client.post(USERS, live);
    const liveLink = await invitationLinkTo(live.email);
    expect(await storedMailHolds(expiredLink.token)).toBe(true);
    expect(await scrubDeadInvitationLinks(t.db)).toBeGreaterThanOrEqual(1);
    expect(await storedMailHolds(expiredLink.token)).toBe(false);
    expect(await storedMailHolds(liveLink.token)).toBe(true);
    for (const link of [declinedLink, revokedLink]) {
      expect(await storedMailHolds(link.token)).toBe(false);
    }
    await dead({ uuid: expiredLink.uuid, token: 'x'.repeat(43) });
    await dead({ uuid: 'not-a-uuid', token: expiredLink.token });

    const actions = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(eq(auditEvents.organizationId, orgB.id));
    expect(actions.map((a) => a.action)).toEqual(
      expect.arrayContaining(['user.invite.decline', 'user.invite.revoke']),
    );
  });

  it("a member suspended by B keeps A: sessions there, A's list and A's token are untouched", async () => {
    const person = await memberOfA();
    await adminB.client.post(USERS, registerBody({ email: person.user.email }));
    await person.client.post(
      '/api/auth/invitation-accept/',
      await invitationLinkTo(person.user.email),
    );
    const suspended = await adminB.client.post('/api/auth/user-suspend/', {
      user_id: person.user.id,
      is_suspended: true,
    });
    expect(suspended.statusCode, suspended.body).toBe(200);
    // The session was in B: it falls back to A, where the person still acts.
    const session = await person.client.get('/api/auth/session/');
    expect(session.json().last_session_org_id).toBe(orgA.id);
    expect((await person.client.get('/api/devices/xt1/records/')).statusCode).toBe(200);
    expect(
      await t.db.select().from(sessions).where(eq(sessions.userId, person.user.id)),
    ).not.toHaveLength(0);
    const inA = (await adminA.client.get(USERS))
      .json()
      .find((u: { id: string }) => u.id === person.user.id);
    expect(inA).toMatchObject({ is_suspended: false, is_locked: false });
    // A's administrator sees nothing of B's suspension in A's trail.
    const trailA = await t.db
      .select({ action: auditEvents.action })
      .from(auditEvents)
      .where(
        and(eq(auditEvents.organizationId, orgA.id), eq(auditEvents.entityId, person.user.id)),
      );
    expect(trailA.map((a) => a.action)).not.toContain('user.suspend');
  });
});
