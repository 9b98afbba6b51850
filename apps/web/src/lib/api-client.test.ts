import {
  LOGIN_REDIRECT_THROTTLE_MS,
  ModelShapeError,
  REQUEST_TIMEOUT_MS,
  ZOrgLevelUserSettings,
  ZOrgSwitch,
  authCsrf,
  authLogin,
  authLogout,
  authSessionGet,
  authSessionSwitch,
  authUserSettings,
  defineCall,
  xt1CalibrationFileUpload,
  type TUser,
} from '@coldtrace/contract';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-error';
import {
  CLIENT_TYPE,
  createApiClient,
  mobileAppVersion,
  requiredKeys,
  type ApiClientDeps,
} from './api-client';
import { REDIRECT_TARGET_KEY } from './session';

const user: TUser = {
  id: 'u1',
  username: 'admin',
  role_memberships: [],
  current_session_permissions: ['sysAdminUser'],
  settings: { degrees_unit: 'C', timezone: 'UTC' },
  org_settings: { alarm_notify_my_scans_orgs: [], alarm_notify_any_scans_orgs: [] },
  has_agreed_to_tos: true,
  organizations: [{ id: 'o1', name: 'Demo Organization' }],
  last_session_org_id: 'o1',
};

/** A call with a query, to test query parameters (the auth calls have none). */
const listCall = defineCall({
  operationId: 'testList',
  method: 'GET',
  path: '/api/test/list/',
  summary: 'test',
  tag: 'health',
  auth: 'session',
  query: ZOrgLevelUserSettings,
  reply: ZOrgSwitch,
});

function json(body: unknown, init: ResponseInit = {}): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    ...init,
    headers: { 'Content-Type': 'application/json', ...init.headers },
  });
}

type FetchArgs = [input: string, init: RequestInit];

interface Harness {
  deps: ApiClientDeps;
  fetch: ReturnType<typeof vi.fn<(...args: FetchArgs) => Promise<Response>>>;
  redirect: ReturnType<typeof vi.fn>;
  storage: Map<string, string>;
  timers: { fn: () => void; ms: number }[];
  clock: { now: number };
  location: { pathname: string; search: string };
  cookies: { value: string };
}

function harness(
  respond: (input: string, init: RequestInit) => Promise<Response> | Response = () => json(user),
  { pathname = '/allrecords', search = '', cookies = 'csrftoken=tok-1' } = {},
): Harness {
  const storage = new Map<string, string>();
  const timers: Harness['timers'] = [];
  const clock = { now: 1_000_000 };
  const location = { pathname, search };
  const cookieJar = { value: cookies };
  const fetch = vi.fn(async (input: string, init: RequestInit) => respond(input, init));
  const redirect = vi.fn();
  const deps: ApiClientDeps = {
    fetch: fetch as unknown as typeof globalThis.fetch,
    readCookies: () => cookieJar.value,
    currentLocation: () => location,
    redirectToLogin: redirect,
    storage: {
      getItem: (key) => storage.get(key) ?? null,
      setItem: (key, value) => void storage.set(key, value),
      removeItem: (key) => void storage.delete(key),
    },
    now: () => clock.now,
    setTimeout: (fn, ms) => timers.push({ fn, ms }),
    clearTimeout: () => undefined,
    timeoutMs: REQUEST_TIMEOUT_MS,
    baseUrl: '',
  };
  return { deps, fetch, redirect, storage, timers, clock, location, cookies: cookieJar };
}

/** 'pending' when the promise has not settled after the queued work has run. */
async function stateOf(promise: Promise<unknown>): Promise<'resolved' | 'rejected' | 'pending'> {
  const marker = new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), 20));
  return Promise.race([
    promise.then(
      () => 'resolved' as const,
      () => 'rejected' as const,
    ),
    marker,
  ]);
}

function networkError(): Promise<Response> {
  return Promise.reject(new TypeError('Failed to fetch'));
}

