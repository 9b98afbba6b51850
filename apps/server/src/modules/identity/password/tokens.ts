import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, lte } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { passwordTokens } from '../../../db/schema-mail';
import { scrubSecretLinks, storedSecretLinks } from '../../mail';
import { PASSWORD_LINK_ROUTES } from './links';

/**
 * One-time password tokens (reset and welcome links). The link carries 256
 * random bits; only their sha256 is stored, so a database leak yields no
 * usable link. A token dies when used, when its user's password changes, when
 * the user signs in, and when it expires (PASSWORD_RESET_TTL_HOURS). The copy of
 * its mail kept in `mail_outbox` loses the link as the token dies (in the same
 * transaction; the expired ones in the daily purge), so without SMTP_URL, where
 * mail is only logged and kept, no stored link outlives its token.
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
 * or of another user answers undefined (and an expired one is removed). The
 * stored mail that carried it loses the link.
 */
export async function consumeToken(
  db: Db,
  userId: string,
  token: string,
  now: Date = new Date(),
): Promise<TokenPurpose | undefined> {
  if (!TOKEN_SHAPE.test(token)) return undefined;
  const row = await db.transaction(async (tx) => {
    const [deleted] = await tx
      .delete(passwordTokens)
      .where(and(eq(passwordTokens.tokenHash, hashToken(token)), eq(passwordTokens.userId, userId)))
      .returning();
    if (deleted) {
      await scrubSecretLinks(tx, {
        routes: PASSWORD_LINK_ROUTES,
        id: userId,
        token,
        issuedAt: deleted.created,
      });
    }
    return deleted;
  });
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

/**
 * Every outstanding token of the user dies (password changed, signed in, reset
 * used, a newer link issued), and with them every password link of the user in
 * the stored mail.
 */
export async function revokeUserTokens(db: Db, userId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const gone = await tx
      .delete(passwordTokens)
      .where(eq(passwordTokens.userId, userId))
      .returning({ created: passwordTokens.created });
    if (gone.length > 0) {
      const issuedAt = new Date(Math.min(...gone.map((t) => t.created.getTime())));
      await scrubSecretLinks(tx, { routes: PASSWORD_LINK_ROUTES, id: userId, issuedAt });
    }
  });
}

/**
 * Stored mail still holding a password link whose token is no longer live
 * (expired, or gone before its mail's copy was cleared): that link is cleared.
 * Answers how many links were.
 */
async function scrubDeadLinks(db: Db, now: Date): Promise<number> {
  const links = await storedSecretLinks(db, { routes: PASSWORD_LINK_ROUTES });
  if (links.length === 0) return 0;
  const live = await db
    .select({ userId: passwordTokens.userId, tokenHash: passwordTokens.tokenHash })
    .from(passwordTokens)
    .where(
      and(
        inArray(
          passwordTokens.tokenHash,
          links.map((link) => hashToken(link.token)),
        ),
        gt(passwordTokens.expiresAt, now),
      ),
    );
  const liveKeys = new Set(live.map((row) => `${row.userId}/${row.tokenHash}`));
  let scrubbed = 0;
  for (const link of links) {
    if (liveKeys.has(`${link.id}/${hashToken(link.token)}`)) continue;
    const { outboxId, route, id, token } = link;
    scrubbed += await scrubSecretLinks(db, { outboxId, routes: [route], id, token });
  }
  return scrubbed;
}

/**
 * Housekeeping (the daily `tokens.purge-expired` job): expired tokens go (a
 * used one is already gone, `consumeToken`), and the stored mail keeps no link
 * whose token is not live. Answers how many tokens went and how many stored
 * links were cleared.
 */
export async function deleteExpiredTokens(
  db: Db,
  now: Date = new Date(),
): Promise<{ tokens: number; storedLinks: number }> {
  return db.transaction(async (tx) => {
    const rows = await tx
      .delete(passwordTokens)
      .where(lte(passwordTokens.expiresAt, now))
      .returning({ id: passwordTokens.id });
    return { tokens: rows.length, storedLinks: await scrubDeadLinks(tx, now) };
  });
}
