import { randomBytes } from 'node:crypto';
import type {
  TInvitation,
  TInvitationLink,
  TInvitationRegister,
  TInvitationView,
  TUserRegister,
  TUserRegistration,
} from '@coldtrace/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database, Db } from '../../db/client';
import { users, type UserRow } from '../../db/schema';
import { AppError, notFound } from '../../kernel/errors';
import { actorOf, printedName, recordAudit, type AuditActor } from '../../kernel/audit';
import { isUuid } from '../../kernel/ids';
import type { Principal } from '../../kernel/principal';
import { hashToken, passwordProblem, setSessionOrganization } from '../identity';
import { setMembership } from '../orgs';
import { scrubSecretLinks, storedSecretLinks } from '../mail';
import { queueInvitationMail } from './invitation-mail';
import * as repo from './invitations-repository';
import {
  findMember,
  findOrganization,
  findSuspended,
  findUserByEmail,
  findUserByUsernameOrEmail,
  organizationsOfUser,
} from './repository';

/**
 * Invitations (issue 34, docs/decisions/administration.md): an organization's
 * administrator registers a person by e-mail; the person becomes a member only
 * by accepting the link, signed in as the account the address already has, or by
 * creating the account from it. The administrator's reply is the same whatever
 * exists, and names nothing of an existing account.
 */

export const INVALID_INVITATION =
  "This invitation link is invalid, has expired, was revoked or was already used. Ask the organization's administrator for a new one.";
const OTHER_ACCOUNT =
  'This invitation was sent to another e-mail address. Sign out and sign in as the invited person.';
const USERNAME_TAKEN = 'This username is taken: choose another';
const HAS_ACCOUNT =
  'This e-mail address already has an account: sign in with it to accept the invitation.';

/**
 * How the trail of an organization the person already belongs to names the one
 * they joined. Inviting writes nothing there (nothing one organization does
 * reaches another's records); accepting is the person's own act, recorded in both.
 */
const ANOTHER = '(another organization)';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const invalidLink = () =>
  new AppError('BAD_REQUEST', INVALID_INVITATION, { token: INVALID_INVITATION });

const presentInvitation = ({ invitation: i, roleName }: repo.InvitationWithRole): TInvitation => ({
  id: i.id,
  organization_id: i.organizationId,
  email: i.email,
  username: i.username,
  first_name: i.firstName,
  last_name: i.lastName,
  role_id: i.roleId,
  role_name: roleName,
  invited_by: i.invitedByName,
  created: i.created.toISOString(),
  expires: i.expiresAt.toISOString(),
});

/** The actor of a person acting through their invitation link, before they have a principal. */
const personActor = (user: UserRow): AuditActor => ({
  userId: user.id,
  name: printedName(user),
  email: user.email,
  clientType: 'WEB',
});

/**
 * Ends a pending invitation and clears its link out of the stored mail in the
 * same transaction, so `mail_outbox` never keeps a secret longer than it works.
 */
async function endInvitation(
  tx: Db,
  invitation: Pick<repo.InvitationRow, 'organizationId' | 'id'>,
  outcome: 'accepted' | 'declined' | 'revoked',
  now: Date,
  acceptedUserId: string | null = null,
) {
  const ended = await repo.endInvitation(tx, invitation, outcome, now, acceptedUserId);
  if (ended) {
    await scrubSecretLinks(tx, { routes: ['invitation'], id: ended.id, issuedAt: ended.created });
  }
  return ended;
}

/**
 * Housekeeping (the daily `tokens.purge-expired` job): the stored copy of an
 * invitation link that no longer works (expired, or ended before the scrub
 * existed) is cleared. Answers how many stored mails changed.
 */
export async function scrubDeadInvitationLinks(db: Db, now: Date = new Date()): Promise<number> {
  const stored = await storedSecretLinks(db, { routes: ['invitation'] });
  const ids = [...new Set(stored.map((l) => decodeURIComponent(l.id)))].filter(isUuid);
  const live = new Set(await repo.pendingInvitationIds(db, ids, now));
  let changed = 0;
  for (const id of ids.filter((i) => !live.has(i))) {
    changed += await scrubSecretLinks(db, { routes: ['invitation'], id });
  }
  return changed;
}

/** The pending invitation of a link, locked; a dead or malformed link answers 400 on `token`. */
async function pendingOf(tx: Db, link: TInvitationLink, now: Date) {
  if (!isUuid(link.uuid) || !TOKEN_SHAPE.test(link.token)) throw invalidLink();
  const found = await repo.findPendingByLink(tx, link.uuid, hashToken(link.token), now);
  if (!found) throw invalidLink();
  return found;
}

