import type {
  TOrg,
  TOrgLevelRecord,
  TRole,
  TUserLock,
  TUserRegister,
  TUserRegistration,
  TUserRoleChange,
  TUserSmall,
  TUserSuspend,
} from '@coldtrace/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database, Db } from '../../db/client';
import { users, type UserRow } from '../../db/schema';
import { AppError, notFound } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { actorOf, recordAudit, type AuditEntry } from '../../kernel/audit';
import type { Principal } from '../../kernel/principal';
import { permissionsIn } from '../identity';
import { createOrganization, setMembership } from '../orgs';
import { queueWelcomeMail } from '../identity';
import { revokeUserCredentials } from '../identity';
import { queueAddedToOrganizationMail } from './added-mail';
import { createInvitationsService, type InvitationsService } from './invitations';
import * as repo from './repository';

/**
 * Manage Users (spec sections 2, 3, 6) and server administration
 * (docs/decisions/administration.md). Every call works in the session
 * organization; a user or role of another organization answers 404. Joining
 * needs the person's consent (`invitations.ts`); an organization suspends only
 * its own membership, and only a server administrator locks an account (issue 34).
 */

/** `inOrganization`: the list is one organization's, so `is_suspended` says its membership's state. */
const presentUser = (
  user: UserRow,
  memberships: readonly repo.MembershipRow[],
  inOrganization = true,
): TUserSmall => ({
  id: user.id,
  username: user.username,
  first_name: user.firstName,
  last_name: user.lastName,
  email: user.email,
  date_joined: user.dateJoined.toISOString(),
  is_locked: user.isLocked,
  ...(inOrganization ? { is_suspended: memberships.some((m) => m.suspended) } : {}),
  role_memberships: memberships.map((m) => ({
    id: m.id,
    role_id: m.roleId,
    role_name: m.roleName,
    organization_id: m.organizationId,
  })),
});

/** The password hash of an account whose user has not chosen a password yet. */
const UNUSABLE_PASSWORD = '!';

async function membershipIn(
  tx: Db,
  organizationId: string,
  user: UserRow,
): Promise<repo.MembershipRow> {
  const found = await repo.findMember(tx, organizationId, user.id);
  if (!found) throw new Error(`user ${user.id} is not a member of ${organizationId}`);
  return found.membership;
}

const audit = (request: FastifyRequest, principal: Principal, organizationId: string) => ({
  organizationId,
  actor: actorOf(principal),
  requestId: request.id,
});

/**
 * The member to change: of the organization (an active or a suspended
 * membership), never the caller.
 */
async function memberToChange(
  tx: Parameters<typeof repo.findMember>[0],
  organizationId: string,
  principal: Principal,
  userId: string,
) {
  const found = isUuid(userId)
    ? ((await repo.findMember(tx, organizationId, userId)) ??
      (await repo.findSuspended(tx, organizationId, userId)))
    : undefined;
  if (!found) throw notFound('User');
  if (found.user.id === principal.user.id) {
    throw new AppError('FORBIDDEN', 'You cannot change your own role or lock yourself out.');
  }
  if (found.user.isServerAdmin && !principal.user.isServerAdmin) {
    throw new AppError(
      'FORBIDDEN',
      'Only a server administrator may change a server administrator.',
    );
  }
  return found;
}

/** A server administrator adds an existing account directly (no consent step), audited. */
async function addExisting(
  app: FastifyInstance,
  tx: Db,
  request: FastifyRequest,
  principal: Principal,
  organizationId: string,
  roleName: string,
  existing: UserRow,
): Promise<UserRow> {
  if (
    (await repo.findMember(tx, organizationId, existing.id)) ||
    (await repo.findSuspended(tx, organizationId, existing.id))
  ) {
    const message = 'This person is already a member of this organization';
    throw new AppError('CONFLICT', message, { email: message });
  }
  const elsewhere = await repo.organizationsOfUser(tx, existing.id);
  await setMembership(tx, existing.id, organizationId, roleName);
  const entry = (action: string, newValue: string): AuditEntry => ({
    action,
    entityType: 'user',
    entityId: existing.id,
    field: 'role',
    newValue,
  });
  await recordAudit(tx, audit(request, principal, organizationId), [
    entry('user.member.add', roleName),
  ]);
  for (const other of elsewhere) {
    await recordAudit(tx, audit(request, principal, other), [
      entry('user.member.add.elsewhere', '(another organization)'),
    ]);
  }
  const organization = await repo.findOrganization(tx, organizationId);
  if (existing.passwordHash === UNUSABLE_PASSWORD) {
    // They never chose a password (their welcome link may have expired): a new link.
    await queueWelcomeMail(app, tx, existing);
  } else {
    await queueAddedToOrganizationMail(app, tx, existing, organization!, roleName);
  }
  return existing;
}

