import { SESSION_COOKIE } from '@coldtrace/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../../../db/client';
import type { PrincipalResolver } from '../../../kernel/context';
import type { Principal } from '../../../kernel/principal';
import { isTokenShaped, sessionIdOf } from './cookies';
import { poolOf } from '../../../jobs/queue';
import { createPrincipalCache, listeningClientOf, type PrincipalCache } from './principal-cache';
import { apiKeyPrincipal } from '../keys/service';
import { tokenPrincipal } from '../tokens/service';
import * as repo from './repository';

export type { Principal } from '../../../kernel/principal';

const perRequest = new WeakMap<FastifyRequest, Promise<Principal | null>>();
/** The app's principal cache (when PRINCIPAL_CACHE_SECONDS > 0), by its database. */
const cacheOfApp = new WeakMap<Database, PrincipalCache>();

/** The app's principal cache, if it has one (tests). */
export const principalCacheOf = (db: Database): PrincipalCache | undefined => cacheOfApp.get(db);

/** Resolve (once per request) who makes the request; null for an anonymous one. */
export function resolvePrincipal(request: FastifyRequest): Promise<Principal | null> {
  let found = perRequest.get(request);
  if (!found) {
    found = resolve(request);
    perRequest.set(request, found);
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
  const { db } = request.server;
  return sessionPrincipal(db, sessionIdOf(token), new Date(), cacheOfApp.get(db));
}

/** Write last_seen_at at most this often per session (one write per request would be waste). */
const TOUCH_EVERY_MS = 60_000;

export async function sessionPrincipal(
  db: Database,
  sessionId: string,
  now: Date,
  cache?: PrincipalCache,
): Promise<Principal | null> {
  let found = cache?.get(sessionId, now);
  if (!found) {
    const generation = cache?.generation() ?? 0;
    found = await repo.findLiveSession(db, sessionId, now);
    if (found) cache?.set(sessionId, found, generation, now);
  }
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
      cache?.clear();
    }
  }
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
    await repo.touchSession(db, sessionId, now);
    // The cached row too, so a cached session is touched once a minute, not on every request.
    session.lastSeenAt = now;
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
    if (app.config.principalCacheSeconds > 0) {
      const pool = poolOf(app.db);
      const cache = createPrincipalCache({
        ttlMs: app.config.principalCacheSeconds * 1000,
        connect: () => listeningClientOf(pool),
        log: app.log,
      });
      cacheOfApp.set(app.db, cache);
      // A person's change (sign-out, password, a role, a membership, terms...)
      // holds from this process's next request: after any call that may change
      // state (as the CSRF check counts them) the cache is emptied before the
      // answer leaves. Other processes empty theirs on the notification, as
      // this one does for a change an API key (a device, an integration) made.
      app.addHook('onSend', async (request) => {
        if (request.routeOptions.config.changesState && request.principal?.kind !== 'api-key') {
          cache.clear();
        }
      });
      app.addHook('onClose', async () => {
        cacheOfApp.delete(app.db);
        await cache.close();
      });
    }
  },
  { name: 'principal-resolver', fastify: '5.x' },
);
