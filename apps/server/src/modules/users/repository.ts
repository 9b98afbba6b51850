import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  memberships,
  membershipSuspensions,
  organizations,
  roles,
  users,
  type UserRow,
} from '../../db/schema';
import { userTokens } from '../../db/schema-access';
import { tags } from '../../db/schema-shipments';
import { recordCountsByOrganization } from '../records';

/** Database access of user administration. Queries that take an organization scope by it. */

export interface MembershipRow {
  id: string;
  userId: string;
  organizationId: string;
  roleId: string;
  roleName: string;
  /** Suspended by its organization (`membership_suspensions`): it grants nothing. */
  suspended: boolean;
}

const membershipColumns = {
  id: memberships.id,
  userId: memberships.userId,
  organizationId: memberships.organizationId,
  roleId: roles.id,
  roleName: roles.name,
  suspended: sql<boolean>`false`,
};

const suspensionColumns = {
  id: membershipSuspensions.membershipId,
  userId: membershipSuspensions.userId,
  organizationId: membershipSuspensions.organizationId,
  roleId: roles.id,
  roleName: roles.name,
  suspended: sql<boolean>`true`,
};

/**
 * Users of one organization (or of all, with `null`), with the memberships that scope allows.
 * `serverAdmins: false` leaves server administrators out (a tenant's view of its members).
 */
export async function listUsers(
  db: Db,
  organizationId: string | null,
  opts: { serverAdmins: boolean } = { serverAdmins: true },
): Promise<{ user: UserRow; memberships: MembershipRow[] }[]> {
  const [active, suspended] = await Promise.all([
    db
      .select(membershipColumns)
      .from(memberships)
      .innerJoin(roles, eq(roles.id, memberships.roleId))
      .where(organizationId === null ? undefined : eq(memberships.organizationId, organizationId)),
    db
      .select(suspensionColumns)
      .from(membershipSuspensions)
      .innerJoin(roles, eq(roles.id, membershipSuspensions.roleId))
      .where(
        organizationId === null
          ? undefined
          : eq(membershipSuspensions.organizationId, organizationId),
      ),
  ]);
  const rows = [...active, ...suspended];
  if (organizationId !== null && rows.length === 0) return [];
  const userRows = await db
    .select()
    .from(users)
    .where(
      and(
        organizationId === null
          ? undefined
          : inArray(
              users.id,
              rows.map((r) => r.userId),
            ),
        opts.serverAdmins ? undefined : eq(users.isServerAdmin, false),
      ),
    )
    .orderBy(asc(sql`lower(${users.username})`));
  return userRows.map((user) => ({
    user,
    memberships: rows.filter((r) => r.userId === user.id),
  }));
}

/** The user with their membership in the organization; undefined when not a member. */
export async function findMember(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<{ user: UserRow; membership: MembershipRow } | undefined> {
  const [row] = await db
    .select({ user: users, membership: membershipColumns })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(roles, eq(roles.id, memberships.roleId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)))
    .for('update', { of: memberships });
  return row;
}

/** Every membership of the user, suspended ones included. */
export async function membershipsOfUser(db: Db, userId: string): Promise<MembershipRow[]> {
  const [active, suspended] = await Promise.all([
    db
      .select(membershipColumns)
      .from(memberships)
      .innerJoin(roles, eq(roles.id, memberships.roleId))
      .where(eq(memberships.userId, userId)),
    db
      .select(suspensionColumns)
      .from(membershipSuspensions)
      .innerJoin(roles, eq(roles.id, membershipSuspensions.roleId))
      .where(eq(membershipSuspensions.userId, userId)),
  ]);
  return [...active, ...suspended];
}

/** The organizations the user belongs to, suspended memberships included. */
export async function organizationsOfUser(db: Db, userId: string): Promise<string[]> {
  return [...new Set((await membershipsOfUser(db, userId)).map((m) => m.organizationId))];
}

