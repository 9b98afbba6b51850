import { and, asc, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  loginAttempts,
  memberships,
  organizations,
  roles,
  sessions,
  userOrgSettings,
  userSettings,
  users,
  type SessionRow,
  type UserRow,
} from '../../db/schema';

/** Database access of the auth module. Every query that takes an organization id scopes by it. */

export async function findUserByLogin(db: Db, login: string): Promise<UserRow | undefined> {
  const needle = login.trim().toLowerCase();
  const rows = await db
    .select()
    .from(users)
    .where(or(sql`lower(${users.username}) = ${needle}`, sql`lower(${users.email}) = ${needle}`))
    // A username that equals another user's e-mail: the username wins.
    .orderBy(sql`lower(${users.username}) = ${needle} desc`)
    .limit(1);
  return rows[0];
}

export interface MembershipView {
  id: string;
  organizationId: string;
  organizationName: string;
  roleId: string;
  roleName: string;
  permissionNames: string[];
}

/** The user's memberships with organization and role, ordered by organization name. */
export async function listMemberships(db: Db, userId: string): Promise<MembershipView[]> {
  return db
    .select({
      id: memberships.id,
      organizationId: organizations.id,
      organizationName: organizations.name,
      roleId: roles.id,
      roleName: roles.name,
      permissionNames: roles.permissionNames,
    })
    .from(memberships)
    .innerJoin(organizations, eq(organizations.id, memberships.organizationId))
    .innerJoin(roles, eq(roles.id, memberships.roleId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(organizations.name), asc(organizations.id));
}

/** Permission names the user holds in one organization (empty when not a member). */
export async function permissionsIn(
  db: Db,
  userId: string,
  organizationId: string,
): Promise<string[] | undefined> {
  const rows = await db
    .select({ permissionNames: roles.permissionNames })
    .from(memberships)
    .innerJoin(roles, eq(roles.id, memberships.roleId))
    .where(and(eq(memberships.userId, userId), eq(memberships.organizationId, organizationId)));
  if (rows.length === 0) return undefined;
  return [...new Set(rows.flatMap((r) => r.permissionNames))];
}

export interface SessionWithUser {
  session: SessionRow;
  user: UserRow;
  /** The role's permissions in the session organization; null when not (or no longer) a member. */
  permissionNames: string[] | null;
}

export async function findLiveSession(
  db: Db,
  sessionId: string,
  now: Date,
): Promise<SessionWithUser | undefined> {
  const rows = await db
    .select({ session: sessions, user: users, permissionNames: roles.permissionNames })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(
      memberships,
      and(
        eq(memberships.userId, sessions.userId),
        eq(memberships.organizationId, sessions.organizationId),
      ),
    )
    .leftJoin(roles, eq(roles.id, memberships.roleId))
    .where(and(eq(sessions.id, sessionId), gt(sessions.expiresAt, now)))
    .limit(1);
  return rows[0];
}

export async function insertSession(db: Db, row: typeof sessions.$inferInsert): Promise<void> {
  await db.insert(sessions).values(row);
}

export async function deleteSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

export async function deleteExpiredSessions(db: Db, userId: string, now: Date): Promise<void> {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lt(sessions.expiresAt, now)));
}

export async function touchSession(db: Db, sessionId: string, now: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId));
}

export async function setSessionOrganization(
  db: Db,
  sessionId: string,
  userId: string,
  organizationId: string | null,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(sessions).set({ organizationId }).where(eq(sessions.id, sessionId));
    if (organizationId !== null) {
      await tx.update(users).set({ lastSessionOrgId: organizationId }).where(eq(users.id, userId));
    }
  });
}

export async function setLastSessionOrg(
  db: Db,
  userId: string,
  organizationId: string,
): Promise<void> {
  await db.update(users).set({ lastSessionOrgId: organizationId }).where(eq(users.id, userId));
}

export async function getUserSettings(
  db: Db,
  userId: string,
): Promise<{ degreesUnit: 'C' | 'F'; timezone: string }> {
  const rows = await db
    .select({ degreesUnit: userSettings.degreesUnit, timezone: userSettings.timezone })
    .from(userSettings)
    .where(eq(userSettings.userId, userId));
  return rows[0] ?? { degreesUnit: 'C', timezone: 'UTC' };
}

export async function updateUserSettings(
  db: Db,
  userId: string,
  patch: { degreesUnit?: 'C' | 'F'; timezone?: string },
): Promise<{ degreesUnit: 'C' | 'F'; timezone: string }> {
  const rows = await db
    .insert(userSettings)
    .values({ userId, ...patch })
    .onConflictDoUpdate({ target: userSettings.userId, set: patch })
    .returning({ degreesUnit: userSettings.degreesUnit, timezone: userSettings.timezone });
  return rows[0]!;
}

