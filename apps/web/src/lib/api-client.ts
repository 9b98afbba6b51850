import {
  CSRF_COOKIE,
  CSRF_HEADER,
  LOGIN_REDIRECT_THROTTLE_MS,
  MOBILE_APP_VERSION_MAX_LENGTH,
  ModelShapeError,
  REQUEST_TIMEOUT_MS,
  TOTAL_COUNT_HEADER,
  WEB_CLIENT_TYPE,
  authCsrf,
  missingParameterMessage,
  parseModel,
  type CallBody,
  type CallDef,
  type CallQuery,
  type CallReply,
  type HttpMethod,
} from '@coldtrace/contract';
import { ApiError } from './api-error';
import {
  browserSessionStorage,
  isPublicPath,
  rememberRedirectTarget,
  type RedirectStorage,
} from './session';

/**
 * The one API client of the web app (spec sections 7 and 8). Every screen calls
 * the server through `callApi` / `callApiWithTotal`, typed from the contract's
 * `CallDef`:
 *
 * - a required body or query parameter that is absent rejects before sending
 *   ("Missing the required parameter '{name}' when calling {operationId}");
 * - 60 s time-out; cookies are sent; JSON body (a file's bytes for an upload
 *   call, under its media type); `X-CSRFToken` on state-changing
 *   calls (the token is fetched first when the cookie is absent);
 * - GET adds a cache-busting `_` parameter unless `cache: true`;
 * - 204 yields `undefined`; `x-total-count` is read; replies are parsed with the
 *   call's reply schema (`ModelShapeError` names the field);
 * - 401, or a failure without a response, outside the signed-out pages: the
 *   current path is remembered, the app goes to /login (at most once per 300 ms)
 *   and the promise never settles. A failure without a response on a signed-out
 *   page never settles either. Other errors reject with an `ApiError`.
 */

/** Client type the web application sends (spec section 9). */
export const CLIENT_TYPE = WEB_CLIENT_TYPE;

/** The mobile app version the web application sends: the first 120 characters of the user agent. */
export function mobileAppVersion(
  userAgent: string = typeof navigator === 'undefined' ? '' : navigator.userAgent,
): string {
  return userAgent.slice(0, MOBILE_APP_VERSION_MAX_LENGTH);
}

const STATE_CHANGING: ReadonlySet<HttpMethod> = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
/** State-changing calls, and the GET the contract marks (logout). */
const needsCsrf = (call: CallDef) => STATE_CHANGING.has(call.method) || call.csrf === true;

type BodyOption<C> = CallBody<C> extends undefined ? { body?: undefined } : { body: CallBody<C> };
type QueryOption<C> =
  CallQuery<C> extends undefined
    ? { query?: undefined }
    : object extends CallQuery<C>
      ? { query?: CallQuery<C> }
      : { query: CallQuery<C> };

/** Options of one call: body and query typed from the call, plus an abort signal. */
export type CallOptions<C extends CallDef> = BodyOption<C> &
  QueryOption<C> & {
    signal?: AbortSignal;
    /** Allow the browser cache for a GET (default off: a `_=<timestamp>` parameter is added). */
    cache?: boolean;
  };

/** The options argument is optional when nothing in it is required. */
export type CallArgs<C extends CallDef> =
  object extends CallOptions<C> ? [options?: CallOptions<C>] : [options: CallOptions<C>];

export interface CallResult<T> {
  data: T;
  /** The `x-total-count` header, when the reply has one. */
  totalCount: number | undefined;
}

/** Everything the client touches outside itself, injectable for tests. */
export interface ApiClientDeps {
  fetch: typeof fetch;
  /** `document.cookie`. */
  readCookies: () => string;
  /** The current path and search (`location.pathname`, `location.search`). */
  currentLocation: () => { pathname: string; search: string };
  /** Goes to /login (the app wires this to the router). */
  redirectToLogin: () => void;
  /** Where the post-login redirect target is remembered. */
  storage: RedirectStorage | null;
  now: () => number;
  setTimeout: (fn: () => void, ms: number) => unknown;
  clearTimeout: (handle: unknown) => void;
  timeoutMs: number;
  /** Prefix of every path; '' for the same origin. */
  baseUrl: string;
}

export interface ApiClient {
  callApi<C extends CallDef>(call: C, ...args: CallArgs<C>): Promise<CallReply<C>>;
  callApiWithTotal<C extends CallDef>(
    call: C,
    ...args: CallArgs<C>
  ): Promise<CallResult<CallReply<C>>>;
  /** Fetches a static text file of the same origin (the changelog), with the same time-out. */
  fetchStaticText(path: string, options?: { signal?: AbortSignal }): Promise<string>;
  /** The CSRF token: the `csrftoken` cookie, fetched first when it is absent. */
  ensureCsrfToken(options?: { signal?: AbortSignal }): Promise<string>;
}