describe('missing required parameters [SPEC-5.3]', () => {
  it('derives required keys from the Zod object: keys that do not accept undefined', () => {
    expect(requiredKeys(authLogin.body)).toEqual(['email_or_username', 'password']);
    expect(requiredKeys(authUserSettings.body)).toEqual([]);
    expect(requiredKeys(undefined)).toEqual([]);
  });

  it('rejects before sending when a required body key is absent', async () => {
    const h = harness();
    const client = createApiClient(h.deps);
    const call = client.callApi(authLogin, {
      body: { password: 'x' } as { email_or_username: string; password: string },
    });
    await expect(call).rejects.toThrow(
      new Error("Missing the required parameter 'email_or_username' when calling authLogin"),
    );
    expect(h.fetch).not.toHaveBeenCalled();
  });

  it('names the first required key when the whole body is absent', async () => {
    const h = harness();
    const client = createApiClient(h.deps);
    const call = (client.callApi as (c: unknown, o?: unknown) => Promise<unknown>)(
      authSessionSwitch,
    );
    await expect(call).rejects.toThrow(
      "Missing the required parameter 'id' when calling authSessionSwitch",
    );
    expect(h.fetch).not.toHaveBeenCalled();
  });

  it('rejects before sending when a required query key is absent', async () => {
    const h = harness();
    const client = createApiClient(h.deps);
    const call = client.callApi(listCall, {
      query: { alarm_notify_my_scans_orgs: ['o1'] } as {
        alarm_notify_my_scans_orgs: string[];
        alarm_notify_any_scans_orgs: string[];
      },
    });
    await expect(call).rejects.toThrow(
      "Missing the required parameter 'alarm_notify_any_scans_orgs' when calling testList",
    );
    expect(h.fetch).not.toHaveBeenCalled();
  });

  it('sends when only optional keys are absent', async () => {
    const h = harness(() => json({ degrees_unit: 'F', timezone: 'UTC' }));
    const client = createApiClient(h.deps);
    await expect(
      client.callApi(authUserSettings, { body: { degrees_unit: 'F' } }),
    ).resolves.toEqual({ degrees_unit: 'F', timezone: 'UTC' });
    expect(h.fetch).toHaveBeenCalledTimes(1);
  });
});

