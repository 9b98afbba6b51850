import type { UserRow } from '../db/schema';
import { AppError } from './errors';

/** How a caller authenticated: the session cookie, a user token, or an organization's API key. */
export type PrincipalKind = 'session' | 'token' | 'api-key';

/**
 * Who makes a request: a session (cookie) or a user token
 * (`Authorization: Token ...`, kind `token`: the token's user and
 * organization, with the user's role there), or an API key
 * (`Authorization: Api-Key ...` or `X-Api-Key`, kind `api-key`: the key's
 * organization and permissions; `modules/identity/keys`). Tokens and
 * keys skip the CSRF check because a browser never attaches them by itself.
 * The auth module finds it (`modules/identity/auth/principal.ts`); everything else reads it.
 */
export interface Principal {
  kind: PrincipalKind;
  user: UserRow;
  /** The organization the request works in (the session organization); null when the user has none. */
  organizationId: string | null;
  /** Permission names held in that organization. */
  permissions: readonly string[];
  /** The session row id (sha256 of the cookie token) for kind `session`. */
  sessionId: string | null;
  /** The key's prefix for kind `api-key`. */
  apiKeyPrefix?: string;
  /** A read-only API key: only the calls the contract marks `apiKey: 'read'`. */
  apiKeyReadOnly?: boolean;
  /**
   * Kind `session`: whether the user had agreed to the active terms when the
   * session was looked up for this request (read in the same query; the terms
   * gate asks the database itself when absent).
   */
  agreedToActiveTerms?: boolean;
}

export const NO_ORGANIZATION_MESSAGE = 'You are not a member of any organization.';

/**
 * The organization the principal works in: every organization-scoped call
 * starts here, and this is the only place that says what a caller who belongs
 * to no organization gets: 403 `FORBIDDEN` (what most calls answered before
 * issue 12; two answered 400).
 */
export function organizationOf(principal: Pick<Principal, 'organizationId'>): string {
  if (principal.organizationId === null) {
    throw new AppError('FORBIDDEN', NO_ORGANIZATION_MESSAGE);
  }
  return principal.organizationId;
}