/** A promise that never settles: the spec's "silently swallowed; the call never completes". */
function never(): Promise<never> {
  return new Promise<never>(() => undefined);
}

type SafeParser = { safeParse(value: unknown): { success: boolean } };

const requiredKeysCache = new WeakMap<object, readonly string[]>();

/**
 * Keys of a Zod object schema whose schema does not accept `undefined`, in
 * declaration order. Non-object schemas (arrays, unions) have none.
 */
export function requiredKeys(schema: unknown): readonly string[] {
  if (schema == null || typeof schema !== 'object') return [];
  const cached = requiredKeysCache.get(schema);
  if (cached) return cached;
  const shape = (schema as { shape?: unknown }).shape;
  const keys =
    shape != null && typeof shape === 'object'
      ? Object.entries(shape as Record<string, SafeParser>)
          .filter(([, field]) => !field.safeParse(undefined).success)
          .map(([key]) => key)
      : [];
  requiredKeysCache.set(schema, keys);
  return keys;
}

/** Throws the spec's message when a required key of `schema` is absent from `value`. */
function assertRequired(schema: unknown, value: unknown, operationId: string): void {
  const keys = requiredKeys(schema);
  if (keys.length === 0) return;
  const record =
    value != null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  const shape = (schema as { shape: Record<string, SafeParser> }).shape;
  for (const key of keys) {
    const given = record[key];
    const absent =
      given === undefined || (given === null && !(shape[key]?.safeParse(null).success ?? false));
    if (absent) throw new Error(missingParameterMessage(key, operationId));
  }
}

function readCookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return value;
      }
    }
  }
  return undefined;
}

function appendQueryValue(params: URLSearchParams, key: string, value: unknown): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value) appendQueryValue(params, key, item);
  } else if (value instanceof Date) {
    params.append(key, value.toISOString());
  } else if (typeof value === 'object') {
    params.append(key, JSON.stringify(value));
  } else {
    params.append(key, String(value));
  }
}

/** `path?query` with the cache-busting parameter on a GET without caching. */
function buildUrl(
  baseUrl: string,
  call: CallDef,
  query: unknown,
  cache: boolean,
  now: () => number,
): string {
  const params = new URLSearchParams();
  if (query != null && typeof query === 'object') {
    for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
      appendQueryValue(params, key, value);
    }
  }
  if (call.method === 'GET' && !cache) params.set('_', String(now()));
  const search = params.toString();
  return `${baseUrl}${call.path}${search ? `?${search}` : ''}`;
}

/** Name used in model shape errors: the reply schema's `meta({ id })`, else the operation. */
function modelName(call: CallDef): string {
  const reply = call.reply as { meta?: () => { id?: unknown } | undefined } | null;
  const id = typeof reply?.meta === 'function' ? reply.meta()?.id : undefined;
  return typeof id === 'string' ? id : `${call.operationId} reply`;
}

/** Outcome of the network exchange: a response with its body read, or none at all. */
type Exchange =
  | { kind: 'response'; response: Response; text: string }
  | { kind: 'no-response' }
  | { kind: 'aborted'; reason: unknown };

