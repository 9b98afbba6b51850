import type { z } from 'zod';
import type { TPermissionName } from './permissions';

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Who may make a call (spec section 6, "Authentication kinds"):
 * - `public`: anyone, no session needed;
 * - `session`: a signed-in user (session cookie, or a user token);
 * - `device`: a device token only (rt and nanotag uploads);
 * - `key`: a user token or an API key (key authentication).
 */
export type CallAuth = 'public' | 'session' | 'device' | 'key';

/**
 * One call of the API, written once: the server registers its route from it
 * (validation and OpenAPI), the web client is typed from it.
 */
export interface CallDef<
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Reply extends z.ZodType | null = z.ZodType | null,
> {
  /** Operation name used in messages ("... when calling {operationId}") and in OpenAPI. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Path exactly as spec section 7 names it, trailing slash included. */
  readonly path: string;
  readonly summary: string;
  readonly tag: string;
  readonly auth: CallAuth;
  /** Permission needed; an array means any one of them. */
  readonly permission?: TPermissionName | readonly TPermissionName[];
  /**
   * Server administrators (`is_server_admin`, domain rules section 7):
   * `only` — nobody else may make the call (whatever their permissions);
   * `also` — a server administrator passes the permission check too.
   */
  readonly serverAdmin?: 'only' | 'also';
  readonly body?: Body;
  readonly query?: Query;
  /**
   * The CSRF header is required even though the method is safe (GET logout:
   * another site must not end the session), when authenticated by cookie.
   */
  readonly csrf?: boolean;
  /** Reply schema; `null` when the call answers 204 with no content. */
  readonly reply: Reply;
  /** Extra documented statuses (besides the error catalogue). */
  readonly description?: string;
}

export function defineCall<
  Body extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Reply extends z.ZodType | null = null,
>(def: CallDef<Body, Query, Reply>): CallDef<Body, Query, Reply> {
  return def;
}

export type CallBody<C> =
  C extends CallDef<infer B, z.ZodType | undefined, z.ZodType | null>
    ? B extends z.ZodType
      ? z.input<B>
      : undefined
    : never;
export type CallQuery<C> =
  C extends CallDef<z.ZodType | undefined, infer Q, z.ZodType | null>
    ? Q extends z.ZodType
      ? z.input<Q>
      : undefined
    : never;
export type CallReply<C> =
  C extends CallDef<z.ZodType | undefined, z.ZodType | undefined, infer R>
    ? R extends z.ZodType
      ? z.output<R>
      : undefined
    : never;
