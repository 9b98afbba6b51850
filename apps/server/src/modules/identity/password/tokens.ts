import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, lte } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { passwordTokens } from '../../../db/schema-mail';

/**
 * One-time password tokens (reset and welcome links). The link carries 256
 * random bits; only their sha256 is stored, so a database leak yields no
 * usable link. A token dies when used, when its user's password changes, when
 * the user signs in, and when it expires (PASSWORD_RESET_TTL_HOURS).
 */

export type TokenPurpose = 'reset' | 'welcome';

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Issues a token for the user; answers the raw token (only ever put in the e-mail link). */
export async function issueToken(
  db: Db,
  userId: string,
  purpose: TokenPurpose,
  ttlHours: number,
  now: Date = new Date(),
): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await db.insert(passwordTokens).values({
    userId,
    tokenHash: hashToken(token),
    purpose,
    created: now,
    expiresAt: new Date(now.getTime() + ttlHours * 3_600_000),
  });
  return token;
}

/**
 * Consumes the token: deletes it and answers its purpose when it belongs to
 * `userId` and has not expired. A token of the wrong shape, unknown, expired
 * or of another user answers undefined (and an expired one is removed).
 */
export async function consumeToken(
  db: Db,
  userId: string,
  token: string,
  now: Date = new Date(),
): Promise<TokenPurpose | undefined> {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const deleted = await db
    .delete(passwordTokens)
    .where(and(eq(passwordTokens.tokenHash, hashToken(token)), eq(passwordTokens.userId, userId)))
    .returning();
  const row = deleted[0];
  if (!row || row.expiresAt.getTime() <= now.getTime()) return undefined;
  return row.purpose;
}

/** Is the token currently valid for the user (without consuming it)? */
export async function tokenIsValid(
  db: Db,
  userId: string,
  token: string,
  now: Date = new Date(),
): Promise<boolean> {
  if (!TOKEN_SHAPE.test(token)) return false;
  const rows = await db
    .select({ id: passwordTokens.id })
    .from(passwordTokens)
    .where(
      and(
        eq(passwordTokens.tokenHash, hashToken(token)),
        eq(passwordTokens.userId, userId),
        gt(passwordTokens.expiresAt, now),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** Every outstanding token of the user dies (password changed, signed in, reset used). */
export async function revokeUserTokens(db: Db, userId: string): Promise<void> {
  await db.delete(passwordTokens).where(eq(passwordTokens.userId, userId));
}

/**
 * Housekeeping (the daily `tokens.purge-expired` job): expired tokens go; a
 * used one is already gone (`consumeToken`). Answers how many went.
 */
export async function deleteExpiredTokens(db: Db, now: Date = new Date()): Promise<number> {
  const rows = await db
    .delete(passwordTokens)
    .where(lte(passwordTokens.expiresAt, now))
    .returning({ id: passwordTokens.id });
  return rows.length;
}