/** Audit the person's `action` in each of their organizations but `organizationId`. */
async function auditElsewhere(
  tx: Db,
  userId: string,
  organizationId: string,
  actor: AuditActor,
  action: string,
  requestId: string,
) {
  for (const other of await organizationsOfUser(tx, userId)) {
    if (other === organizationId) continue;
    await recordAudit(tx, { organizationId: other, actor, requestId }, [
      { action, entityType: 'user', entityId: userId, field: 'membership', newValue: ANOTHER },
    ]);
  }
}

/**
 * Invite (inside `tx`, which holds the address's account row locked when there
 * is one). A pending invitation to the same address is replaced.
 */
async function invite(
  app: FastifyInstance,
  tx: Db,
  request: FastifyRequest,
  principal: Principal,
  body: TUserRegister,
  role: { id: string; name: string },
  existing: UserRow | undefined,
): Promise<TUserRegistration> {
  const organizationId = body.organization_id;
  if (
    existing &&
    ((await findMember(tx, organizationId, existing.id)) ||
      (await findSuspended(tx, organizationId, existing.id)))
  ) {
    // Not a leak: the caller administers this organization and sees its members.
    const message = 'This person is already a member of this organization';
    throw new AppError('CONFLICT', message, { email: message });
  }
  const now = new Date();
  const replaced = await repo.endPendingInvitationsTo(tx, organizationId, body.email, now);
  for (const r of replaced) {
    await scrubSecretLinks(tx, { routes: ['invitation'], id: r.id, issuedAt: r.created });
  }
  const token = randomBytes(32).toString('base64url');
  const inviter = printedName(principal.user);
  const invitation = await repo.insertInvitation(tx, {
    organizationId,
    email: body.email,
    username: body.username,
    firstName: body.first_name,
    lastName: body.last_name,
    roleId: role.id,
    invitedByUserId: principal.user.id,
    invitedByName: inviter,
    tokenHash: hashToken(token),
    created: now,
    expiresAt: new Date(now.getTime() + app.config.passwordResetTtlHours * 3_600_000),
  });
  await recordAudit(tx, { organizationId, actor: actorOf(principal), requestId: request.id }, [
    ...replaced.map((r) => ({
      action: 'user.invite.replace',
      entityType: 'invitation',
      entityId: r.id,
      field: 'outcome',
      newValue: 'revoked',
    })),
    {
      action: 'user.invite',
      entityType: 'invitation',
      entityId: invitation.id,
      field: 'role',
      newValue: { email: body.email, role: role.name },
    },
  ]);
  const organization = (await findOrganization(tx, organizationId))!.name;
  await queueInvitationMail(app, tx, {
    invitationId: invitation.id,
    token,
    email: body.email,
    name: `${body.first_name} ${body.last_name}`.trim(),
    organization: { id: organizationId, name: organization },
    roleName: role.name,
    invitedBy: inviter,
    expiresAt: invitation.expiresAt,
    accountExists: existing !== undefined,
  });
  return {
    status: 'invited',
    invitation: presentInvitation({
      invitation,
      roleName: role.name,
      organizationName: organization,
    }),
    user: null,
  };
}

async function list(db: Database, organizationId: string): Promise<TInvitation[]> {
  const rows = await repo.listPendingInvitations(db, organizationId, new Date());
  return rows.map(presentInvitation);
}

async function revoke(
  db: Database,
  request: FastifyRequest,
  organizationId: string,
  principal: Principal,
  invitationId: string,
) {
  await db.transaction(async (tx) => {
    const ended = isUuid(invitationId)
      ? await endInvitation(tx, { organizationId, id: invitationId }, 'revoked', new Date())
      : undefined;
    if (!ended) throw notFound('Invitation');
    await recordAudit(tx, { organizationId, actor: actorOf(principal), requestId: request.id }, [
      {
        action: 'user.invite.revoke',
        entityType: 'invitation',
        entityId: ended.id,
        field: 'outcome',
        newValue: 'revoked',
      },
    ]);
  });
}

/** What the link offers; it stays usable. */
async function view(db: Database, link: TInvitationLink): Promise<TInvitationView> {
  return db.transaction(async (tx) => {
    const {
      invitation: i,
      roleName,
      organizationName: orgName,
    } = await pendingOf(tx, link, new Date());
    const account = await findUserByEmail(tx, i.email);
    return {
      organization_name: orgName,
      role_name: roleName,
      invited_by: i.invitedByName,
      email: i.email,
      username: i.username,
      first_name: i.firstName,
      last_name: i.lastName,
      account_exists: account !== undefined,
      expires: i.expiresAt.toISOString(),
    };
  });
}

