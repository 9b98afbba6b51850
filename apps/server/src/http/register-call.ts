import {
  findUnsafeText,
  isUnsafeText,
  issuePath,
  TOTAL_COUNT_HEADER,
  unsafeTextMessage,
  ZErrorReply,
  type CallDef,
  type ZFileReply,
} from '@coldtrace/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { organizationRequestOf, type OrganizationRequest } from '../kernel/context';
import { AppError, forbidden } from '../kernel/errors';
import { organizationOf, type Principal } from '../kernel/principal';
import { checkCsrf, STATE_CHANGING_METHODS } from './csrf';
import { operationDescription } from './permissions-table';
import { replySerializerCompiler } from './reply-serializer';

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type ReplyOut<R> = R extends z.ZodType ? z.output<R> : void;
/** A download's handler answers the file's bytes (or sends them itself with `reply.send`). */
type HandlerResult<R> = R extends ZFileReply ? Buffer | string : ReplyOut<R>;

export interface CallContext<Body, Query> {
  request: FastifyRequest;
  reply: FastifyReply;
  /** The validated body (the call's Zod schema's output). */
  body: Body;
  /** The validated query. */
  query: Query;
  /** Who makes the call; null for an anonymous caller of a public call. */
  principal: Principal | null;
  /** The principal of a call that needs one (the guard already answered 401 otherwise). */
  requirePrincipal(): Principal;
}

/**
 * What the handler of an organization-scoped call gets besides (`scope:
 * 'organization'` in the contract): the organization the guard checked, which
 * every read and write of the handler names.
 */
export interface OrganizationContext {
  /** The caller's organization (the guard answered 403 when the caller has none). */
  organizationId(): string;
  /** Who calls, in which organization, from where: what a service that writes or audits takes. */
  organizationRequest(): OrganizationRequest;
}

export type CallHandler<C> =
  C extends CallDef<infer B, infer Q, infer R, infer S>
    ? (
        ctx: CallContext<Out<B>, Out<Q>> &
          ('organization' extends S ? OrganizationContext : unknown),
      ) => Promise<HandlerResult<R>>
    : never;

/** A state-changing method, or a call the contract protects like one (`csrf: true`: sign-out). */
const changesState = (call: CallDef) =>
  STATE_CHANGING_METHODS.has(call.method) || call.csrf === true;

/** An API key, in either header (schemes declared in `openapi.ts`). */
const API_KEY_SECURITY: Record<string, string[]>[] = [{ apiKeyAuth: [] }, { apiKeyHeader: [] }];

/** OpenAPI security requirements of a call (schemes declared in `openapi.ts`). */
function securityOf(call: CallDef): Record<string, string[]>[] {
  const csrf = changesState(call);
  const apiKey = call.apiKey !== undefined || call.auth === 'key' ? API_KEY_SECURITY : [];
  switch (call.auth) {
    case 'public':
      return csrf ? [{ csrfToken: [] }] : [];
    case 'session':
      // A session cookie (with the CSRF token when state-changing), or a user token; an API key where allowed.
      return [
        csrf ? { sessionCookie: [], csrfToken: [] } : { sessionCookie: [] },
        { tokenAuth: [] },
        ...apiKey,
      ];
    case 'device':
    case 'key':
      return [{ tokenAuth: [] }, ...apiKey];
  }
}

const AUTH_KINDS: Record<CallDef['auth'], readonly Principal['kind'][] | null> = {
  public: null,
  session: ['session', 'token'],
  device: ['token'],
  key: ['token', 'api-key'],
};

/** Who may make the call: its authentication kind, and an API key where the contract says so. */
function acceptedKinds(call: CallDef): readonly Principal['kind'][] | null {
  const kinds = AUTH_KINDS[call.auth];
  if (kinds === null || call.apiKey === undefined || kinds.includes('api-key')) return kinds;
  return [...kinds, 'api-key'];
}

/**
 * The 200 reply of a download: the file under its media type (the Zod schema is
 * the contract's `fileReply`, a binary string), as fastify-type-provider-zod
 * documents a reply with `content`.
 */
function fileResponse(schema: z.ZodType, mediaType: string) {
  return {
    description: 'The file (Content-Disposition: attachment)',
    content: { [mediaType]: { schema } },
  };
}

/**
 * Strings no call accepts (NUL, lone UTF-16 surrogates; PostgreSQL would answer
 * a 500): 400 `VALIDATION_ERROR` naming the field, before Zod and before any
 * query. Runs for every registered call, so none can forget it.
 */
