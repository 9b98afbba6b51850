import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** Strict-Transport-Security sent on replies to https requests: one year. */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/**
 * The CSP source that allows the map's tiles, from the Leaflet URL template the
 * web app is built with (VITE_MAP_TILE_URL): its scheme and host, a `{s}`
 * (or any placeholder) in the host's leftmost labels becoming `*.`. A relative
 * template is the app's own origin ('self' covers it): null.
 */
export function tileSource(template: string): string | null {
  const match = /^(https?):\/\/([^/?#]+)/i.exec(template.trim());
  if (!match) return null;
  const scheme = match[1]!.toLowerCase();
  const labels = match[2]!.toLowerCase().split('.');
  const lastPlaceholder = labels.reduce((at, label, i) => (label.includes('{') ? i : at), -1);
  const host =
    lastPlaceholder === -1
      ? labels.join('.')
      : ['*', ...labels.slice(lastPlaceholder + 1)].join('.');
  return `${scheme}://${host}`;
}

/**
 * The Content-Security-Policy of every reply (web app, API docs, API replies).
 * - Scripts: 'self' only. The Vite build has no inline script (one module
 *   script tag with a src); Swagger UI's page loads its scripts from files.
 * - Styles: 'self' 'unsafe-inline'. Emotion (MUI) injects <style> elements at
 *   run time, as do Leaflet and Swagger UI. A nonce would need the static
 *   index.html rendered per request and every library to pass it on; inline
 *   styles cannot run code, so scripts stay locked to our own files.
 * - Images: 'self', data: and blob: (icons, chart exports) and the tile server.
 * - No plugins, no framing by any site, forms and <base> only to this origin.
 */
export function contentSecurityPolicy(mapTileUrl: string): Record<string, string[]> {
  const tiles = tileSource(mapTileUrl);
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...(tiles ? [tiles] : [])],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'worker-src': ["'self'", 'blob:'],
    'frame-ancestors': ["'none'"],
    'frame-src': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
}

/**
 * Security headers on every reply (issue 10), with `@fastify/helmet`: the CSP
 * above, X-Content-Type-Options nosniff, X-Frame-Options DENY,
 * Referrer-Policy strict-origin-when-cross-origin (another site, e.g. the
 * map's tile server, learns our origin only: never the path, where reset and
 * welcome links carry their secret), Cross-Origin-Opener-Policy and
 * Cross-Origin-Resource-Policy same-origin. HSTS only on a request that came
 * over https (with TRUST_PROXY, a proxy's X-Forwarded-Proto says so): sent
 * over plain http it would lock a LAN install without TLS out of the browser.
 * The headers are helmet's, worked out once at start (`helmetHeaders`) and
 * set on every reply by one hook.
 */
export const securityHeaders = fp<{ mapTileUrl: string }>(
  async (app: FastifyInstance, { mapTileUrl }) => {
    const headers = Object.entries(await helmetHeaders(mapTileUrl));
    app.addHook('onRequest', (request, reply, done) => {
      for (const [name, value] of headers) reply.raw.setHeader(name, value);
      if (request.protocol === 'https') void reply.header('strict-transport-security', HSTS_VALUE);
      done();
    });
  },
  { name: 'security-headers', fastify: '5.x' },
);

/** Headers of the scratch instance's reply that are not helmet's. */
const NOT_HELMET = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive']);

/**
 * The headers `@fastify/helmet` writes with our options, asked once of a
 * scratch instance: they are the same on every reply, and the plugin builds
 * helmet's middleware (and parses the CSP) again on every request, a cost per
 * request of every call (docs/decisions/list-performance.md, "Security headers").
 */
async function helmetHeaders(mapTileUrl: string): Promise<Record<string, string>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(mapTileUrl) },
    strictTransportSecurity: false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  });
  probe.get('/', async () => '');
  const res = await probe.inject('/');
  await probe.close();
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (!NOT_HELMET.has(name) && typeof value === 'string') out[name] = value;
  }
  if (!out['content-security-policy']) throw new Error('helmet wrote no Content-Security-Policy');
  return out;
}
