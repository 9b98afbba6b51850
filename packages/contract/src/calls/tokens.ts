import { z } from 'zod';
import { defineCall } from '../call';
import { ZOrg } from '../entities/org';
import { ZSessionToken } from '../entities/user';

/**
 * User tokens (`Authorization: Token <token>`): what the phone app and the
 * rt / nanotag gateways authenticate with (spec section 6). A token acts as
 * its user in the organization it was issued in, with that user's role there.
 * A token dies at its expiry, when revoked, and with its user's credentials:
 * a password change, a password reset and a lock revoke every token of the user.
 *
 * Listing and revoking one's tokens, and ending one's other sessions, are
 * additions to the spec (issue 10).
 */

/**
 * Longest lifetime the schema accepts; the server's TOKEN_MAX_TTL_DAYS (default
 * 365) may refuse less. Without `expiry_days` a token lasts TOKEN_TTL_DAYS (default 30).
 */
export const MAX_TOKEN_EXPIRY_DAYS = 3650;

export const ZTokenCreate = z
  .object({
    /** A label to recognise the token by (e.g. the gateway it is installed on). */
    name: z.string().trim().max(100).optional(),
    expiry_days: z.number().int().min(1).max(MAX_TOKEN_EXPIRY_DAYS).optional(),
  })
  .meta({ id: 'TokenCreate' });
export type TTokenCreate = z.infer<typeof ZTokenCreate>;

export const ZIssuedToken = ZSessionToken.meta({ id: 'SessionToken' });

export const authTokenCreate = defineCall({
  operationId: 'authTokenCreate',
  method: 'POST',
  path: '/api/auth/tokens/',
  summary:
    'Issue a user token for the session organization (shown once; only its SHA-256 is stored)',
  description:
    'Only from a signed-in browser session (a token cannot issue another token: 403). ' +
    'The token authenticates as `Authorization: Token <token>` until `expiry`, with the ' +
    "permissions of the user's role in the organization it was issued in.",
  tag: 'auth',
  auth: 'session',
  scope: 'organization',
  body: ZTokenCreate.nullish(),
  reply: ZIssuedToken,
});

/** One of the caller's tokens, as listed: never the token itself. */
export const ZTokenInfo = z
  .object({
    /** The first 16 hex digits of the token's SHA-256: what revoking names. */
    id: z.string(),
    name: z.string(),
    organization: ZOrg,
    created: z.string(),
    expiry: z.string(),
    /** null when never used. */
    last_used: z.string().nullable(),
  })
  .meta({ id: 'TokenInfo' });
export type TTokenInfo = z.infer<typeof ZTokenInfo>;

export const authTokenList = defineCall({
  operationId: 'authTokenList',
  method: 'GET',
  path: '/api/auth/tokens/',
  summary: "The caller's own live tokens, newest first (never the token itself)",
  description: 'An addition to the spec (issue 10).',
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  reply: z.array(ZTokenInfo),
});

export const ZTokenRevoke = z.object({ id: z.string().trim().min(1).max(64) });
export type TTokenRevoke = z.infer<typeof ZTokenRevoke>;

export const authTokenRevoke = defineCall({
  operationId: 'authTokenRevoke',
  method: 'POST',
  path: '/api/auth/tokens/revoke/',
  summary: "Revoke one of the caller's own tokens by its id (204); it stops working at once",
  description:
    "An addition to the spec (issue 10). Another user's token id, or an unknown one, answers 404.",
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  body: ZTokenRevoke,
  reply: null,
});

export const authSessionsRevokeOthers = defineCall({
  operationId: 'authSessionsRevokeOthers',
  method: 'POST',
  path: '/api/auth/sessions/revoke-others/',
  summary: 'End every session of the caller except this one (204); tokens stay',
  description: 'An addition to the spec (issue 10): sign out on every other browser.',
  tag: 'auth',
  auth: 'session',
  scope: 'account',
  reply: null,
});

export const tokenCalls = [
  authTokenCreate,
  authTokenList,
  authTokenRevoke,
  authSessionsRevokeOthers,
] as const;
