import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

describe('the built web app [FEAT-DEPLOYMENT, SPEC-2.1]', () => {
  let t: TestApp;
  let webDist: string;
  beforeAll(async () => {
    webDist = await mkdtemp(path.join(tmpdir(), 'coldtrace-web-dist-'));
    await mkdir(path.join(webDist, 'assets'));
    await writeFile(path.join(webDist, 'index.html'), '<!doctype html><title>fake app</title>');
    await writeFile(path.join(webDist, 'assets', 'index-abc123.js'), 'console.log(1)');
    // A source map left by a debugging build, with its precompressed copies.
    for (const name of [
      'index-abc123.js.map',
      'index-abc123.js.map.br',
      'index-abc123.js.map.gz',
    ]) {
      await writeFile(path.join(webDist, 'assets', name), '{"sources":["secret.ts"]}');
    }
    await writeFile(path.join(webDist, 'root.js.map'), '{"sources":["secret.ts"]}');
    await writeFile(path.join(webDist, 'changelog.txt'), 'v1');
    await writeFile(path.join(webDist, '.env'), 'SECRET=1');
    t = await createTestApp({ config: { webDist } });
  });
  afterAll(async () => {
    await t.close();
    await rm(webDist, { recursive: true, force: true });
  });

  it('answers index.html for client-side routes (history fallback), not cached', async () => {
    for (const url of ['/', '/allrecords', '/recorddetails/42?x=1', '/passwordreset/a/b']) {
      const res = await t.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('fake app');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers['content-type']).toContain('text/html');
    }
  });

  it('serves hashed assets as immutable and other files revalidated', async () => {
    const asset = await t.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const text = await t.inject({ method: 'GET', url: '/changelog.txt' });
    expect(text.body).toBe('v1');
    expect(text.headers['cache-control']).toBe('no-cache');
    const index = await t.inject({ method: 'GET', url: '/index.html' });
    expect(index.headers['cache-control']).toBe('no-cache');
  });

  it('a missing asset is a 404, and /api/ paths never fall back to the app', async () => {
    expect((await t.inject({ method: 'GET', url: '/assets/gone-999.js' })).statusCode).toBe(404);
    const api = await t.inject({ method: 'GET', url: '/api/unknown/' });
    expect(api.statusCode).toBe(404);
    expect(api.json().code).toBe('NOT_FOUND');
  });

  it('never serves a source map, even one the build left in the folder', async () => {
    for (const url of [
      '/assets/index-abc123.js.map',
      '/assets/index-abc123.js.MAP',
      '/assets/index-abc123.js.m%61p',
      '/assets/index-abc123.js.map?v=1',
      '/root.js.map',
      '/assets/gone-999.js.map',
    ]) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        for (const method of ['GET', 'HEAD'] as const) {
          const res = await t.inject({ method, url, headers: { 'accept-encoding': encoding } });
          expect(res.statusCode, `${method} ${url} ${encoding}`).toBe(404);
          expect(res.body).not.toContain('secret.ts');
        }
      }
    }
  });

  it('does not serve dotfiles or files outside the folder', async () => {
    for (const url of [
      '/../../../etc/passwd',
      '/..%2f..%2f..%2fetc/passwd',
      '/%2e%2e/%2e%2e/etc/passwd',
    ]) {
      const res = await t.inject({ method: 'GET', url });
      expect(res.body).not.toContain('root:');
    }
    expect((await t.inject({ method: 'GET', url: '/.env' })).body).not.toContain('SECRET');
  });

  it('a malformed URL answers a 400 in the error shape', async () => {
    for (const url of ['/%', '/api/%']) {
      const res = await t.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('BAD_REQUEST');
    }
  });
});

describe('without a built web app [FEAT-DEPLOYMENT, SPEC-2.1]', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers a page that says how to build it', async () => {
    const res = await t.inject({ method: 'GET', url: '/allrecords' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('npm run build');
  });
});