/** The organization-level flags of the user, limited to organizations the user belongs to. */
export async function getOrgSettings(
  db: Db,
  userId: string,
): Promise<{ organizationId: string; myScans: boolean; anyScans: boolean }[]> {
  return db
    .select({
      organizationId: userOrgSettings.organizationId,
      myScans: userOrgSettings.alarmNotifyMyScans,
      anyScans: userOrgSettings.alarmNotifyAnyScans,
    })
    .from(userOrgSettings)
    .innerJoin(
      memberships,
      and(
        eq(memberships.userId, userOrgSettings.userId),
        eq(memberships.organizationId, userOrgSettings.organizationId),
      ),
    )
    .where(eq(userOrgSettings.userId, userId))
    .orderBy(asc(userOrgSettings.organizationId));
}

export async function upsertOrgSettings(
  db: Db,
  userId: string,
  organizationId: string,
  flags: { myScans: boolean; anyScans: boolean },
): Promise<void> {
  const set = { alarmNotifyMyScans: flags.myScans, alarmNotifyAnyScans: flags.anyScans };
  await db
    .insert(userOrgSettings)
    .values({ userId, organizationId, ...set })
    .onConflictDoUpdate({ target: [userOrgSettings.userId, userOrgSettings.organizationId], set });
}

// ---- login throttling -----------------------------------------------------------------------

export interface FailureCounts {
  account: { count: number; oldest: Date | null };
  address: { count: number; oldest: Date | null };
}

export async function countRecentFailures(
  db: Db,
  keys: { account: string; address: string },
  since: Date,
): Promise<FailureCounts> {
  const rows = await db
    .select({
      kind: loginAttempts.kind,
      count: sql<number>`count(*)::int`,
      oldest: sql<Date | null>`min(${loginAttempts.failedAt})`,
    })
    .from(loginAttempts)
    .where(
      and(
        gt(loginAttempts.failedAt, since),
        or(
          and(eq(loginAttempts.kind, 'account'), eq(loginAttempts.key, keys.account)),
          and(eq(loginAttempts.kind, 'address'), eq(loginAttempts.key, keys.address)),
        ),
      ),
    )
    .groupBy(loginAttempts.kind);
  const pick = (kind: 'account' | 'address') => {
    const row = rows.find((r) => r.kind === kind);
    return { count: row?.count ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
  };
  return { account: pick('account'), address: pick('address') };
}

export type AttemptReservation =
  { throttled: true; oldest: Date | null } | { throttled: false; ids: string[] };

/**
 * Admits a password check, or refuses it when the account or the client
 * address has reached its failure limit. An admitted attempt is recorded as
 * a failure before the password is checked, under transaction-scoped
 * advisory locks on the account and the address (always in that order, in
 * two key spaces, so two attempts cannot deadlock): attempts sent in
 * parallel cannot all pass the count. A right password releases the
 * reservation (`releaseAttempt`); a wrong one leaves it as the failure.
 */
export async function reserveAttempt(
  db: Db,
  keys: { account: string; address: string },
  now: Date,
  forgetBefore: Date,
  limits: { account: number; address: number },
): Promise<AttemptReservation> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(1, hashtext(${keys.account}))`);
    await tx.execute(sql`select pg_advisory_xact_lock(2, hashtext(${keys.address}))`);
    const failures = await countRecentFailures(tx, keys, forgetBefore);
    if (failures.account.count >= limits.account) {
      return { throttled: true, oldest: failures.account.oldest };
    }
    if (failures.address.count >= limits.address) {
      return { throttled: true, oldest: failures.address.oldest };
    }
    const rows = await tx
      .insert(loginAttempts)
      .values([
        { kind: 'account', key: keys.account, failedAt: now },
        { kind: 'address', key: keys.address, failedAt: now },
      ])
      .returning({ id: loginAttempts.id });
    // Keep the table small: failures older than the window no longer count.
    await tx.delete(loginAttempts).where(lt(loginAttempts.failedAt, forgetBefore));
    return { throttled: false, ids: rows.map((r) => r.id) };
  });
}

/** Forgets an admitted attempt whose password was right. */
export async function releaseAttempt(db: Db, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.delete(loginAttempts).where(inArray(loginAttempts.id, ids));
}

export async function clearAccountFailures(db: Db, accountKey: string): Promise<void> {
  await db
    .delete(loginAttempts)
    .where(and(eq(loginAttempts.kind, 'account'), eq(loginAttempts.key, accountKey)));
}
