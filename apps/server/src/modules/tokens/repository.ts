import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { memberships, roles, users, type UserRow } from '../../db/schema';
import { userTokens, type UserTokenRow } from '../../db/schema-shipments';

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

/** The token with this id (sha256 hex) if it has not expired, with its user and role permissions. */
export async function findLiveToken(
  db: Db,
  tokenId: string,
  now: Date,
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
    .where(
      and(eq(userTokens.id, tokenId), or(isNull(userTokens.expiry), gt(userTokens.expiry, now))),
    )
    .limit(1);
  return rows[0];
}

export async function touchToken(db: Db, tokenId: string, now: Date): Promise<void> {
  await db.update(userTokens).set({ lastUsedAt: now }).where(eq(userTokens.id, tokenId));
}
