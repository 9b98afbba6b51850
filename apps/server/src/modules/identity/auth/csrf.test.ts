import { allCalls } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from '../../../../test/helpers';

const stateChanging = allCalls.filter((c) => c.method !== 'GET');

describe('CSRF protection [FEAT-ACCOUNT-SECURITY, FEAT-HTTP-SECURITY]', () => {
  let t: TestApp;
  let client: TestClient;
  beforeAll(async () => {
    t = await createTestApp({ config: { allowedOrigins: ['https://partner.example.com'] } });
    ({ client } = await t.signIn());
  });
  afterAll(() => t.close());

  it('covers at least the known state-changing calls', () => {
    expect(stateChanging.map((c) => c.operationId)).toEqual(
      expect.arrayContaining(['authLogin', 'authSessionSwitch', 'authUserSettings']),
    );
  });

  it.each(stateChanging.map((c) => [c.method, c.path] as const))(
    '%s %s without X-CSRFToken answers 403 CSRF_FAILED',
    async (method, url) => {
      const res = await client.request({ method, url, payload: {}, csrf: false });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('CSRF_FAILED');
      expect(res.json().message).toContain('X-CSRFToken');
    },
  );

  it.each(stateChanging.map((c) => [c.method, c.path] as const))(
    '%s %s from a foreign Origin answers 403 CSRF_FAILED',
    async (method, url) => {
      const res = await client.request({
        method,
        url,
        payload: {},
        headers: { origin: 'https://evil.example.net' },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'CSRF_FAILED' });
    },
  );

  it('anonymous calls are checked too (login)', async () => {
    const anonymous = t.client();
    const res = await anonymous.request({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { email_or_username: 'a', password: 'b' },
      csrf: false,
    });
    expect(res.statusCode).toBe(403);
  });

  it('a header that does not match the cookie fails', async () => {
    const res = await client.request({
      method: 'PATCH',
      url: '/api/auth/user-settings/',
      payload: { degrees_unit: 'F' },
      headers: { 'X-CSRFToken': 'A'.repeat(43) },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toContain('does not match');
  });

  it('a foreign Referer fails when there is no Origin; the own host, PUBLIC_ORIGIN and ALLOWED_ORIGINS pass', async () => {
    const patch = (headers: Record<string, string>) =>
      client.request({
        method: 'PATCH',
        url: '/api/auth/user-settings/',
        payload: { degrees_unit: 'C' },
        headers,
      });
    expect((await patch({ referer: 'https://evil.example.net/page' })).statusCode).toBe(403);
    expect((await patch({ origin: 'null' })).statusCode).toBe(403);
    expect((await patch({ origin: 'http://localhost:80' })).statusCode).toBe(200);
    expect((await patch({ origin: 'http://localhost:80', host: 'localhost:80' })).statusCode).toBe(
      200,
    );
    expect((await patch({ referer: 'http://localhost:80/settings' })).statusCode).toBe(200);
    expect((await patch({ origin: 'https://partner.example.com' })).statusCode).toBe(200);
    expect((await patch({})).statusCode).toBe(200);
  });

  it('GET /api/auth/csrf/ sets a readable csrftoken cookie and keeps a valid one', async () => {
    const fresh = t.client();
    const res = await fresh.get('/api/auth/csrf/');
    const token = res.json().csrftoken;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain(`csrftoken=${token}`);
    expect(cookie).not.toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect((await fresh.get('/api/auth/csrf/')).json().csrftoken).toBe(token);
  });

  it('GET logout from another site (no X-CSRFToken) does not end the session', async () => {
    const { client: victim } = await t.signIn();
    const forged = await victim.request({
      url: '/api/auth/logout/',
      headers: { origin: 'https://evil.example' },
      csrf: false,
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().code).toBe('CSRF_FAILED');
    const bare = await victim.request({ url: '/api/auth/logout/', csrf: false });
    expect(bare.statusCode).toBe(403);
    expect((await victim.get('/api/auth/session/')).statusCode).toBe(200);
    // With the header (as the web app sends it) the session ends.
    expect((await victim.get('/api/auth/logout/')).statusCode).toBe(204);
    expect((await victim.get('/api/auth/session/')).statusCode).toBe(401);
    // Without a session there is nothing to protect: 204 as before.
    expect((await t.client().request({ url: '/api/auth/logout/', csrf: false })).statusCode).toBe(
      204,
    );
  });
});