/** A server administrator creates the account; the welcome e-mail lets its owner choose a password. */
async function createAccount(
  app: FastifyInstance,
  tx: Db,
  request: FastifyRequest,
  principal: Principal,
  body: TUserRegister,
  roleName: string,
): Promise<UserRow> {
  const clash = await repo.findUserByUsernameOrEmail(tx, body.username, body.email);
  if (clash.length > 0) {
    // A server administrator sees every account: the clash is no leak to them.
    const message = 'A user with this username already exists';
    throw new AppError('CONFLICT', message, { username: message });
  }
  const [user] = await tx
    .insert(users)
    // No usable password until the welcome link is followed.
    .values({
      username: body.username,
      email: body.email,
      firstName: body.first_name,
      lastName: body.last_name,
      passwordHash: UNUSABLE_PASSWORD,
    })
    // A registration of the same username or address at the same moment won the race.
    .onConflictDoNothing()
    .returning();
  if (!user) {
    const message =
      'A user with this username or e-mail address was registered at the same moment; try again';
    throw new AppError('CONFLICT', message, { username: message });
  }
  await setMembership(tx, user.id, body.organization_id, roleName);
  await recordAudit(tx, audit(request, principal, body.organization_id), [
    {
      action: 'user.register',
      entityType: 'user',
      entityId: user.id,
      field: 'role',
      newValue: roleName,
    },
  ]);
  await queueWelcomeMail(app, tx, user);
  return user;
}

async function list(
  db: Database,
  organizationId: string | null,
  principal: Principal,
  serverAdmin: boolean,
): Promise<TUserSmall[]> {
  if (serverAdmin && !principal.user.isServerAdmin) {
    throw new AppError('FORBIDDEN', 'Only a server administrator may list every user.');
  }
  // A tenant's Manage Users lists its own members: the accounts of the server's
  // administrators show in the server-admin views (and to server administrators) only.
  const rows = await repo.listUsers(db, serverAdmin ? null : organizationId, {
    serverAdmins: principal.user.isServerAdmin,
  });
  return rows.map((r) => presentUser(r.user, r.memberships, !serverAdmin));
}

async function register(
  app: FastifyInstance,
  db: Database,
  invitations: InvitationsService,
  request: FastifyRequest,
  principal: Principal,
  body: TUserRegister,
): Promise<TUserRegistration> {
  // organization_id must be one the caller administers: another one is not found.
  const held = isUuid(body.organization_id)
    ? await permissionsIn(db, principal.user.id, body.organization_id)
    : undefined;
  const serverAdmin = principal.user.isServerAdmin;
  const allowed = serverAdmin || (held?.includes('sysAdminUser') ?? false);
  if (!allowed || !isUuid(body.organization_id)) throw notFound('Organization');
  const role = isUuid(body.role_id)
    ? await repo.findRole(db, body.organization_id, body.role_id)
    : undefined;
  if (!role) {
    throw new AppError('VALIDATION_ERROR', "Field 'role_id': no such role in this organization", {
      role_id: 'No such role in this organization',
    });
  }
  return db.transaction(async (tx) => {
    const existing = await repo.findUserByEmail(tx, body.email);
    // An organization's administrator invites: the same reply whatever exists, and
    // the person joins only by accepting (issue 34).
    if (!serverAdmin) return invitations.invite(tx, request, principal, body, role, existing);
    // A server administrator adds directly, audited here and wherever the person belongs.
    const user = existing
      ? await addExisting(app, tx, request, principal, body.organization_id, role.name, existing)
      : await createAccount(app, tx, request, principal, body, role.name);
    return {
      status: 'added',
      invitation: null,
      user: presentUser(user, [await membershipIn(tx, body.organization_id, user)]),
    };
  });
}

async function changeRole(
  db: Database,
  request: FastifyRequest,
  organizationId: string,
  principal: Principal,
  body: TUserRoleChange,
): Promise<TUserSmall> {
  return db.transaction(async (tx) => {
    const { user, membership } = await memberToChange(tx, organizationId, principal, body.user_id);
    if (membership.suspended) {
      const message = 'This membership is suspended: reactivate it before changing the role.';
      throw new AppError('CONFLICT', message, { user_id: message });
    }
    const role = isUuid(body.role_id)
      ? await repo.findRole(tx, organizationId, body.role_id)
      : undefined;
    if (!role) throw notFound('Role');
    if (role.id !== membership.roleId) {
      await setMembership(tx, user.id, organizationId, role.name);
      const entry: AuditEntry = {
        action: 'user.role.change',
        entityType: 'user',
        entityId: user.id,
        field: 'role',
        oldValue: membership.roleName,
        newValue: role.name,
      };
      await recordAudit(tx, audit(request, principal, organizationId), [entry]);
    }
    return presentUser(user, [{ ...membership, roleId: role.id, roleName: role.name }]);
  });
}

