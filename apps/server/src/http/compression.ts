import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Replies smaller than this go out plain: a few hundred bytes fit one packet either way. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * Brotli quality of dynamic replies, measured (docs/decisions/compression.md,
 * `npm run bench -- compression`): 11 (zlib's default) takes 8 s on the 4.3 MB
 * series of a 60,000-point record; 4 (the plugin's default) 40-90 ms, which
 * halved the series replies per second at 10 clients on this 2-core machine;
 * 2 takes 20-30 ms there and is smaller still (367 kB against 417 kB), and
 * costs under 1 ms per 300 kB of ordinary JSON for 5-10 % more bytes than 4.
 */
export const BROTLI_QUALITY = 2;

/** gzip level for clients without br: zlib's default, 6. */
export const GZIP_LEVEL = 6;

/**
 * Content types worth compressing: JSON, text (CSV, Markdown, HTML) but not
 * server-sent events, JavaScript, XML and SVG. Everything else (PDF, XLSX, images,
 * octet-stream) is already compressed or opaque, and goes out as it is.
 */
export function isCompressible(contentType: string): boolean {
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  if (type === 'text/event-stream') return false;
  if (type.startsWith('text/')) return true;
  return (
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'application/javascript' ||
    type === 'application/xml' ||
    type.endsWith('+xml')
  );
}

/**
 * Compression of replies (issue 13), with `@fastify/compress`: br or gzip as
 * the client's Accept-Encoding asks (br preferred), `Vary: accept-encoding`,
 * replies under 1 KiB plain. Only replies: compressed request bodies are not
 * accepted (the body limit stays a limit on what the client sends). Register it
 * before the routes: it hooks every route added after it. Files the web app
 * serves precompressed (`.br`, `.gz`) carry their Content-Encoding already and
 * pass through untouched.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    globalDecompression: false,
    encodings: ['br', 'gzip'],
    threshold: COMPRESSION_THRESHOLD_BYTES,
    customTypes: isCompressible,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
    zlibOptions: { level: GZIP_LEVEL },
  });
}