describe('request shape [SPEC-7.1, SPEC-7.2]', () => {
  it('sends cookies, a JSON body and the CSRF header from the csrftoken cookie', async () => {
    const h = harness(() => json(user), { cookies: 'other=1; csrftoken=tok%3D1' });
    const client = createApiClient(h.deps);
    await client.callApi(authLogin, { body: { email_or_username: 'admin', password: 'pw' } });
    const [url, init] = h.fetch.mock.calls[0]!;
    expect(url).toBe('/api/auth/login/');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('include');
    expect(init.body).toBe(JSON.stringify({ email_or_username: 'admin', password: 'pw' }));
    const headers = init.headers as Record<string, string>;
    expect(headers['Content-Type']).toBe('application/json');
    expect(headers['X-CSRFToken']).toBe('tok=1');
  });

  it("sends an upload call's body as the file's bytes under its media type [FEAT-CALIBRATION]", async () => {
    const reply = {
      calibration_pdf_id: 'c1',
      lab_pdf: {
        file_name: 'lab.pdf',
        sha256: 'ab',
        size: 5,
        uploaded_at: '2026-12-03T10:00:00.000Z',
        uploaded_by_name: 'Ada',
      },
    };
    const h = harness(() => json(reply));
    const client = createApiClient(h.deps);
    const bytes = new TextEncoder().encode('%PDF-');
    await expect(
      client.callApi(xt1CalibrationFileUpload, {
        query: { calibration_pdf_id: 'c1', file_name: 'lab.pdf' },
        body: bytes,
      }),
    ).resolves.toEqual(reply);
    const [url, init] = h.fetch.mock.calls[0]!;
    expect(url).toBe('/api/devices/xt1/calibration/file/?calibration_pdf_id=c1&file_name=lab.pdf');
    expect(init.body).toBe(bytes);
    const headers = init.headers as Record<string, string>;
    expect(headers['Content-Type']).toBe('application/pdf');
    expect(headers['X-CSRFToken']).toBe('tok-1');
  });

  it('fetches the CSRF token first when the cookie is absent', async () => {
    const h = harness(
      (input) => (input.startsWith('/api/auth/csrf/') ? json({ csrftoken: 'fresh' }) : json(user)),
      { cookies: '' },
    );
    const client = createApiClient(h.deps);
    await client.callApi(authSessionSwitch, { body: { id: 'o2' } });
    expect(h.fetch).toHaveBeenCalledTimes(2);
    expect(h.fetch.mock.calls[0]![0]).toMatch(/^\/api\/auth\/csrf\/\?_=\d+$/);
    const [url, init] = h.fetch.mock.calls[1]!;
    expect(url).toBe('/api/auth/session/');
    expect(init.method).toBe('PATCH');
    expect((init.headers as Record<string, string>)['X-CSRFToken']).toBe('fresh');
  });

  it('ensures the CSRF token ahead of time: from the cookie, or fetched once', async () => {
    const withCookie = harness();
    await expect(createApiClient(withCookie.deps).ensureCsrfToken()).resolves.toBe('tok-1');
    expect(withCookie.fetch).not.toHaveBeenCalled();
    const without = harness(() => json({ csrftoken: 'fresh' }), { cookies: '' });
    await expect(createApiClient(without.deps).ensureCsrfToken()).resolves.toBe('fresh');
    expect(without.fetch.mock.calls[0]![0]).toMatch(/^\/api\/auth\/csrf\//);
  });

  it('sends the CSRF header on GET logout (the contract marks it)', async () => {
    const h = harness(() => new Response(null, { status: 204 }));
    const client = createApiClient(h.deps);
    await client.callApi(authLogout);
    const [url, init] = h.fetch.mock.calls[0]!;
    expect(url).toMatch(/^\/api\/auth\/logout\//);
    expect(init.method).toBe('GET');
    expect((init.headers as Record<string, string>)['X-CSRFToken']).toBe('tok-1');
  });

  it('does not send the CSRF header on a GET', async () => {
    const h = harness();
    const client = createApiClient(h.deps);
    await client.callApi(authSessionGet);
    const init = h.fetch.mock.calls[0]![1];
    expect((init.headers as Record<string, string>)['X-CSRFToken']).toBeUndefined();
    expect(init.body).toBeUndefined();
    expect(init.credentials).toBe('include');
  });

  it('retries once with a fresh token when the server answers CSRF_FAILED', async () => {
    let attempts = 0;
    const h = harness((input) => {
      if (input.startsWith('/api/auth/csrf/')) return json({ csrftoken: 'rotated' });
      attempts += 1;
      return attempts === 1
        ? json(
            { code: 'CSRF_FAILED', message: 'CSRF token missing or incorrect.' },
            { status: 403 },
          )
        : json(user);
    });
    const client = createApiClient(h.deps);
    h.cookies.value = 'csrftoken=stale';
    const pending = client.callApi(authSessionSwitch, { body: { id: 'o1' } });
    await expect(pending).resolves.toMatchObject({ id: 'u1' });
    const urls = h.fetch.mock.calls.map(([url]) => url.split('?')[0]);
    expect(urls).toEqual(['/api/auth/session/', '/api/auth/csrf/', '/api/auth/session/']);
    const headers = h.fetch.mock.calls.map(
      ([, init]) => (init.headers as Record<string, string>)['X-CSRFToken'],
    );
    expect(headers).toEqual(['stale', undefined, 'rotated']);
  });

  it('passes a second CSRF_FAILED on to the caller', async () => {
    const h = harness((input) =>
      input.startsWith('/api/auth/csrf/')
        ? json({ csrftoken: 'rotated' })
        : json(
            { code: 'CSRF_FAILED', message: 'CSRF token missing or incorrect.' },
            { status: 403 },
          ),
    );
    const client = createApiClient(h.deps);
    await expect(client.callApi(authSessionSwitch, { body: { id: 'o1' } })).rejects.toMatchObject({
      status: 403,
      code: 'CSRF_FAILED',
    });
    expect(h.fetch).toHaveBeenCalledTimes(3);
  });

  it('adds a cache-busting parameter to a GET unless caching is on', async () => {
    const h = harness();
    const client = createApiClient(h.deps);
    await client.callApi(authSessionGet);
    expect(h.fetch.mock.calls[0]![0]).toBe(`/api/auth/session/?_=${h.clock.now}`);
    await client.callApi(authSessionGet, { cache: true });
    expect(h.fetch.mock.calls[1]![0]).toBe('/api/auth/session/');
  });

  it('does not add the cache-busting parameter to other methods', async () => {
    const h = harness();
    const client = createApiClient(h.deps);
    await client.callApi(authSessionSwitch, { body: { id: 'o1' } });
    expect(h.fetch.mock.calls[0]![0]).toBe('/api/auth/session/');
  });

  it('writes query parameters, repeating arrays', async () => {
    const h = harness(() => json({ id: 'x' }));
    const client = createApiClient(h.deps);
    await client.callApi(listCall, {
      query: { alarm_notify_my_scans_orgs: ['a', 'b'], alarm_notify_any_scans_orgs: ['c d'] },
    });
    expect(h.fetch.mock.calls[0]![0]).toBe(
      `/api/test/list/?alarm_notify_my_scans_orgs=a&alarm_notify_my_scans_orgs=b&alarm_notify_any_scans_orgs=c+d&_=${h.clock.now}`,
    );
  });

  it('sends the web client type and the first 120 characters of the user agent', () => {
    expect(CLIENT_TYPE).toBe('WEB');
    const agent = 'Mozilla/5.0 '.repeat(20);
    expect(mobileAppVersion(agent)).toBe(agent.slice(0, 120));
    expect(mobileAppVersion(agent)).toHaveLength(120);
    expect(mobileAppVersion('short')).toBe('short');
  });
});

describe('replies [SPEC-7.1, SPEC-7.2]', () => {
  it('parses the reply with the call schema', async () => {
    const h = harness(() => json({ ...user, extra: 'ignored' }));
    const client = createApiClient(h.deps);
    const reply = await client.callApi(authSessionGet);
    expect(reply.username).toBe('admin');
  });

  it('rejects a reply of the wrong shape with a ModelShapeError naming the field', async () => {
    const { username: _username, ...withoutUsername } = user;
    const h = harness(() => json(withoutUsername));
    const client = createApiClient(h.deps);
    const error = await client.callApi(authSessionGet).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelShapeError);
    expect((error as ModelShapeError).fields).toEqual({
      username: "Missing required field 'username'",
    });
    expect((error as Error).message).toContain("'username'");
  });

  it('yields no data on 204', async () => {
    const h = harness(() => new Response(null, { status: 204 }));
    const client = createApiClient(h.deps);
    await expect(client.callApi(authLogout)).resolves.toBeUndefined();
  });

  it('reads the x-total-count header', async () => {
    const h = harness(() => json({ id: 'x' }, { headers: { 'x-total-count': '137' } }));
    const client = createApiClient(h.deps);
    const result = await client.callApiWithTotal(listCall, {
      query: { alarm_notify_my_scans_orgs: [], alarm_notify_any_scans_orgs: [] },
    });
    expect(result).toEqual({ data: { id: 'x' }, totalCount: 137 });
  });

  it('reports no total count when the header is absent', async () => {
    const h = harness(() => json({ csrftoken: 't' }));
    const client = createApiClient(h.deps);
    await expect(client.callApiWithTotal(authCsrf)).resolves.toEqual({
      data: { csrftoken: 't' },
      totalCount: undefined,
    });
  });
});

describe('errors passed on to the caller [SPEC-8]', () => {
  it('rejects a 4xx with an ApiError carrying status, code, message and fields', async () => {
    const h = harness(
      () =>
        json(
          {
            code: 'VALIDATION_ERROR',
            message: 'Check the fields.',
            fields: { password: 'Required' },
          },
          { status: 400 },
        ),
      { pathname: '/login' },
    );
    const client = createApiClient(h.deps);
    const error = await client
      .callApi(authLogin, { body: { email_or_username: 'a', password: 'b' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'Check the fields.',
      fields: { password: 'Required' },
    });
    expect(h.redirect).not.toHaveBeenCalled();
  });

  it('rejects a 5xx without a JSON body with a generic ApiError', async () => {
    const h = harness(
      () => new Response('<html>oops</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    const client = createApiClient(h.deps);
    const error = await client.callApi(authSessionGet).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: 'HTTP_502' });
    expect((error as Error).message).toContain('502');
  });

  it('rejects a 401 on a signed-out page (login) instead of redirecting', async () => {
    const h = harness(
      () => json({ code: 'UNAUTHENTICATED', message: 'Sign in.' }, { status: 401 }),
      {
        pathname: '/login',
      },
    );
    const client = createApiClient(h.deps);
    await expect(client.callApi(authSessionGet)).rejects.toMatchObject({
      status: 401,
      code: 'UNAUTHENTICATED',
    });
    expect(h.redirect).not.toHaveBeenCalled();
  });

  it('rejects with the abort reason when the caller aborts, without redirecting', async () => {
    const h = harness(
      (_input, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () =>
            reject(new DOMException('Aborted', 'AbortError')),
          );
        }),
    );
    const client = createApiClient(h.deps);
    const controller = new AbortController();
    const pending = client.callApi(authSessionGet, { signal: controller.signal });
    controller.abort(new Error('unmounted'));
    await expect(pending).rejects.toThrow('unmounted');
    expect(h.redirect).not.toHaveBeenCalled();
  });
});

