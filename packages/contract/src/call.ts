import { z } from 'zod';
import type { TPermissionName } from './permissions';
import type { TCallTag } from './tags';

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
 * Where a call works (issue 12), declared by every call that is not public and
 * enforced by the server before the handler runs:
 * - `organization`: in the caller's organization (the session organization, the
 *   token's or the key's); a caller who belongs to none gets 403 `FORBIDDEN`
 *   "You are not a member of any organization.", and every read and write of the
 *   handler names that organization;
 * - `account`: the caller's own account (their session, settings, tokens,
 *   password, the organizations they belong to), with or without an organization;
 * - `server`: server administration across organizations (server administrators only).
 */
export type CallScope = 'organization' | 'account' | 'server';

/**
 * One call of the API, written once: the server registers its route from it
 * (validation and OpenAPI), the web client is typed from it.
 */
export interface CallDef<
  Body extends z.ZodType | undefined = z.ZodType | undefined,
  Query extends z.ZodType | undefined = z.ZodType | undefined,
  Reply extends z.ZodType | null = z.ZodType | null,
  Scope extends CallScope = CallScope,
> {
  /** Operation name used in messages ("... when calling {operationId}") and in OpenAPI. */
  readonly operationId: string;
  readonly method: HttpMethod;
  /** Path exactly as spec section 7 names it, trailing slash included. */
  readonly path: string;
  readonly summary: string;
  /** The group of the call in the OpenAPI document (`CALL_TAGS`, tags.ts). */
  readonly tag: TCallTag;
  readonly auth: CallAuth;
  /** Where the call works ({@link CallScope}); every call but a public one declares it. */
  readonly scope?: Scope;
  /**
   * The call also accepts an organization's API key (`Authorization: Api-Key <key>`
   * or `X-Api-Key`; issue 15), within the key's permissions and organization:
   * `read` for any key, `write` for a key that is not read-only. Absent: no key.
   */
  readonly apiKey?: 'read' | 'write';
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
  /**
   * The call answers a file, not JSON: its media type (`application/pdf`,
   * `text/csv`, ...). The server documents the 200 reply under that media type
   * as binary (the reply schema is then {@link fileReply}'s) and sends the
   * handler's Buffer or string as it is, never as JSON.
   */
  readonly download?: DownloadMediaType;
  /**
   * The call's body is a file, not JSON: its media type (`application/pdf`).
   * The body is the file's bytes as they are (the schema is then
   * {@link fileBody}'s); the server documents the request body under that media
   * type as binary and needs a content-type parser for it in the route's scope.
   */
  readonly upload?: UploadMediaType;
  /** Extra documented statuses (besides the error catalogue). */
  readonly description?: string;
}

/** The media types of the files calls answer ({@link CallDef.download}). */
export const DOWNLOAD_MEDIA_TYPES = {
  pdf: 'application/pdf',
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  dossier: 'application/zip',
} as const;
export type DownloadMediaType = (typeof DOWNLOAD_MEDIA_TYPES)[keyof typeof DOWNLOAD_MEDIA_TYPES];

/**
 * The reply schema of a download call: the file's bytes (OpenAPI 3.1: a string
 * whose `contentMediaType` is the file's; `format: binary` for generators that
 * still read the OpenAPI 3.0 form).
 */
export function fileReply(mediaType: DownloadMediaType, description: string): ZFileReply {
  return z
    .string()
    .meta({ description, format: 'binary', contentMediaType: mediaType }) as ZFileReply;
}

/** The media types of the files calls take as their body ({@link CallDef.upload}). */
export const UPLOAD_MEDIA_TYPES = { pdf: 'application/pdf' } as const;
export type UploadMediaType = (typeof UPLOAD_MEDIA_TYPES)[keyof typeof UPLOAD_MEDIA_TYPES];

/**
 * The body schema of an upload call: the file's bytes (a Node Buffer on the
 * server, a Uint8Array in the browser), documented as a binary string of the
 * file's media type.
 */
export function fileBody(mediaType: UploadMediaType, description: string) {
  return z
    .custom<Uint8Array>((value) => value instanceof Uint8Array, {
      error: `must be the file's bytes, sent as ${mediaType}`,
    })
    .meta({ type: 'string', format: 'binary', contentMediaType: mediaType, description });
}

declare const FILE_REPLY: unique symbol;
/** A {@link fileReply} schema: the server's handler of such a call answers the file's bytes. */
export type ZFileReply = z.ZodString & { readonly [FILE_REPLY]: true };

export function defineCall<
  Body extends z.ZodType | undefined = undefined,
  Query extends z.ZodType | undefined = undefined,
  Reply extends z.ZodType | null = null,
  Scope extends CallScope = CallScope,
>(def: CallDef<Body, Query, Reply, Scope>): CallDef<Body, Query, Reply, Scope> {
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