/** Suspend or reactivate a membership of the session organization (the account stays). */
async function setSuspended(
  db: Database,
  request: FastifyRequest,
  organizationId: string,
  principal: Principal,
  body: TUserSuspend,
): Promise<TUserSmall> {
  return db.transaction(async (tx) => {
    const { user, membership } = await memberToChange(tx, organizationId, principal, body.user_id);
    if (membership.suspended !== body.is_suspended) {
      if (body.is_suspended) await repo.suspendMembership(tx, membership, principal.user.id);
      else await repo.reactivateMembership(tx, membership);
      await recordAudit(tx, audit(request, principal, organizationId), [
        {
          action: body.is_suspended ? 'user.suspend' : 'user.reactivate',
          entityType: 'user',
          entityId: user.id,
          field: 'is_suspended',
          oldValue: membership.suspended,
          newValue: body.is_suspended,
        },
      ]);
    }
    return presentUser(user, [{ ...membership, suspended: body.is_suspended }]);
  });
}

/**
 * Lock or unlock an account platform-wide (server administrators only). Audited
 * in every organization the person belongs to.
 */
async function setLocked(
  db: Database,
  request: FastifyRequest,
  principal: Principal,
  body: TUserLock,
): Promise<TUserSmall> {
  return db.transaction(async (tx) => {
    const user = isUuid(body.user_id) ? await repo.findUserById(tx, body.user_id) : undefined;
    if (!user) throw notFound('User');
    if (user.id === principal.user.id) {
      throw new AppError('FORBIDDEN', 'You cannot lock yourself out.');
    }
    if (user.isLocked !== body.is_locked) {
      await tx.update(users).set({ isLocked: body.is_locked }).where(eq(users.id, user.id));
      // A locked user is signed out everywhere at once: every session and user token
      // is revoked (so unlocking does not revive them; API keys refuse a locked creator).
      if (body.is_locked) await revokeUserCredentials(tx, user.id);
      for (const organizationId of await repo.organizationsOfUser(tx, user.id)) {
        await recordAudit(tx, audit(request, principal, organizationId), [
          {
            action: body.is_locked ? 'user.lock' : 'user.unlock',
            entityType: 'user',
            entityId: user.id,
            field: 'is_locked',
            oldValue: user.isLocked,
            newValue: body.is_locked,
          },
        ]);
      }
    }
    const memberships = await repo.membershipsOfUser(tx, user.id);
    return presentUser({ ...user, isLocked: body.is_locked }, memberships, false);
  });
}

async function roles(db: Database, organizationId: string): Promise<TRole[]> {
  const rows = await repo.listRoles(db, organizationId);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    permission_names: r.permissionNames,
    created_by_organization_id: r.organizationId,
  }));
}

async function createServerOrganization(
  db: Database,
  principal: Principal,
  name: string,
): Promise<TOrg> {
  return db.transaction(async (tx) => {
    const { organization } = await createOrganization(tx, name);
    // The server administrator who creates it administers it, to register its first users.
    await setMembership(tx, principal.user.id, organization.id, 'Administrator');
    return { id: organization.id, name: organization.name };
  });
}

async function organizationSummaries(db: Database): Promise<TOrgLevelRecord[]> {
  const rows = await repo.organizationSummaries(db);
  return rows.map((r) => ({
    id: r.org.id,
    name: r.org.name,
    created: r.org.created.toISOString(),
    user_ids: r.userIds,
    num_devices: r.numDevices,
    num_records: r.numRecords,
    latest_activity: r.latestActivity?.toISOString() ?? null,
    settings: null,
  }));
}

export function createUsersService(app: FastifyInstance) {
  const db = app.db;

  const invitations = createInvitationsService(app);

  return {
    invitations,
    list: (organizationId: string | null, principal: Principal, serverAdmin: boolean) =>
      list(db, organizationId, principal, serverAdmin),
    register: (request: FastifyRequest, principal: Principal, body: TUserRegister) =>
      register(app, db, invitations, request, principal, body),
    changeRole: (
      request: FastifyRequest,
      organizationId: string,
      principal: Principal,
      body: TUserRoleChange,
    ) => changeRole(db, request, organizationId, principal, body),
    setSuspended: (
      request: FastifyRequest,
      organizationId: string,
      principal: Principal,
      body: TUserSuspend,
    ) => setSuspended(db, request, organizationId, principal, body),
    setLocked: (request: FastifyRequest, principal: Principal, body: TUserLock) =>
      setLocked(db, request, principal, body),
    roles: (organizationId: string) => roles(db, organizationId),
    createOrganization: (principal: Principal, name: string) =>
      createServerOrganization(db, principal, name),
    organizationSummaries: () => organizationSummaries(db),
  };
}
