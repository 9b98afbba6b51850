import type { TSessionToken, TTokenCreate, TTokenInfo } from '@coldtrace/contract';
import type { RuntimeConfig } from '../../../config';
import type { Db } from '../../../db/client';
import { AppError, invalidField, notFound } from '../../../kernel/errors';
import { isTokenShaped, newToken, sessionIdOf } from '../auth/cookies';
import type { Principal } from '../../../kernel/principal';
import * as repo from './repository';

/**
 * User tokens (`Authorization: Token <token>`): 32 random bytes (base64url),
 * shown once at issue; the table keeps only their SHA-256. A token acts as its
 * user in the organization it was issued in, with the user's role there now
 * (a role change applies at once; leaving the organization or expiry ends it;
 * a password change, a password reset or a lock revokes it, see
 * `revokeUserCredentials`). Lifetime: `expiry_days`, else TOKEN_TTL_DAYS, at
 * most TOKEN_MAX_TTL_DAYS.
 */

const DAY_MS = 86_400_000;
/** Write last_used_at at most this often per token. */
const TOUCH_EVERY_MS = 60_000;

type TokenTtl = RuntimeConfig['tokenTtlDays'];

/** The first 16 hex digits of the token's SHA-256: how a listed token is named. */
const ID_LENGTH = 16;
const LISTED_ID = /^[0-9a-f]{16}$/;

export async function issueToken(
  db: Db,
  organizationId: string,
  principal: Principal,
  body: TTokenCreate | null | undefined,
  ttl: TokenTtl,
  now = new Date(),
): Promise<TSessionToken> {
  if (principal.kind !== 'session') {
    throw new AppError(
      'FORBIDDEN',
      'Tokens are issued from a signed-in session, not with another token or key.',
    );
  }
  const days = body?.expiry_days ?? ttl.default;
  if (days > ttl.max) {
    throw invalidField('expiry_days', `A token may last at most ${ttl.max} days.`);
  }
  const token = newToken();
  const expiry = new Date(now.getTime() + days * DAY_MS);
  const row = await repo.insertToken(db, {
    id: sessionIdOf(token),
    organizationId,
    userId: principal.user.id,
    name: body?.name ?? '',
    created: now,
    expiry,
  });
  return { token, created: row.created.toISOString(), expiry: expiry.toISOString() };
}

/** The principal of `Authorization: Token <token>`; null for an unknown, expired or revoked token. */
export async function tokenPrincipal(
  db: Db,
  token: string,
  now: Date,
  ttl: TokenTtl,
): Promise<Principal | null> {
  if (!isTokenShaped(token)) return null;
  const tokenId = sessionIdOf(token);
  const found = await repo.findLiveToken(db, tokenId, now, ttl.max);
  // A locked user, or one no longer in the token's organization, is signed out.
  if (!found || found.user.isLocked || found.permissionNames === null) return null;
  const lastUsed = found.token.lastUsedAt?.getTime() ?? 0;
  if (now.getTime() - lastUsed > TOUCH_EVERY_MS) await repo.touchToken(db, tokenId, now);
  return {
    kind: 'token',
    user: found.user,
    organizationId: found.token.organizationId,
    permissions: [...new Set(found.permissionNames)],
    sessionId: null,
  };
}

/** The caller's own live tokens (any organization), never the token itself. */
export async function listTokens(
  db: Db,
  principal: Principal,
  ttl: TokenTtl,
  now = new Date(),
): Promise<TTokenInfo[]> {
  const rows = await repo.listUserTokens(db, principal.user.id, now, ttl.max);
  return rows.map((r) => ({
    id: r.id.slice(0, ID_LENGTH),
    name: r.name,
    organization: { id: r.organizationId, name: r.organizationName },
    created: r.created.toISOString(),
    expiry: r.expiry.toISOString(),
    last_used: r.lastUsedAt?.toISOString() ?? null,
  }));
}

/** Revokes one of the caller's own tokens; another user's id, or an unknown one, answers 404. */
export async function revokeToken(db: Db, principal: Principal, id: string): Promise<void> {
  const prefix = id.trim().toLowerCase();
  if (
    !LISTED_ID.test(prefix) ||
    (await repo.deleteUserToken(db, principal.user.id, prefix)) === 0
  ) {
    throw notFound('Token');
  }
}

/**
 * The user's credentials die: every token and every session, except the
 * session making the change when `keepSessionId` is given (a password change
 * keeps its own browser signed in). Called on password change, reset and lock.
 */
export async function revokeUserCredentials(
  db: Db,
  userId: string,
  keepSessionId?: string | null,
): Promise<void> {
  await repo.deleteUserTokens(db, userId);
  await repo.deleteUserSessions(db, userId, keepSessionId);
}

/** Signs the caller out on every other browser (their tokens stay). */
export async function endOtherSessions(db: Db, principal: Principal): Promise<void> {
  if (principal.sessionId === null) {
    throw new AppError('FORBIDDEN', 'Only a signed-in session can end the other sessions.');
  }
  await repo.deleteUserSessions(db, principal.user.id, principal.sessionId);
}