/** The signed-in person accepts: a member with the invitation's role, the session moved there. */
async function accept(
  db: Database,
  request: FastifyRequest,
  principal: Principal,
  link: TInvitationLink,
) {
  await db.transaction(async (tx) => {
    const now = new Date();
    const { invitation: i, roleName } = await pendingOf(tx, link, now);
    if (principal.user.email.toLowerCase() !== i.email.toLowerCase()) {
      throw new AppError('FORBIDDEN', OTHER_ACCOUNT);
    }
    if (await findSuspended(tx, i.organizationId, principal.user.id)) {
      throw new AppError(
        'CONFLICT',
        'Your membership of this organization is suspended: ask its administrator to reactivate it.',
      );
    }
    const already = await findMember(tx, i.organizationId, principal.user.id);
    await endInvitation(tx, i, 'accepted', now, principal.user.id);
    const actor = actorOf(principal);
    if (!already) {
      await setMembership(tx, principal.user.id, i.organizationId, roleName);
      await recordAudit(tx, { organizationId: i.organizationId, actor, requestId: request.id }, [
        {
          action: 'user.member.join',
          entityType: 'user',
          entityId: principal.user.id,
          field: 'role',
          newValue: roleName,
          reason: `Accepted the invitation of ${i.invitedByName}`,
        },
      ]);
      await auditElsewhere(
        tx,
        principal.user.id,
        i.organizationId,
        actor,
        'user.member.join.elsewhere',
        request.id,
      );
    }
    if (principal.sessionId !== null) {
      await setSessionOrganization(tx, principal.sessionId, principal.user.id, i.organizationId);
    }
  });
}

/** The invited person creates the account the invitation was sent to. */
async function registerAccount(
  app: FastifyInstance,
  db: Database,
  request: FastifyRequest,
  body: TInvitationRegister,
): Promise<void> {
  await db.transaction(async (tx) => {
    const now = new Date();
    const { invitation: i, roleName } = await pendingOf(tx, body, now);
    const problem = await passwordProblem(body.new_password, {
      username: body.username,
      email: i.email,
      firstName: body.first_name,
      lastName: body.last_name,
    });
    if (problem) throw new AppError('VALIDATION_ERROR', problem, { new_password: problem });
    const clash = await findUserByUsernameOrEmail(tx, body.username, i.email);
    if (clash.some((c) => c.email.toLowerCase() === i.email.toLowerCase())) {
      throw new AppError('CONFLICT', HAS_ACCOUNT, { token: HAS_ACCOUNT });
    }
    if (clash.length > 0) {
      throw new AppError('CONFLICT', USERNAME_TAKEN, { username: USERNAME_TAKEN });
    }
    const [user] = await tx
      .insert(users)
      .values({
        username: body.username,
        email: i.email,
        firstName: body.first_name,
        lastName: body.last_name,
        passwordHash: await app.passwords.hash(body.new_password),
      })
      // The same username chosen at the same moment won the race.
      .onConflictDoNothing()
      .returning();
    if (!user) throw new AppError('CONFLICT', USERNAME_TAKEN, { username: USERNAME_TAKEN });
    await setMembership(tx, user.id, i.organizationId, roleName);
    await endInvitation(tx, i, 'accepted', now, user.id);
    await recordAudit(
      tx,
      { organizationId: i.organizationId, actor: personActor(user), requestId: request.id },
      [
        {
          action: 'user.register',
          entityType: 'user',
          entityId: user.id,
          field: 'role',
          newValue: roleName,
          reason: `Accepted the invitation of ${i.invitedByName}`,
        },
      ],
    );
  });
}

async function decline(
  db: Database,
  request: FastifyRequest,
  link: TInvitationLink,
): Promise<void> {
  await db.transaction(async (tx) => {
    const now = new Date();
    const { invitation: i } = await pendingOf(tx, link, now);
    await endInvitation(tx, i, 'declined', now);
    const account = await findUserByEmail(tx, i.email);
    const actor: AuditActor = account
      ? personActor(account)
      : { userId: null, name: i.email, email: i.email, clientType: 'WEB' };
    await recordAudit(tx, { organizationId: i.organizationId, actor, requestId: request.id }, [
      {
        action: 'user.invite.decline',
        entityType: 'invitation',
        entityId: i.id,
        field: 'outcome',
        newValue: 'declined',
      },
    ]);
  });
}

export function createInvitationsService(app: FastifyInstance) {
  const db = app.db;

  return {
    invite: (
      tx: Db,
      request: FastifyRequest,
      principal: Principal,
      body: TUserRegister,
      role: { id: string; name: string },
      existing: UserRow | undefined,
    ) => invite(app, tx, request, principal, body, role, existing),
    list: (organizationId: string) => list(db, organizationId),
    revoke: (
      request: FastifyRequest,
      organizationId: string,
      principal: Principal,
      invitationId: string,
    ) => revoke(db, request, organizationId, principal, invitationId),
    view: (link: TInvitationLink) => view(db, link),
    accept: (request: FastifyRequest, principal: Principal, link: TInvitationLink) =>
      accept(db, request, principal, link),
    registerAccount: (request: FastifyRequest, body: TInvitationRegister) =>
      registerAccount(app, db, request, body),
    decline: (request: FastifyRequest, link: TInvitationLink) => decline(db, request, link),
  };
}

export type InvitationsService = ReturnType<typeof createInvitationsService>;
