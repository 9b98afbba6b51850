import type {} from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import type { RuntimeConfig } from '../config';
import type { Database } from '../db/client';
import type { JobQueue } from '../jobs/queue';
import type { Principal } from './principal';

/**
 * Finds who makes a request. The auth module registers the one implementation
 * (`app.principals`, `modules/identity/auth/principal.ts`); `registerCall` asks it once
 * per call, after rejecting unsafe header text and before the CSRF check.
 */
export interface PrincipalResolver {
  /** Who makes the request (resolved once per request); null for an anonymous one. */
  resolve(request: FastifyRequest): Promise<Principal | null>;
  /** The request names a token or an API key itself (rather than relying on the session cookie). */
  presentsCredentials(request: FastifyRequest): boolean;
}

/** Where a service call comes from: who, and the request id written with audit entries. */
export interface RequestContext {
  principal: Principal;
  requestId: string;
}

/**
 * The name of the device cookie (`modules/identity/auth/device-cookie.ts`): a browser
 * where the user signed in before, whose password checks the account's throttling spares.
 */
export const DEVICE_COOKIE = 'deviceid';

/**
 * The one context of a call that works in one organization (the route's), as
 * `registerCall` hands it to the handler (`organizationRequest()`): who, which request,
 * which organization, and where from (a signature's password check is throttled per
 * client address and known browser).
 */
export interface OrganizationRequest extends RequestContext {
  organizationId: string;
  clientIp: string;
  /** The device cookie, if the browser sent one. */
  deviceCookie: string | undefined;
}

/** The organization request of `request`, made by `principal` in `organizationId`. */
export function organizationRequestOf(
  request: FastifyRequest,
  principal: Principal,
  organizationId: string,
): OrganizationRequest {
  return {
    organizationId,
    principal,
    requestId: request.id,
    clientIp: request.ip,
    deviceCookie: request.cookies[DEVICE_COOKIE],
  };
}

/** What the app decorates Fastify with (set in `app.ts`; `passwords` in `modules/identity/auth/passwords.ts`). */
declare module 'fastify' {
  interface FastifyInstance {
    config: RuntimeConfig;
    db: Database;
    /** The durable job queue; modules register workers with `jobs.work` while the app registers. */
    jobs: JobQueue;
    /** Who is calling (registered by the auth module). */
    principals: PrincipalResolver;
  }
  interface FastifyRequest {
    /** Who made the request; set by `registerCall` before the handler runs (null: anonymous). */
    principal: Principal | null;
  }
  interface FastifyContextConfig {
    /**
     * The call may change state (a state-changing method, or a GET the contract
     * protects like one: sign-out), as the CSRF check counts it; set by `registerCall`.
     */
    changesState?: boolean;
  }
}
