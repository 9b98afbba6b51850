import { ZErrorReply } from '@coldtrace/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestClient } from './helpers';

/** Bad input answers 4xx with a `ZErrorReply` naming the field; never a 500. */
describe('bad input [FEAT-INPUT-SAFETY, SPEC-8]', () => {
  let t: TestApp;
  let client: TestClient;

  beforeAll(async () => {
    t = await createTestApp();
    client = t.client();
    await client.csrf();
  });
  afterAll(() => t.close());

  const expectError = (
    res: { statusCode: number; json(): unknown },
    status: number,
    code: string,
  ) => {
    expect(res.statusCode).toBe(status);
    const body = ZErrorReply.parse(res.json());
    expect(body.code).toBe(code);
    return body;
  };

  it('malformed JSON: 400 INVALID_JSON', async () => {
    const res = await client.request({
      method: 'POST',
      url: '/api/auth/login/',
      payload: '{"email_or_username": "a", "password": ',
      headers: { 'content-type': 'application/json' },
    });
    const body = expectError(res, 400, 'INVALID_JSON');
    expect(body.fields).toHaveProperty('body');
  });

  it('oversized body: 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await client.request({
      method: 'POST',
      url: '/api/auth/login/',
      payload: JSON.stringify({ email_or_username: 'a', password: 'x'.repeat(1024 * 1024 + 10) }),
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('another content type: 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const res = await client.request({
      method: 'POST',
      url: '/api/auth/login/',
      payload: 'email_or_username=a&password=b',
      headers: { 'content-type': 'text/plain' },
    });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('missing field: 400 VALIDATION_ERROR naming it', async () => {
    const res = await client.post('/api/auth/login/', { email_or_username: 'someone' });
    const body = expectError(res, 400, 'VALIDATION_ERROR');
    expect(body.fields).toEqual({ password: "Missing required field 'password'" });
    expect(body.message).toContain("Missing required field 'password'");
  });

  it('wrong type: 400 VALIDATION_ERROR naming the field', async () => {
    const res = await client.post('/api/auth/login/', {
      email_or_username: 'someone',
      password: 12,
    });
    const body = expectError(res, 400, 'VALIDATION_ERROR');
    expect(body.fields?.password).toBe("Field 'password' must be a string, received number");
  });

  it('no body at all where one is required: 400 naming body', async () => {
    const res = await client.request({ method: 'POST', url: '/api/auth/login/' });
    const body = expectError(res, 400, 'VALIDATION_ERROR');
    expect(Object.keys(body.fields ?? {})).toEqual(['body']);
  });

  it('a JSON array instead of an object: 400', async () => {
    const res = await client.post('/api/auth/login/', [1, 2]);
    expectError(res, 400, 'VALIDATION_ERROR');
  });

  it('prototype pollution attempt: 400, not parsed', async () => {
    const res = await client.request({
      method: 'POST',
      url: '/api/auth/login/',
      payload: '{"__proto__": {"x": 1}, "email_or_username": "a", "password": "b"}',
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 400, 'INVALID_JSON');
  });

  it('unknown /api path: 404 NOT_FOUND JSON', async () => {
    for (const [method, url] of [
      ['GET', '/api/nothing-here/'],
      ['POST', '/api/auth/nothing/'],
      ['DELETE', '/api/auth/session/'],
      ['GET', '/api'],
    ] as const) {
      const res = await client.request({ method, url });
      expect(res.headers['content-type']).toContain('application/json');
      expectError(res, 404, 'NOT_FOUND');
    }
  });

  it('malformed cookies and ids never cause a 500', async () => {
    const odd = t.client({ headers: { cookie: 'sessionid=%%%; csrftoken=' } });
    expectError(await odd.get('/api/auth/session/'), 401, 'UNAUTHENTICATED');
    const { client: signed } = await t.signIn();
    expectError(await signed.patch('/api/auth/session/', { id: "1' or '1'='1" }), 404, 'NOT_FOUND');
    expectError(await signed.patch('/api/auth/session/', { id: 42 }), 400, 'VALIDATION_ERROR');
  });

  it('answers with security headers and a request id', async () => {
    const res = await client.get('/api/auth/csrf/');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
