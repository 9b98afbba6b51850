import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { loadConfig } from '../config';
import { contentSecurityPolicy, HSTS_VALUE, tileSource } from './security-headers';

/** The directives of a Content-Security-Policy header, by name. */
function directives(header: unknown): Record<string, string[]> {
  expect(typeof header).toBe('string');
  return Object.fromEntries(
    String(header)
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0] !== '')
      .map(([name, ...values]) => [name!, values]),
  );
}

function expectCommonHeaders(headers: Record<string, unknown>): void {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('DENY');
  expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['strict-transport-security']).toBeUndefined();
  const csp = directives(headers['content-security-policy']);
  expect(csp['default-src']).toEqual(["'self'"]);
  expect(csp['script-src']).toEqual(["'self'"]);
  expect(csp['frame-ancestors']).toEqual(["'none'"]);
  expect(csp['object-src']).toEqual(["'none'"]);
  expect(csp['base-uri']).toEqual(["'self'"]);
  expect(csp['form-action']).toEqual(["'self'"]);
  expect(csp['connect-src']).toEqual(["'self'"]);
  expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://*.tile.openstreetmap.org']);
}

describe('security headers [FEAT-HTTP-SECURITY]', () => {
  let t: TestApp;
  let proxied: TestApp;

  beforeAll(async () => {
    const webDist = mkdtempSync(path.join(tmpdir(), 'coldtrace-web-'));
    writeFileSync(
      path.join(webDist, 'index.html'),
      '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>',
    );
    t = await createTestApp({ config: { webDist } });
    proxied = await createTestApp({
      databaseName: t.databaseName,
      config: {
        trustProxy: ['127.0.0.1'],
        mapTileUrl: 'https://tiles.example.com/{z}/{x}/{y}.png',
      },
    });
  });
  afterAll(async () => {
    await proxied.close();
    await t.close();
  });

  it('the web app page (and its client-side routes) carries the CSP and the usual headers', async () => {
    for (const url of ['/', '/allrecords', '/passwordreset/some-uuid/some-token']) {
      const res = await t.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expectCommonHeaders(res.headers);
    }
  });

  it('API replies carry them too, errors included', async () => {
    const ok = await t.inject({ method: 'GET', url: '/api/auth/csrf/' });
    expect(ok.statusCode).toBe(200);
    expectCommonHeaders(ok.headers);
    const unauthenticated = await t.inject({ method: 'GET', url: '/api/auth/orgs/' });
    expect(unauthenticated.statusCode).toBe(401);
    expectCommonHeaders(unauthenticated.headers);
    const missing = await t.inject({ method: 'GET', url: '/api/no-such-call/' });
    expect(missing.statusCode).toBe(404);
    expectCommonHeaders(missing.headers);
  });

  it('the API docs page and its files carry the same policy (Swagger UI needs no inline script)', async () => {
    const page = await t.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expectCommonHeaders(page.headers);
    expect(page.body).not.toMatch(/<script>(?!\s*<\/script>)/);
    expect(page.body).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    const initializer = await t.inject({
      method: 'GET',
      url: '/api/docs/static/swagger-initializer.js',
    });
    expect(initializer.statusCode).toBe(200);
    expectCommonHeaders(initializer.headers);
  });

  it('HSTS only on a request that came over https (behind a trusted proxy)', async () => {
    const https = await proxied.inject({
      method: 'GET',
      url: '/api/auth/csrf/',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(https.headers['strict-transport-security']).toBe(HSTS_VALUE);
    const http = await proxied.inject({
      method: 'GET',
      url: '/api/auth/csrf/',
      headers: { 'x-forwarded-proto': 'http' },
    });
    expect(http.headers['strict-transport-security']).toBeUndefined();
    // Without TRUST_PROXY a client's own X-Forwarded-Proto is not believed.
    const forged = await t.inject({
      method: 'GET',
      url: '/api/auth/csrf/',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });

  it('the map tile host comes from the configured VITE_MAP_TILE_URL', async () => {
    const res = await proxied.inject({ method: 'GET', url: '/api/auth/csrf/' });
    const csp = directives(res.headers['content-security-policy']);
    expect(csp['img-src']).toEqual(["'self'", 'data:', 'blob:', 'https://tiles.example.com']);
  });
});

describe('tileSource [FEAT-HTTP-SECURITY]', () => {
  it('derives the CSP source of a Leaflet URL template', () => {
    expect(tileSource('https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe(
      'https://*.tile.openstreetmap.org',
    );
    expect(tileSource('https://tiles.example.com:8443/{z}/{x}/{y}.png?key=abc')).toBe(
      'https://tiles.example.com:8443',
    );
    expect(tileSource('http://tile-{s}.maps.example.org/{z}/{x}/{y}.png')).toBe(
      'http://*.maps.example.org',
    );
    expect(tileSource('/tiles/{z}/{x}/{y}.png')).toBeNull();
  });

  it('the default configuration allows the OpenStreetMap tile servers, a relative template none', () => {
    expect(contentSecurityPolicy(loadConfig({}).mapTileUrl)['img-src']).toContain(
      'https://*.tile.openstreetmap.org',
    );
    expect(contentSecurityPolicy('/tiles/{z}/{x}/{y}.png')['img-src']).toEqual([
      "'self'",
      'data:',
      'blob:',
    ]);
  });
});
