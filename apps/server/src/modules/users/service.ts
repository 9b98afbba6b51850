import type {
  TOrg,
  TOrgLevelRecord,
  TRole,
  TUserLock,
  TUserRegister,
  TUserRoleChange,
  TUserSmall,
} from '@coldtrace/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { users, type UserRow } from '../../db/schema';
import { AppError, notFound } from '../../http/errors';
import { isUuid } from '../../kernel/ids';
import { actorOf, recordAudit, type AuditEntry } from '../../kernel/audit';
import { organizationOf, type Principal } from '../../kernel/principal';
import { permissionsIn } from '../identity';
import { createOrganization, setMembership } from '../orgs';
import { queueWelcomeMail } from '../identity';
import { revokeUserCredentials } from '../identity';
import { queueAddedToOrganizationMail } from './added-mail';
import * as repo from './repository';

/**
 * Manage Users (spec sections 2, 3, 6) and server administration
 * (docs/decisions/administration.md). Every call works in the session
 * organization; a user or role of another organization answers 404.
 */

const presentUser = (user: UserRow, memberships: readonly repo.MembershipRow[]): TUserSmall => ({
  id: user.id,
  username: user.username,
  first_name: user.firstName,
  last_name: user.lastName,
  email: user.email,
  date_joined: user.dateJoined.toISOString(),
  is_locked: user.isLocked,
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
  tx: Parameters<typeof repo.findMember>[0],
  organizationId: string,
  user: UserRow,
): Promise<repo.MembershipRow> {
  const found = await repo.findMember(tx, organizationId, user.id);
  if (!found) throw new Error(`user ${user.id} is not a member of ${organizationId}`);
  return found.membership;
}

export function createUsersService(app: FastifyInstance) {
  const db = app.db;
  const audit = (request: FastifyRequest, principal: Principal, organizationId: string) => ({
    organizationId,
    actor: actorOf(principal),
    requestId: request.id,
  });

  /** The member to change: of the session organization, never the caller. */
  async function memberToChange(
    tx: Parameters<typeof repo.findMember>[0],
    principal: Principal,
    userId: string,
  ) {
    const organizationId = organizationOf(principal);
    const found = isUuid(userId) ? await repo.findMember(tx, organizationId, userId) : undefined;
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
    return { organizationId, ...found };
  }

  return {
    async list(principal: Principal, serverAdmin: boolean): Promise<TUserSmall[]> {
      if (serverAdmin && !principal.user.isServerAdmin) {
        throw new AppError('FORBIDDEN', 'Only a server administrator may list every user.');
      }
      // A tenant's Manage Users lists its own members: the accounts of the server's
      // administrators show in the server-admin views (and to server administrators) only.
      const rows = await repo.listUsers(db, serverAdmin ? null : organizationOf(principal), {
        serverAdmins: principal.user.isServerAdmin,
      });
      return rows.map((r) => presentUser(r.user, r.memberships));
    },

    async register(
      request: FastifyRequest,
      principal: Principal,
      body: TUserRegister,
    ): Promise<TUserSmall> {
      // organization_id must be one the caller administers: another one is not found.
      const held = isUuid(body.organization_id)
        ? await permissionsIn(db, principal.user.id, body.organization_id)
        : undefined;
      const allowed = principal.user.isServerAdmin || (held?.includes('sysAdminUser') ?? false);
      if (!allowed || !isUuid(body.organization_id)) throw notFound('Organization');
      const role = isUuid(body.role_id)
        ? await repo.findRole(db, body.organization_id, body.role_id)
        : undefined;
      if (!role) {
        throw new AppError(
          'VALIDATION_ERROR',
          "Field 'role_id': no such role in this organization",
          {
            role_id: 'No such role in this organization',
          },
        );
      }
      return db.transaction(async (tx) => {
        // Someone with this e-mail address already has an account (possibly in another
        // organization): they join this organization with the requested role, keep their
        // name, password and other memberships, and are told by e-mail. The reply is the
        // same 200 as for a new person, so registering does not reveal who has an account
        // elsewhere (docs/decisions/administration.md).
        const existing = await repo.findUserByEmail(tx, body.email);
        if (existing) {
          if (await repo.findMember(tx, body.organization_id, existing.id)) {
            // Not a leak: the caller administers this organization and sees its members.
            const message = 'This person is already a member of this organization';
            throw new AppError('CONFLICT', message, { email: message });
          }
          await setMembership(tx, existing.id, body.organization_id, role.name);
          await recordAudit(tx, audit(request, principal, body.organization_id), [
            {
              action: 'user.member.add',
              entityType: 'user',
              entityId: existing.id,
              field: 'role',
              newValue: role.name,
            },
          ]);
          const organization = await repo.findOrganization(tx, body.organization_id);
          if (existing.passwordHash === UNUSABLE_PASSWORD) {
            // They never chose a password (their welcome link may have expired): a new link.
            await queueWelcomeMail(app, tx, existing);
          } else {
            await queueAddedToOrganizationMail(app, tx, existing, organization!, role.name);
          }
          return presentUser(existing, [await membershipIn(tx, body.organization_id, existing)]);
        }
        const clash = await repo.findUserByUsernameOrEmail(tx, body.username, body.email);
        if (clash.some((c) => c.username.toLowerCase() === body.username.toLowerCase())) {
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
          const field = (await repo.findUserByUsernameOrEmail(tx, body.username, '')).length
            ? 'username'
            : 'email';
          const message = `A user with this ${field === 'email' ? 'e-mail address' : field} was registered at the same moment; try again`;
          throw new AppError('CONFLICT', message, { [field]: message });
        }
        await setMembership(tx, user.id, body.organization_id, role.name);
        await recordAudit(tx, audit(request, principal, body.organization_id), [
          {
            action: 'user.register',
            entityType: 'user',
            entityId: user!.id,
            field: 'role',
            newValue: role.name,
          },
        ]);
        await queueWelcomeMail(app, tx, user!);
        return presentUser(user!, [await membershipIn(tx, body.organization_id, user!)]);
      });
    },

    async changeRole(
      request: FastifyRequest,
      principal: Principal,
      body: TUserRoleChange,
    ): Promise<TUserSmall> {
      return db.transaction(async (tx) => {
        const { organizationId, user, membership } = await memberToChange(
          tx,
          principal,
          body.user_id,
        );
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
    },

    async setLocked(
      request: FastifyRequest,
      principal: Principal,
      body: TUserLock,
    ): Promise<TUserSmall> {
      return db.transaction(async (tx) => {
        const { organizationId, user, membership } = await memberToChange(
          tx,
          principal,
          body.user_id,
        );
        if (user.isLocked !== body.is_locked) {
          await tx.update(users).set({ isLocked: body.is_locked }).where(eq(users.id, user.id));
          // A locked user is signed out everywhere at once: every session and user token
          // is revoked (so unlocking does not revive them; API keys refuse a locked creator).
          if (body.is_locked) await revokeUserCredentials(tx, user.id);
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
        return presentUser({ ...user, isLocked: body.is_locked }, [membership]);
      });
    },

    async roles(principal: Principal): Promise<TRole[]> {
      const rows = await repo.listRoles(db, organizationOf(principal));
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        permission_names: r.permissionNames,
        created_by_organization_id: r.organizationId,
      }));
    },

    async createOrganization(principal: Principal, name: string): Promise<TOrg> {
      return db.transaction(async (tx) => {
        const { organization } = await createOrganization(tx, name);
        // The server administrator who creates it administers it, to register its first users.
        await setMembership(tx, principal.user.id, organization.id, 'Administrator');
        return { id: organization.id, name: organization.name };
      });
    },

    async organizationSummaries(): Promise<TOrgLevelRecord[]> {
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
    },
  };
}
