import { SESSION_COOKIE } from '@coldtrace/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../../../db/client';
import type { PrincipalResolver } from '../../../kernel/context';
import type { Principal } from '../../../kernel/principal';
import { isTokenShaped, sessionIdOf } from './cookies';
import { apiKeyPrincipal } from '../keys';
import { tokenPrincipal } from '../tokens';
import * as repo from './repository';

export type { Principal } from '../../../kernel/principal';

const cache = new WeakMap<FastifyRequest, Promise<Principal | null>>();

/** Resolve (once per request) who makes the request; null for an anonymous one. */
export function resolvePrincipal(request: FastifyRequest): Promise<Principal | null> {
  let found = cache.get(request);
  if (!found) {
    found = resolve(request);
    cache.set(request, found);
  }
  return found;
}

/** `Authorization: Token <token>` (the scheme is case-insensitive, as in HTTP). */
const TOKEN_AUTHORIZATION = /^Token[ \t]+(\S+)[ \t]*$/i;
/** `Authorization: Api-Key <key>` (or the `X-Api-Key` header): an API key of an organization. */
const API_KEY_AUTHORIZATION = /^Api-Key[ \t]+(\S+)[ \t]*$/i;

/** The request names a token or an API key itself (rather than relying on the session cookie). */
export function presentsCredentials(request: FastifyRequest): boolean {
  const authorization = request.headers.authorization;
  if (
    typeof authorization === 'string' &&
    (TOKEN_AUTHORIZATION.test(authorization) || API_KEY_AUTHORIZATION.test(authorization))
  ) {
    return true;
  }
  const apiKeyHeader = request.headers['x-api-key'];
  return typeof apiKeyHeader === 'string' && apiKeyHeader !== '';
}

async function resolve(request: FastifyRequest): Promise<Principal | null> {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = TOKEN_AUTHORIZATION.exec(authorization);
    // Explicit token credentials decide alone: a bad token is no principal (401), never the cookie's.
    if (match) {
      const { db, config } = request.server;
      return tokenPrincipal(db, match[1]!, new Date(), config.tokenTtlDays);
    }
    const key = API_KEY_AUTHORIZATION.exec(authorization);
    if (key) return apiKeyPrincipal(request.server.db, key[1]!, new Date());
  }
  const apiKeyHeader = request.headers['x-api-key'];
  if (typeof apiKeyHeader === 'string' && apiKeyHeader !== '') {
    return apiKeyPrincipal(request.server.db, apiKeyHeader.trim(), new Date());
  }
  const token = request.cookies[SESSION_COOKIE];
  if (!isTokenShaped(token)) return null;
  return sessionPrincipal(request.server.db, sessionIdOf(token), new Date());
}

/** Write last_seen_at at most this often per session (one write per request would be waste). */
const TOUCH_EVERY_MS = 60_000;

export async function sessionPrincipal(
  db: Database,
  sessionId: string,
  now: Date,
): Promise<Principal | null> {
  const found = await repo.findLiveSession(db, sessionId, now);
  // A locked user is signed out everywhere (the spec treats a locked user as logged out).
  if (!found || found.user.isLocked) return null;
  const { session, user } = found;
  let organizationId = session.organizationId;
  let permissions = found.permissionNames;

  if (organizationId === null || permissions === null) {
    // No organization yet, or removed from it since: fall back to another membership.
    const memberships = await repo.listMemberships(db, user.id);
    const chosen = chooseSessionOrganization(memberships, user.lastSessionOrgId);
    organizationId = chosen?.organizationId ?? null;
    permissions = chosen?.permissionNames ?? [];
    if (organizationId !== session.organizationId) {
      await repo.setSessionOrganization(db, sessionId, user.id, organizationId);
    }
  }
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await repo.touchSession(db, sessionId, now);
  }
  return {
    kind: 'session',
    user,
    organizationId,
    permissions: [...new Set(permissions)],
    sessionId,
    agreedToActiveTerms: found.agreedToActiveTerms,
  };
}

/** The session organization: the last one used if still a member, else the first membership. */
export function chooseSessionOrganization(
  memberships: readonly repo.MembershipView[],
  lastSessionOrgId: string | null,
): repo.MembershipView | undefined {
  return memberships.find((m) => m.organizationId === lastSessionOrgId) ?? memberships[0];
}

/**
 * The auth module's part of every call: `app.principals`, which `registerCall`
 * asks who is calling (session cookie, user token or API key).
 */
export const principalResolver = fp(
  async (app: FastifyInstance) => {
    const resolver: PrincipalResolver = { resolve: resolvePrincipal, presentsCredentials };
    app.decorate('principals', resolver);
  },
  { name: 'principal-resolver', fastify: '5.x' },
);