function rejectUnsafeText(part: 'body' | 'query' | 'path', value: unknown): void {
  const path = findUnsafeText(value);
  if (path === null) return;
  const field = issuePath(path) || part;
  const message = unsafeTextMessage(field);
  throw new AppError('VALIDATION_ERROR', message, { [field]: message });
}

/** Header values too reach the database (User-Agent of a session, tokens looked up). */
function rejectUnsafeHeaders(request: FastifyRequest): void {
  for (const [name, value] of Object.entries(request.headers)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'string' && isUnsafeText(v))) {
      const message = `Header '${name}' contains a character that is not allowed (a NUL character or an unpaired UTF-16 surrogate)`;
      throw new AppError('VALIDATION_ERROR', message, { [name]: message });
    }
  }
}

/** The permissions a call needs (any of them). */
function permissionsOf(call: CallDef): readonly string[] {
  if (call.permission === undefined) return [];
  return typeof call.permission === 'string' ? [call.permission] : [...call.permission];
}

/** A call that is not public names its scope, and an upload has its parser: the server refuses to guess. */
function checkDeclaration(app: FastifyInstance, call: CallDef): void {
  if (call.auth !== 'public' && call.scope === undefined) {
    // The contract test (call-scope.test.ts) says so too; this stops a server that would guess.
    throw new Error(
      `${call.operationId} declares no scope: every call that is not public says where it works (CallScope in packages/contract/src/call.ts)`,
    );
  }
  if (call.upload !== undefined && !app.hasContentTypeParser(call.upload)) {
    // The app parses JSON only: an upload's route scope adds the parser of its file (as bytes).
    throw new Error(
      `${call.operationId} takes ${call.upload}: register a content-type parser for it (parseAs 'buffer') in the route's scope`,
    );
  }
}

/**
 * Who is calling, and how: credentials that do not authenticate (401), the CSRF
 * check for cookie-authenticated or anonymous state-changing calls, the kind of
 * authentication the call accepts (401).
 */
async function authenticate(
  app: FastifyInstance,
  call: CallDef,
  request: FastifyRequest,
): Promise<Principal | null> {
  // The auth module finds who is calling (`app.principals`); http only reads the result.
  const principal = await app.principals.resolve(request);
  request.principal = principal;
  // Credentials given explicitly (token or API key) that do not authenticate: 401, not a CSRF 403.
  if (principal === null && call.auth !== 'public' && app.principals.presentsCredentials(request)) {
    throw new AppError('UNAUTHENTICATED', 'Invalid, expired or revoked token or API key.');
  }
  if (
    STATE_CHANGING_METHODS.has(request.method)
      ? principal === null || principal.kind === 'session'
      : call.csrf === true && principal?.kind === 'session'
  ) {
    checkCsrf(request, app.config);
  }
  const accepted = acceptedKinds(call);
  if (accepted !== null && (principal === null || !accepted.includes(principal.kind))) {
    throw new AppError(
      'UNAUTHENTICATED',
      call.auth === 'session'
        ? 'Authentication credentials were not provided or the session has expired.'
        : `This call needs ${call.auth === 'device' && call.apiKey === undefined ? 'a device token' : call.auth === 'device' ? 'a device token or an API key' : 'a token or an API key'}.`,
    );
  }
  return principal;
}

/**
 * What the caller may do: server administration (`serverAdmin`; answers true
 * when a server administrator passes without the other checks), the call's
 * permissions (any of), its organization scope, a read-only API key.
 */
function authorize(call: CallDef, permissions: readonly string[], principal: Principal | null) {
  if (call.serverAdmin !== undefined) {
    if (principal === null) {
      throw new AppError('UNAUTHENTICATED', 'Authentication credentials were not provided.');
    }
    // Server administration is a person's, in a browser or with their token: never an API key's.
    const serverAdmin = principal.user.isServerAdmin && principal.kind !== 'api-key';
    if (call.serverAdmin === 'only' && !serverAdmin) {
      throw forbidden('Only a server administrator may do this.');
    }
    // A server administrator's call ('only'), or one they may make across organizations ('also').
    if (serverAdmin) return;
  }
  if (permissions.length > 0) {
    if (principal === null) {
      throw new AppError('UNAUTHENTICATED', 'Authentication credentials were not provided.');
    }
    if (!permissions.some((p) => principal.permissions.includes(p))) {
      throw forbidden(
        `You do not have permission to perform this action (needs ${permissions.join(' or ')}).`,
      );
    }
  }
  // The one access check of the call's scope: an organization-scoped call needs an organization.
  if (call.scope === 'organization' && principal !== null) organizationOf(principal);
  // A read-only API key reads: it may make the calls the contract marks `apiKey: 'read'`.
  if (
    call.auth !== 'public' &&
    principal?.kind === 'api-key' &&
    principal.apiKeyReadOnly === true &&
    call.apiKey !== 'read'
  ) {
    throw forbidden('This API key is read-only.');
  }
}