describe('401 and failures without a response [SPEC-8, SPEC-2.3, SPEC-9.6]', () => {
  it('on a guarded page, a 401 remembers the path, goes to /login and never settles', async () => {
    const h = harness(() => json({ code: 'UNAUTHENTICATED', message: 'x' }, { status: 401 }), {
      pathname: '/recorddetails/42',
      search: '?tab=alarms',
    });
    const client = createApiClient(h.deps);
    const pending = client.callApi(authSessionGet);
    expect(await stateOf(pending)).toBe('pending');
    expect(h.redirect).toHaveBeenCalledTimes(1);
    expect(h.storage.get(REDIRECT_TARGET_KEY)).toBe('/recorddetails/42?tab=alarms');
  });

  it('goes to /login at most once per 300 ms: only the first call of a burst acts', async () => {
    const h = harness(() => json({ code: 'UNAUTHENTICATED', message: 'x' }, { status: 401 }));
    const client = createApiClient(h.deps);
    const burst = [client.callApi(authSessionGet), client.callApi(authSessionGet)];
    await stateOf(Promise.all(burst));
    expect(h.redirect).toHaveBeenCalledTimes(1);
    h.location.pathname = '/alldevices';
    h.clock.now += LOGIN_REDIRECT_THROTTLE_MS - 1;
    await stateOf(client.callApi(authSessionGet));
    expect(h.redirect).toHaveBeenCalledTimes(1);
    // The burst's later calls did not overwrite the remembered path.
    expect(h.storage.get(REDIRECT_TARGET_KEY)).toBe('/allrecords');
    h.clock.now += 1;
    await stateOf(client.callApi(authSessionGet));
    expect(h.redirect).toHaveBeenCalledTimes(2);
    expect(h.storage.get(REDIRECT_TARGET_KEY)).toBe('/alldevices');
  });

  it('on a guarded page, a network failure also goes to /login and never settles', async () => {
    const h = harness(networkError, { pathname: '/configuration' });
    const client = createApiClient(h.deps);
    expect(await stateOf(client.callApi(authSessionGet))).toBe('pending');
    expect(h.redirect).toHaveBeenCalledTimes(1);
    expect(h.storage.get(REDIRECT_TARGET_KEY)).toBe('/configuration');
  });

  it('on a signed-out page, a network failure is swallowed without a redirect', async () => {
    const h = harness(networkError, { pathname: '/passwordreset/u/t' });
    const client = createApiClient(h.deps);
    const pending = client.callApi(authLogin, { body: { email_or_username: 'a', password: 'b' } });
    expect(await stateOf(pending)).toBe('pending');
    expect(h.redirect).not.toHaveBeenCalled();
    expect(h.storage.size).toBe(0);
  });

  it('times out after 60 s: aborts the request and treats it as a failure without a response', async () => {
    const h = harness(
      (_input, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () =>
            reject(new DOMException('Aborted', 'AbortError')),
          );
        }),
    );
    const client = createApiClient(h.deps);
    const pending = client.callApi(authSessionGet);
    await Promise.resolve();
    expect(h.timers).toHaveLength(1);
    expect(h.timers[0]!.ms).toBe(60_000);
    expect(h.redirect).not.toHaveBeenCalled();
    h.timers[0]!.fn();
    expect(await stateOf(pending)).toBe('pending');
    expect(h.redirect).toHaveBeenCalledTimes(1);
    expect(h.fetch.mock.calls[0]![1].signal?.aborted).toBe(true);
  });
});

describe('static text [SPEC-7.1, SPEC-7.2]', () => {
  it('fetches a same-origin text file', async () => {
    const h = harness(() => new Response('# Changelog\n', { status: 200 }));
    const client = createApiClient(h.deps);
    await expect(client.fetchStaticText('/changelog.md')).resolves.toBe('# Changelog\n');
    expect(h.fetch.mock.calls[0]![0]).toBe('/changelog.md');
  });

  it('rejects a missing file with an ApiError', async () => {
    const h = harness(() => new Response('nope', { status: 404 }));
    const client = createApiClient(h.deps);
    await expect(client.fetchStaticText('/changelog.md')).rejects.toMatchObject({ status: 404 });
  });
});
