import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFoundSaying } from '../kernel/errors';
import { sendError } from './errors';

const NOT_BUILT_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Coldtrace</title></head>
<body style="font-family: sans-serif; max-width: 40rem; margin: 4rem auto">
<h1>Coldtrace</h1>
<p>The API is running, but the web app has not been built yet.</p>
<p>Run <code>npm run build</code> in the repository (or start with <code>npm start</code>,
which builds it first), then reload this page.</p>
<p>API documentation: <a href="/api/docs/">/api/docs/</a></p>
</body></html>`;

const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/');

/**
 * Source maps are never served: they would publish the web app's whole source. The
 * production build emits none (vite.config.ts `build.sourcemap`); this keeps one
 * from an older or a debugging build in WEB_DIST private too.
 */
const isSourceMap = (pathname: string) => /\.map$/i.test(pathname);

/**
 * Serve the built web app (WEB_DIST) and the history fallback: a GET that is
 * not under /api/ and not a file answers index.html, so client-side routes
 * such as /allrecords load the app. Hashed assets under /assets/ are
 * immutable; everything else revalidates. Unknown /api/ paths (and other
 * methods) answer a JSON 404.
 *
 * The build writes a `.br` and a `.gz` next to each text file (vite.config.ts):
 * a client that accepts br gets the `.br` (else gzip the `.gz`, else the file
 * itself) with `Content-Encoding` and `Vary: accept-encoding`, index.html of
 * the history fallback included. No work per request: the files were
 * compressed once, at brotli's and gzip's best levels. A source map (`*.map`)
 * is a 404, whether or not the build left one in the folder.
 */
export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const built = existsSync(path.join(webDist, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: webDist,
      index: 'index.html',
      dotfiles: 'ignore',
      cacheControl: false,
      preCompressed: true,
      allowedPath: (pathname) => !isSourceMap(pathname),
      setHeaders: (reply, filePath) => {
        const relative = path.relative(webDist, filePath).split(path.sep).join('/');
        void reply.header(
          'cache-control',
          relative.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }

  app.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    if (isApiPath(pathname) || !isRead) {
      return sendError(reply, notFoundSaying(`No API call answers ${request.method} ${pathname}`));
    }
    // A missing hashed asset is a stale page asking for an old build: 404, not the app.
    // A source map is a 404 too, not the app (see isSourceMap).
    if (pathname.startsWith('/assets/') || isSourceMap(pathname)) {
      return sendError(reply, notFoundSaying(`No file ${pathname}`));
    }
    void reply.header('cache-control', 'no-cache');
    if (!built) return reply.type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
    return reply.sendFile('index.html');
  });
}
