import {
  DEFAULT_TOKEN_EXPIRY_DAYS,
  type TSessionToken,
  type TTokenCreate,
} from '@coldtrace/contract';
import type { Db } from '../../db/client';
import { AppError } from '../../http/errors';
import { isTokenShaped, newToken, sessionIdOf } from '../auth/cookies';
import type { Principal } from '../auth/principal';
import * as repo from './repository';

/**
 * User tokens (`Authorization: Token <token>`): 32 random bytes (base64url),
 * shown once at issue; the table keeps only their SHA-256. A token acts as its
 * user in the organization it was issued in, with the user's role there now
 * (a role change applies at once; leaving the organization, locking the user
 * or expiry ends it).
 */

const DAY_MS = 86_400_000;
/** Write last_used_at at most this often per token. */
const TOUCH_EVERY_MS = 60_000;

export async function issueToken(
  db: Db,
  principal: Principal,
  body: TTokenCreate | null | undefined,
  now = new Date(),
): Promise<TSessionToken> {
  if (principal.kind !== 'session') {
    throw new AppError(
      'FORBIDDEN',
      'Tokens are issued from a signed-in session, not with another token or key.',
    );
  }
  if (principal.organizationId === null) {
    throw new AppError('FORBIDDEN', 'You belong to no organization to issue a token for.');
  }
  const token = newToken();
  const expiry = new Date(
    now.getTime() + (body?.expiry_days ?? DEFAULT_TOKEN_EXPIRY_DAYS) * DAY_MS,
  );
  const row = await repo.insertToken(db, {
    id: sessionIdOf(token),
    organizationId: principal.organizationId,
    userId: principal.user.id,
    name: body?.name ?? '',
    created: now,
    expiry,
  });
  return { token, created: row.created.toISOString(), expiry: expiry.toISOString() };
}

/** The principal of `Authorization: Token <token>`; null for an unknown, expired or revoked token. */
export async function tokenPrincipal(db: Db, token: string, now: Date): Promise<Principal | null> {
  if (!isTokenShaped(token)) return null;
  const tokenId = sessionIdOf(token);
  const found = await repo.findLiveToken(db, tokenId, now);
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
