import { and, asc, eq, gt, inArray, lt, or, sql } from 'drizzle-orm';
import { jsonRow } from '../../../db/json-rows';
import { preparedOnce } from '../../../db/named-query';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../../../db/client';
import {
  loginAttempts,
  memberships,
  organizations,
  roles,
  sessions,
  termsOfService,
  tosAgreements,
  userOrgSettings,
  userSettings,
  users,
  type SessionRow,
  type UserRow,
} from '../../../db/schema';

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
  /**
   * The user has agreed to the active terms of service (the highest active
   * version), or none are published: read with the session so a request makes
   * one round trip for both (docs/decisions/list-performance.md, "Session lookup").
   */
  agreedToActiveTerms: boolean;
}

/** legal/repository.ts `hasAgreedToActiveTerms` as a column of the session lookup. */
const agreedToActiveTerms = sql<boolean>`NOT EXISTS (
  SELECT 1 FROM (SELECT t.id FROM ${termsOfService} t WHERE t.active ORDER BY t.version DESC LIMIT 1) active_terms
  WHERE NOT EXISTS (SELECT 1 FROM ${tosAgreements} a WHERE a.user_id = ${users.id} AND a.tos_id = active_terms.id))`;

const liveSessionSelection = {
  session: sessions,
  user: users,
  permissionNames: roles.permissionNames,
  agreedToActiveTerms,
};

const membershipOfSession = and(
  eq(memberships.userId, sessions.userId),
  eq(memberships.organizationId, sessions.organizationId),
);

/** The session's select (for the JSON-array rows' test: the named statement below joins alike). */
const selectLiveSessions = (db: Db, fields: SelectedFields) =>
  db
    .select(fields)
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(memberships, membershipOfSession)
    .leftJoin(roles, eq(roles.id, memberships.roleId));

/** The session with its user as one JSON array a row (db/json-rows.ts). */
const liveSessionRow = jsonRow<SessionWithUser>(liveSessionSelection, selectLiveSessions as never);

/** A named statement (every signed-in request asks it; list-performance.md, "Session lookup"). */
const liveSession = preparedOnce((db) =>
  db
    .select({ row: liveSessionRow })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .leftJoin(memberships, membershipOfSession)
    .leftJoin(roles, eq(roles.id, memberships.roleId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('session')),
        sql`${sessions.expiresAt} > ${sql.placeholder('now')}::timestamptz`,
      ),
    )
    .limit(1)
    .prepare('live_session'),
);

export async function findLiveSession(
  db: Db,
  sessionId: string,
  now: Date,
): Promise<SessionWithUser | undefined> {
  const rows = await liveSession(db).execute({ session: sessionId, now: now.toISOString() });
  return rows[0]?.row;
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

// ---- password attempt throttling ----------------------------------------------------------

/**
 * What a failure is counted against: a sign-in account (`user:<id>`, or
 * `login:<name>` for an unknown one), a client address, a device cookie's id,
 * and the password reset request limits (per e-mail address and per client address).
 */
export type AttemptKind =
  'account' | 'address' | 'device' | 'reset-account' | 'reset-address' | 'second-factor';

export interface AttemptKey {
  kind: AttemptKind;
  key: string;
}

/** Advisory lock classes: keys are always locked in this order, so two attempts cannot deadlock. */
const LOCK_ORDER: Record<AttemptKind, number> = {
  device: 3,
  account: 1,
  address: 2,
  'reset-account': 4,
  'reset-address': 5,
  'second-factor': 6,
};
const rank = (k: AttemptKey) =>
  ['device', 'account', 'address', 'reset-account', 'reset-address', 'second-factor'].indexOf(
    k.kind,
  );

/** Transaction-scoped advisory locks on the keys (call inside a transaction). */
export async function lockAttemptKeys(tx: Db, keys: readonly AttemptKey[]): Promise<void> {
  for (const k of [...keys].sort((a, b) => rank(a) - rank(b))) {
    await tx.execute(sql`select pg_advisory_xact_lock(${LOCK_ORDER[k.kind]}, hashtext(${k.key}))`);
  }
}

export interface FailureStats {
  count: number;
  oldest: Date | null;
  latest: Date | null;
}

export async function failureStats(tx: Db, k: AttemptKey, since: Date): Promise<FailureStats> {
  const rows = await tx
    .select({
      count: sql<number>`count(*)::int`,
      oldest: sql<Date | null>`min(${loginAttempts.failedAt})`,
      latest: sql<Date | null>`max(${loginAttempts.failedAt})`,
    })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.kind, k.kind),
        eq(loginAttempts.key, k.key),
        gt(loginAttempts.failedAt, since),
      ),
    );
  const row = rows[0];
  return {
    count: row?.count ?? 0,
    oldest: row?.oldest ? new Date(row.oldest) : null,
    latest: row?.latest ? new Date(row.latest) : null,
  };
}

/** Records one attempt per key (a failure until released); answers the rows' ids. */
export async function recordAttempts(
  tx: Db,
  keys: readonly AttemptKey[],
  now: Date,
): Promise<string[]> {
  if (keys.length === 0) return [];
  const rows = await tx
    .insert(loginAttempts)
    .values(keys.map((k) => ({ kind: k.kind, key: k.key, failedAt: now })))
    .returning({ id: loginAttempts.id });
  return rows.map((r) => r.id);
}

/** Housekeeping: attempts older than any limit looks back. */
export async function forgetAttemptsBefore(tx: Db, before: Date): Promise<void> {
  await tx.delete(loginAttempts).where(lt(loginAttempts.failedAt, before));
}

/** Forgets an admitted attempt whose password was right. */
export async function releaseAttempt(db: Db, ids: string[]): Promise<void> {
  if (ids.length > 0) await db.delete(loginAttempts).where(inArray(loginAttempts.id, ids));
}

export async function clearFailures(db: Db, k: AttemptKey): Promise<void> {
  await db
    .delete(loginAttempts)
    .where(and(eq(loginAttempts.kind, k.kind), eq(loginAttempts.key, k.key)));
}

export async function clearAccountFailures(db: Db, accountKey: string): Promise<void> {
  await clearFailures(db, { kind: 'account', key: accountKey });
}