/** The reply schemas of a call: errors, 204, the reply's schema or a file under its media type. */
function responseOf(call: CallDef) {
  const response: Record<string, z.ZodType | ReturnType<typeof fileResponse>> = {
    '4xx': ZErrorReply,
    '5xx': ZErrorReply,
  };
  if (call.reply === null) response[204] = z.undefined().describe('No content');
  else if (call.download === undefined) response[200] = call.reply;
  // A file: documented under its media type (binary), sent as the handler's bytes.
  else response[200] = fileResponse(call.reply, call.download);
  return response;
}

/** The handler's context: the validated input, who is calling and, where scoped, the organization. */
function contextOf(
  request: FastifyRequest,
  reply: FastifyReply,
): CallContext<unknown, unknown> & OrganizationContext {
  const principal = request.principal;
  const requirePrincipal = () => {
    if (principal === null) {
      throw new AppError('UNAUTHENTICATED', 'Authentication credentials were not provided.');
    }
    return principal;
  };
  return {
    request,
    reply,
    body: request.body,
    query: request.query,
    principal,
    requirePrincipal,
    organizationId: () => organizationOf(requirePrincipal()),
    organizationRequest: () => {
      const caller = requirePrincipal();
      return organizationRequestOf(request, caller, organizationOf(caller));
    },
  };
}

/** The reply of a call from its handler's result: 204, a file, or the body with its total count. */
function sendResult(call: CallDef, reply: FastifyReply, result: unknown) {
  if (call.reply === null) return reply.code(204).send();
  if (call.download !== undefined) {
    // The handler sent the file itself, or answers its bytes: never JSON.
    if (result === reply || reply.sent) return reply;
    if (!reply.hasHeader('content-type')) void reply.header('content-type', call.download);
    return reply.send(result);
  }
  if (Array.isArray(result) && !reply.hasHeader(TOTAL_COUNT_HEADER)) {
    void reply.header(TOTAL_COUNT_HEADER, String(result.length));
  }
  return result;
}

/**
 * Register one contract call: method and path, body / query / reply schemas
 * (validation, serialization and the OpenAPI document), and a guard that runs
 * before the body is even read: who is calling, the CSRF check for
 * cookie-authenticated or anonymous state-changing calls, `call.auth` and
 * `call.permission` (any of). The handler returns the reply body; a call whose
 * reply is `null` answers 204. Every list reply (an array) carries its total in
 * `x-total-count` (spec section 7): the handler of a paged list sets the total of
 * every page; otherwise the header is the array's length.
 */
export function registerCall<C extends CallDef>(
  app: FastifyInstance,
  call: C,
  handler: CallHandler<C>,
): void {
  checkDeclaration(app, call);
  const permissions = permissionsOf(call);
  const run = handler as unknown as (
    ctx: CallContext<unknown, unknown> & OrganizationContext,
  ) => Promise<unknown>;

  app.route({
    method: call.method,
    config: { changesState: changesState(call) },
    url: call.path,
    schema: {
      operationId: call.operationId,
      tags: [call.tag],
      summary: call.summary,
      description: operationDescription(call),
      security: securityOf(call),
      ...(call.body ? { body: call.body } : {}),
      // An upload's body is documented under its media type (@fastify/swagger reads `consumes`).
      ...(call.upload !== undefined ? { consumes: [call.upload] } : {}),
      ...(call.query ? { querystring: call.query } : {}),
      response: responseOf(call),
    },
    // List replies by fast-json-stringify from the contract's schema, the others by Zod (reply-serializer.ts).
    serializerCompiler: replySerializerCompiler,
    onRequest: async (request: FastifyRequest) => {
      rejectUnsafeHeaders(request);
      rejectUnsafeText('query', request.query);
      rejectUnsafeText('path', request.params);
      authorize(call, permissions, await authenticate(app, call, request));
    },
    // After the body is read, before Zod validates it.
    // (An upload's body is the file's bytes: there is no text in it to check.)
    preValidation: async (request: FastifyRequest) => {
      if (call.upload === undefined || !(request.body instanceof Uint8Array)) {
        rejectUnsafeText('body', request.body);
      }
    },
    handler: async (request, reply) =>
      sendResult(call, reply, await run(contextOf(request, reply))),
  });
}