/** The user with their suspended membership of the organization, locked; undefined when none. */
export async function findSuspended(
  db: Db,
  organizationId: string,
  userId: string,
): Promise<{ user: UserRow; membership: MembershipRow } | undefined> {
  const [row] = await db
    .select({ user: users, membership: suspensionColumns })
    .from(membershipSuspensions)
    .innerJoin(users, eq(users.id, membershipSuspensions.userId))
    .innerJoin(roles, eq(roles.id, membershipSuspensions.roleId))
    .where(
      and(
        eq(membershipSuspensions.organizationId, organizationId),
        eq(membershipSuspensions.userId, userId),
      ),
    )
    .for('update', { of: membershipSuspensions });
  return row;
}

/**
 * Suspends the membership: it moves to `membership_suspensions` (so nothing that reads
 * memberships lets it act) and the user tokens acting in the organization die. Sessions
 * in it move to another of the person's organizations at their next request.
 */
export async function suspendMembership(
  db: Db,
  membership: MembershipRow,
  suspendedByUserId: string,
): Promise<void> {
  const [removed] = await db
    .delete(memberships)
    .where(eq(memberships.id, membership.id))
    .returning();
  await db.insert(membershipSuspensions).values({
    organizationId: membership.organizationId,
    userId: membership.userId,
    membershipId: membership.id,
    roleId: membership.roleId,
    memberSince: removed!.created,
    suspendedByUserId,
  });
  await db
    .delete(userTokens)
    .where(
      and(
        eq(userTokens.userId, membership.userId),
        eq(userTokens.organizationId, membership.organizationId),
      ),
    );
}

/** Reactivates a suspended membership: the same id, role and start. */
export async function reactivateMembership(db: Db, membership: MembershipRow): Promise<void> {
  const [suspension] = await db
    .delete(membershipSuspensions)
    .where(
      and(
        eq(membershipSuspensions.organizationId, membership.organizationId),
        eq(membershipSuspensions.userId, membership.userId),
      ),
    )
    .returning();
  await db.insert(memberships).values({
    id: membership.id,
    userId: membership.userId,
    organizationId: membership.organizationId,
    roleId: membership.roleId,
    created: suspension!.memberSince,
  });
}

/** The user with this id, locked (server administration). */
export async function findUserById(db: Db, userId: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, userId)).for('update');
  return row;
}

export async function findRole(db: Db, organizationId: string, roleId: string) {
  const [role] = await db
    .select()
    .from(roles)
    .where(and(eq(roles.id, roleId), eq(roles.organizationId, organizationId)));
  return role;
}

export async function listRoles(db: Db, organizationId: string) {
  return db
    .select()
    .from(roles)
    .where(eq(roles.organizationId, organizationId))
    .orderBy(asc(roles.name));
}

/** The user with this e-mail address (ignoring case), locked so a concurrent change waits. */
export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = ${email.toLowerCase()}`)
    .for('update');
  return row;
}

export async function findOrganization(db: Db, organizationId: string) {
  const [row] = await db
    .select({ id: organizations.id, name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row;
}

export async function findUserByUsernameOrEmail(db: Db, username: string, email: string) {
  return db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(
      sql`lower(${users.username}) = ${username.toLowerCase()} or lower(${users.email}) = ${email.toLowerCase()}`,
    );
}

/** Every organization with its counts, for the server administration page. */
export async function organizationSummaries(db: Db) {
  const [orgs, members, tagCounts, recordStats] = await Promise.all([
    db.select().from(organizations).orderBy(asc(organizations.name)),
    db
      .select({ organizationId: memberships.organizationId, userId: memberships.userId })
      .from(memberships),
    db
      .select({ organizationId: tags.organizationId, n: count() })
      .from(tags)
      .groupBy(tags.organizationId),
    recordCountsByOrganization(db),
  ]);
  return orgs.map((org) => {
    const stats = recordStats.find((r) => r.organizationId === org.id);
    return {
      org,
      userIds: members.filter((m) => m.organizationId === org.id).map((m) => m.userId),
      numDevices: tagCounts.find((t) => t.organizationId === org.id)?.n ?? 0,
      numRecords: stats?.n ?? 0,
      latestActivity: stats?.latest ?? null,
    };
  });
}
