import { z } from 'zod';
import { defineCall } from '../call';
import { ZSessionToken } from '../entities/user';

/**
 * User tokens (`Authorization: Token <token>`): what the phone app and the
 * rt / nanotag gateways authenticate with (spec section 6). A token acts as
 * its user in the organization it was issued in, with that user's role there.
 * Full API-key management comes later (`/api/keys/...`).
 */

/** Longest lifetime a token may be issued for. */
export const MAX_TOKEN_EXPIRY_DAYS = 3650;
/** Lifetime of a token issued without `expiry_days`. */
export const DEFAULT_TOKEN_EXPIRY_DAYS = 365;

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
  body: ZTokenCreate.nullish(),
  reply: ZIssuedToken,
});

export const tokenCalls = [authTokenCreate] as const;
