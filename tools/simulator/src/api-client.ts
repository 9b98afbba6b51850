import {
  CSRF_COOKIE,
  CSRF_HEADER,
  authCsrf,
  authLogin,
  authSessionSwitch,
  authTokenCreate,
  authOrgs,
  type CallBody,
  type CallDef,
  type CallReply,
} from '@coldtrace/contract';

/**
 * The transport of the simulator: the public HTTP API, as the web app, the
 * phone app and the gateways use it. A cookie jar keeps the session and the
 * `csrftoken` cookie (sent back as `X-CSRFToken` on state-changing calls, as
 * the server's CSRF check asks); device calls use `Authorization: Token <t>`
 * (a user token issued from the session). Uploads are idempotent, so network
 * failures, 429 and 502-504 are retried with a back-off, as devices do.
 */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly method: string,
    readonly path: string,
    readonly body: unknown,
  ) {
    const detail =
      typeof body === 'object' && body !== null
        ? JSON.stringify(body).slice(0, 500)
        : String(body).slice(0, 500);
    super(`${method} ${path} answered ${status}: ${detail}`);
    this.name = 'ApiError';
  }
}

export interface ApiClientOptions {
  /** Server root, e.g. http://localhost:8000 */
  baseUrl: string;
  /** Retries of a failed request (network error, 429, 502, 503, 504); default 5. */
  retries?: number;
  fetch?: typeof fetch;
}

export type Auth = 'session' | 'token';

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined>;
  /** 'token': `Authorization: Token <token>` (no cookies, no CSRF); default 'session'. */
  auth?: Auth;
}

const RETRY_STATUSES = new Set([429, 502, 503, 504]);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class ApiClient {
  readonly baseUrl: string;
  readonly cookies = new Map<string, string>();
  /** The device token, once issued (or given). */
  token: string | undefined;
  private readonly retries: number;
  private readonly fetchImpl: typeof fetch;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.retries = options.retries ?? 5;
    this.fetchImpl = options.fetch ?? fetch;
  }

  /** Any request; answers the parsed JSON (undefined for 204). Non-2xx throws ApiError. */
  async request<T = unknown>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(options.query ?? {})) {
      if (v !== undefined) url.searchParams.set(k, String(v));
    }
    const auth = options.auth ?? 'session';
    const stateChanging = !['GET', 'HEAD', 'OPTIONS'].includes(method);
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (auth === 'token') {
        if (this.token === undefined) throw new Error('no device token: call issueToken() first');
        headers.authorization = `Token ${this.token}`;
      } else {
        if (stateChanging && !this.cookies.has(CSRF_COOKIE) && path !== authCsrf.path) {
          await this.csrf();
        }
        if (stateChanging) headers[CSRF_HEADER] = this.cookies.get(CSRF_COOKIE) ?? '';
        if (this.cookies.size > 0) {
          headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
        }
      }
      let payload: string | undefined;
      if (options.body !== undefined) {
        payload = JSON.stringify(options.body);
        headers['content-type'] = 'application/json';
      }
      let res: Response;
      try {
        res = await this.fetchImpl(url, { method, headers, body: payload ?? null });
      } catch (err) {
        if (attempt < this.retries) {
          await sleep(backoff(attempt));
          continue;
        }
        throw err;
      }
      if (auth === 'session') this.keepCookies(res);
      if (RETRY_STATUSES.has(res.status) && attempt < this.retries) {
        await res.arrayBuffer().catch(() => undefined);
        await sleep(backoff(attempt, res.headers.get('retry-after')));
        continue;
      }
      const text = await res.text();
      let data: unknown = undefined;
      if (text !== '') {
        try {
          data = JSON.parse(text);
        } catch {
          data = text;
        }
      }
      if (!res.ok) throw new ApiError(res.status, method, path, data);
      return data as T;
    }
  }

  /** A call of the contract, typed by it. */
  call<C extends CallDef>(
    call: C,
    args: { body?: CallBody<C>; query?: RequestOptions['query']; auth?: Auth } = {},
  ): Promise<CallReply<C>> {
    return this.request<CallReply<C>>(call.method, call.path, {
      body: args.body,
      query: args.query,
      auth: args.auth ?? 'session',
    });
  }

  /** Fetch the csrftoken cookie. */
  async csrf(): Promise<string> {
    const reply = await this.call(authCsrf);
    return this.cookies.get(CSRF_COOKIE) ?? reply.csrftoken;
  }

  /** Sign in (a new session cookie). */
  async login(emailOrUsername: string, password: string): Promise<CallReply<typeof authLogin>> {
    await this.csrf();
    return this.call(authLogin, { body: { email_or_username: emailOrUsername, password } });
  }

  /** Switch the session to the organization with this name (or id). */
  async useOrganization(nameOrId: string): Promise<{ id: string; name: string }> {
    const orgs = await this.call(authOrgs);
    const org = orgs.find((o) => o.id === nameOrId || o.name === nameOrId);
    if (!org?.id) {
      throw new Error(
        `no organization '${nameOrId}' among: ${orgs.map((o) => o.name).join(', ') || 'none'}`,
      );
    }
    await this.call(authSessionSwitch, { body: { id: org.id } });
    return { id: org.id, name: org.name ?? nameOrId };
  }

  /** Issue a user token for the session's organization and use it for device calls. */
  async issueToken(name: string, expiryDays = 30): Promise<string> {
    const issued = await this.call(authTokenCreate, { body: { name, expiry_days: expiryDays } });
    this.token = issued.token;
    return issued.token;
  }

  private keepCookies(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      if (eq <= 0) continue;
      const name = pair!.slice(0, eq).trim();
      const value = decodeURIComponent(pair!.slice(eq + 1).trim());
      const expired = attributes.some((a) => {
        const [k, v = ''] = a.split('=').map((x) => x.trim());
        if (k!.toLowerCase() === 'max-age') return Number(v) <= 0;
        if (k!.toLowerCase() === 'expires') return Date.parse(v) <= Date.now();
        return false;
      });
      if (expired || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

function backoff(attempt: number, retryAfter?: string | null): number {
  const seconds = retryAfter ? Number(retryAfter) : NaN;
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(30_000, seconds * 1000);
  return Math.min(10_000, 200 * 2 ** attempt) * (0.5 + Math.random() / 2);
}
