import { and, desc, eq, gt, like, lte, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import {
  memberships,
  organizations,
  roles,
  sessions,
  users,
  type UserRow,
} from '../../../db/schema';
import { userTokens, type UserTokenRow } from '../../../db/schema-access';

/** Database access of user tokens. Only the SHA-256 (hex) of a token is ever stored or looked up. */

export async function insertToken(
  db: Db,
  row: typeof userTokens.$inferInsert,
): Promise<UserTokenRow> {
  const [inserted] = await db.insert(userTokens).values(row).returning();
  return inserted!;
}

export interface LiveToken {
  token: UserTokenRow;
  user: UserRow;
  /** The role's permissions in the token's organization; null when the user is no longer a member. */
  permissionNames: string[] | null;
}

/**
 * When a token stops working: its expiry, or for a token issued without one
 * (before tokens always had one) its creation plus the longest lifetime.
 */
const expiresAt = (maxDays: number) =>
  sql`coalesce(${userTokens.expiry}, ${userTokens.created} + make_interval(days => ${maxDays}::int))`;

/** The token with this id (sha256 hex) if it has not expired, with its user and role permissions. */
export async function findLiveToken(
  db: Db,
  tokenId: string,
  now: Date,
  maxDays: number,
): Promise<LiveToken | undefined> {
  const rows = await db
    .select({ token: userTokens, user: users, permissionNames: roles.permissionNames })
    .from(userTokens)
    .innerJoin(users, eq(users.id, userTokens.userId))
    .leftJoin(
      memberships,
      and(
        eq(memberships.userId, userTokens.userId),
        eq(memberships.organizationId, userTokens.organizationId),
      ),
    )
    .leftJoin(roles, eq(roles.id, memberships.roleId))
    .where(and(eq(userTokens.id, tokenId), gt(expiresAt(maxDays), now)))
    .limit(1);
  return rows[0];
}

/** The user's live tokens with their organization, newest first. */
export async function listUserTokens(db: Db, userId: string, now: Date, maxDays: number) {
  return db
    .select({
      id: userTokens.id,
      name: userTokens.name,
      created: userTokens.created,
      expiry: sql<Date>`${expiresAt(maxDays)}`.mapWith(userTokens.expiry),
      lastUsedAt: userTokens.lastUsedAt,
      organizationId: organizations.id,
      organizationName: organizations.name,
    })
    .from(userTokens)
    .innerJoin(organizations, eq(organizations.id, userTokens.organizationId))
    .where(and(eq(userTokens.userId, userId), gt(expiresAt(maxDays), now)))
    .orderBy(desc(userTokens.created), userTokens.id);
}

/** Deletes the user's token whose id starts with `idPrefix` (hex); answers how many went. */
export async function deleteUserToken(db: Db, userId: string, idPrefix: string): Promise<number> {
  const rows = await db
    .delete(userTokens)
    .where(and(eq(userTokens.userId, userId), like(userTokens.id, `${idPrefix}%`)))
    .returning({ id: userTokens.id });
  return rows.length;
}

/** Every token of the user dies. */
export async function deleteUserTokens(db: Db, userId: string): Promise<void> {
  await db.delete(userTokens).where(eq(userTokens.userId, userId));
}

/** Every session of the user ends, except `keep` (the session making the change) when given. */
export async function deleteUserSessions(
  db: Db,
  userId: string,
  keep?: string | null,
): Promise<void> {
  await db
    .delete(sessions)
    .where(
      keep
        ? and(eq(sessions.userId, userId), sql`${sessions.id} <> ${keep}`)
        : eq(sessions.userId, userId),
    );
}

/**
 * Housekeeping (the daily `tokens.purge-expired` job): tokens that no longer
 * work (past their expiry, or for one without expiry its creation plus the
 * longest lifetime) are deleted. Answers how many went.
 */
export async function deleteExpiredTokens(db: Db, now: Date, maxDays: number): Promise<number> {
  const rows = await db
    .delete(userTokens)
    .where(lte(expiresAt(maxDays), now))
    .returning({ id: userTokens.id });
  return rows.length;
}

export async function touchToken(db: Db, tokenId: string, now: Date): Promise<void> {
  await db.update(userTokens).set({ lastUsedAt: now }).where(eq(userTokens.id, tokenId));
}
