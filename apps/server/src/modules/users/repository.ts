import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { memberships, organizations, roles, users, type UserRow } from '../../db/schema';
import { tags } from '../../db/schema-shipments';
import { recordCountsByOrganization } from '../records';

/** Database access of user administration. Queries that take an organization scope by it. */

export interface MembershipRow {
  id: string;
  userId: string;
  organizationId: string;
  roleId: string;
  roleName: string;
}

const membershipColumns = {
  id: memberships.id,
  userId: memberships.userId,
  organizationId: memberships.organizationId,
  roleId: roles.id,
  roleName: roles.name,
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
  const rows = await db
    .select(membershipColumns)
    .from(memberships)
    .innerJoin(roles, eq(roles.id, memberships.roleId))
    .where(organizationId === null ? undefined : eq(memberships.organizationId, organizationId));
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