export function createApiClient(deps: ApiClientDeps): ApiClient {
  let lastRedirectAt = Number.NEGATIVE_INFINITY;

  /**
   * 401 or no response outside the signed-out pages: remember where we are and go
   * to /login, at most once per 300 ms (only the first call of a burst acts).
   */
  function redirectToLogin(): void {
    const { pathname, search } = deps.currentLocation();
    if (isPublicPath(pathname)) return;
    const now = deps.now();
    if (now - lastRedirectAt < LOGIN_REDIRECT_THROTTLE_MS) return;
    lastRedirectAt = now;
    rememberRedirectTarget(`${pathname}${search}`, deps.storage);
    deps.redirectToLogin();
  }

  /** fetch plus body read under one time-out, tied to the caller's signal. */
  async function exchange(url: string, init: RequestInit, signal?: AbortSignal): Promise<Exchange> {
    if (signal?.aborted) return { kind: 'aborted', reason: signal.reason };
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = deps.setTimeout(() => controller.abort(), deps.timeoutMs);
    try {
      const response = await deps.fetch(url, { ...init, signal: controller.signal });
      const text = response.status === 204 ? '' : await response.text();
      return { kind: 'response', response, text };
    } catch {
      if (signal?.aborted) return { kind: 'aborted', reason: signal.reason };
      return { kind: 'no-response' };
    } finally {
      deps.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async function csrfToken(signal: AbortSignal | undefined, refresh: boolean): Promise<string> {
    const fromCookie = refresh ? undefined : readCookie(deps.readCookies(), CSRF_COOKIE);
    if (fromCookie) return fromCookie;
    // The reply carries the value the server has just set in the cookie.
    const { data } = await send(authCsrf, { signal });
    return data.csrftoken;
  }

  async function send<C extends CallDef>(
    call: C,
    options: CallOptions<C> | undefined,
    csrfRetried = false,
  ): Promise<CallResult<CallReply<C>>> {
    const {
      body,
      query,
      signal,
      cache = false,
    } = (options ?? {}) as {
      body?: unknown;
      query?: unknown;
      signal?: AbortSignal;
      cache?: boolean;
    };
    // Spec section 5: a missing required parameter fails before anything is sent.
    if (call.body) assertRequired(call.body, body, call.operationId);
    if (call.query) assertRequired(call.query, query, call.operationId);

    const headers: Record<string, string> = { Accept: 'application/json' };
    const init: RequestInit = { method: call.method, credentials: 'include', headers };
    if (call.body && call.upload !== undefined) {
      // An upload: the file's bytes as they are, under its media type.
      headers['Content-Type'] = call.upload;
      init.body = body as BodyInit;
    } else if (call.body) {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body ?? {});
    }
    if (needsCsrf(call)) {
      headers[CSRF_HEADER] = await csrfToken(signal, csrfRetried);
    }

    const url = buildUrl(deps.baseUrl, call, query, cache, deps.now);
    const outcome = await exchange(url, init, signal);
    if (outcome.kind === 'aborted') throw outcome.reason;
    if (outcome.kind === 'no-response') {
      // Spec section 8: swallowed; outside the signed-out pages, also go to /login.
      redirectToLogin();
      return never();
    }

    const { response, text } = outcome;
    if (!response.ok) {
      if (response.status === 401 && !isPublicPath(deps.currentLocation().pathname)) {
        redirectToLogin();
        return never();
      }
      const error = ApiError.fromReply(response.status, response.statusText, parseJson(text));
      if (error.code === 'CSRF_FAILED' && needsCsrf(call) && !csrfRetried) {
        // A stale token (rotated at sign-in): fetch a fresh one and try once more.
        return send(call, options, true);
      }
      throw error;
    }

    const header = response.headers.get(TOTAL_COUNT_HEADER);
    const total = header == null || header.trim() === '' ? Number.NaN : Number(header);
    const totalCount = Number.isFinite(total) ? total : undefined;
    if (response.status === 204 || call.reply === null) {
      return { data: undefined as CallReply<C>, totalCount };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ModelShapeError(modelName(call), { _: 'The reply is not JSON' });
    }
    const data = parseModel(call.reply, json, modelName(call)) as CallReply<C>;
    return { data, totalCount };
  }

  return {
    async callApi(call, ...args) {
      return (await send(call, args[0])).data;
    },
    callApiWithTotal(call, ...args) {
      return send(call, args[0]);
    },
    async fetchStaticText(path, options = {}) {
      const outcome = await exchange(
        `${deps.baseUrl}${path}`,
        { method: 'GET', credentials: 'same-origin', headers: { Accept: 'text/plain, */*' } },
        options.signal,
      );
      if (outcome.kind === 'aborted') throw outcome.reason;
      if (outcome.kind === 'no-response') return never();
      if (!outcome.response.ok) {
        throw ApiError.fromReply(outcome.response.status, outcome.response.statusText, undefined);
      }
      return outcome.text;
    },
    ensureCsrfToken(options = {}) {
      return csrfToken(options.signal, false);
    },
  };
}

function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Browser wiring; `redirectToLogin` is replaced by the router's navigation at start-up. */
const browserDeps: ApiClientDeps = {
  fetch: (input, init) => fetch(input, init),
  readCookies: () => (typeof document === 'undefined' ? '' : document.cookie),
  currentLocation: () =>
    typeof location === 'undefined'
      ? { pathname: '/', search: '' }
      : { pathname: location.pathname, search: location.search },
  redirectToLogin: () => location.assign('/login'),
  storage: browserSessionStorage(),
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
  timeoutMs: REQUEST_TIMEOUT_MS,
  baseUrl: '',
};

const client = createApiClient(browserDeps);

/** Replaces parts of the browser wiring (the app sets `redirectToLogin` to the router). */
export function configureApiClient(overrides: Partial<ApiClientDeps>): void {
  Object.assign(browserDeps, overrides);
}

/** Calls the API; resolves with the parsed reply (undefined for 204). */
export const callApi: ApiClient['callApi'] = (call, ...args) => client.callApi(call, ...args);

/** Calls the API; resolves with the parsed reply and the `x-total-count` header. */
export const callApiWithTotal: ApiClient['callApiWithTotal'] = (call, ...args) =>
  client.callApiWithTotal(call, ...args);

/**
 * Makes sure the CSRF cookie is there (the login page calls it on arrival, so
 * signing in is one request, not two).
 */
export const ensureCsrfToken: ApiClient['ensureCsrfToken'] = (options) =>
  client.ensureCsrfToken(options);

/** Fetches a static text file of the same origin (the changelog). */
export const fetchStaticText: ApiClient['fetchStaticText'] = (path, options) =>
  client.fetchStaticText(path, options);
