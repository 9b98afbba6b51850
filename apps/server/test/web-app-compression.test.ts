import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers';

/**
 * Issue 13: the build writes a `.br` and a `.gz` next to each text file
 * (apps/web/vite.config.ts); the server sends them as they are, with
 * Content-Encoding and Vary, and the plain file to a client that takes neither.
 * Each compressed copy here says which copy it is, so a reply shows which file
 * was sent (not the plain file compressed on the fly).
 */

const INDEX = '<!doctype html><title>fake app</title>';
const ASSET = 'console.log("the entry chunk");';

async function fakeDist(): Promise<string> {
  const dist = await mkdtemp(path.join(tmpdir(), 'coldtrace-web-dist-compressed-'));
  await mkdir(path.join(dist, 'assets'));
  const files: [string, string][] = [
    ['index.html', INDEX],
    ['assets/index-abc123.js', ASSET],
  ];
  for (const [name, text] of files) {
    await writeFile(path.join(dist, name), text);
    await writeFile(path.join(dist, `${name}.br`), brotliCompressSync(`${text}<!-- br -->`));
    await writeFile(path.join(dist, `${name}.gz`), gzipSync(`${text}<!-- gz -->`));
  }
  // A file the build left without compressed copies.
  await writeFile(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dist;
}

for (const compression of [true, false]) {
  describe(`precompressed web app files (COMPRESSION=${compression ? 'on' : 'off'}) [FEAT-COMPRESSION]`, () => {
    let t: TestApp;
    let webDist: string;
    beforeAll(async () => {
      webDist = await fakeDist();
      t = await createTestApp({ config: { webDist, compression } });
    });
    afterAll(async () => {
      await t.close();
      await rm(webDist, { recursive: true, force: true });
    });

    const get = (url: string, acceptEncoding?: string) =>
      t.inject({
        method: 'GET',
        url,
        headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding },
      });

    it('a hashed asset: the .br copy to a br client, still immutable, with the security headers', async () => {
      const res = await get('/assets/index-abc123.js', 'gzip, deflate, br');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(res.headers['content-type']).toMatch(/javascript/);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(`${ASSET}<!-- br -->`);
    });

    it('the .gz copy to a gzip-only client; the plain file to one that takes neither', async () => {
      const gz = await get('/assets/index-abc123.js', 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(`${ASSET}<!-- gz -->`);
      expect(gz.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      for (const accept of [undefined, 'identity', 'deflate']) {
        const plain = await get('/assets/index-abc123.js', accept);
        expect(plain.statusCode, accept).toBe(200);
        expect(plain.headers['content-encoding'], accept).toBeUndefined();
        expect(plain.body, accept).toBe(ASSET);
        // The plain file also varies with Accept-Encoding: a shared cache must not hand it to a br client.
        expect(String(plain.headers.vary), accept).toMatch(/accept-encoding/i);
      }
    });

    it('index.html, at / and as the history fallback, precompressed and not cached', async () => {
      for (const url of ['/', '/allrecords', '/recorddetails/42?x=1']) {
        const res = await get(url, 'br, gzip');
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-encoding'], url).toBe('br');
        expect(res.headers['content-type'], url).toContain('text/html');
        expect(res.headers['cache-control'], url).toBe('no-cache');
        expect(String(res.headers.vary), url).toMatch(/accept-encoding/i);
        expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(`${INDEX}<!-- br -->`);
        const gz = await get(url, 'gzip');
        expect(gunzipSync(gz.rawPayload).toString(), url).toBe(`${INDEX}<!-- gz -->`);
        expect((await get(url)).body, url).toBe(INDEX);
      }
    });

    it('a file without compressed copies: compressed on the fly only when COMPRESSION is on', async () => {
      const res = await get('/favicon.svg', 'br, gzip');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('image/svg+xml');
      expect(res.headers['content-encoding']).toBe(compression ? 'br' : undefined);
      const body = compression ? brotliDecompressSync(res.rawPayload).toString() : res.body;
      expect(body).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>');
    });

    it('HEAD answers the headers of the copy a GET would send, without a body', async () => {
      const res = await t.inject({
        method: 'HEAD',
        url: '/assets/index-abc123.js',
        headers: { 'accept-encoding': 'br' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.rawPayload.length).toBe(0);
    });

    it('a missing asset is still a 404, its .br is not guessed into existence', async () => {
      const res = await get('/assets/gone-999.js', 'br');
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    });
  });
}
