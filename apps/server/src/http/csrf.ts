import { CSRF_COOKIE, CSRF_HEADER } from '@coldtrace/contract';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { AppError } from '../kernel/errors';
import { constantTimeEqual, isTokenShaped } from '../kernel/tokens';

export const STATE_CHANGING_METHODS: ReadonlySet<string> = new Set([
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
]);

const csrfFailed = (why: string) => new AppError('CSRF_FAILED', `CSRF check failed: ${why}`);

/**
 * Double-submit check plus an Origin check, for state-changing requests
 * authenticated by the session cookie or anonymous (login included):
 * - header X-CSRFToken must equal the `csrftoken` cookie (GET /api/auth/csrf/ sets it);
 * - Origin (or, without it, Referer) when present must be this host,
 *   PUBLIC_ORIGIN or one of ALLOWED_ORIGINS.
 */
export function checkCsrf(
  request: FastifyRequest,
  config: Pick<Config, 'publicOrigin' | 'allowedOrigins'>,
): void {
  checkOrigin(request, config);
  const cookie = request.cookies[CSRF_COOKIE];
  const header = request.headers[CSRF_HEADER.toLowerCase()];
  if (typeof header !== 'string' || header === '') {
    throw csrfFailed(`the ${CSRF_HEADER} header is missing; fetch GET /api/auth/csrf/ first`);
  }
  if (!isTokenShaped(cookie)) {
    throw csrfFailed(`the ${CSRF_COOKIE} cookie is missing; fetch GET /api/auth/csrf/ first`);
  }
  if (!constantTimeEqual(header, cookie)) {
    throw csrfFailed(`the ${CSRF_HEADER} header does not match the ${CSRF_COOKIE} cookie`);
  }
}

/** Hosts compared without the default ports (a proxy may or may not keep them). */
const normaliseHost = (host: string) => host.toLowerCase().replace(/:(80|443)$/, '');
const sameHost = (a: string, b: string) => normaliseHost(a) === normaliseHost(b);

function checkOrigin(
  request: FastifyRequest,
  config: Pick<Config, 'publicOrigin' | 'allowedOrigins'>,
): void {
  const origin = request.headers.origin;
  const referer = request.headers.referer;
  let claimed: string | undefined;
  if (typeof origin === 'string' && origin !== '') claimed = origin;
  else if (typeof referer === 'string' && referer !== '') claimed = referer;
  if (claimed === undefined) return;

  let url: URL;
  try {
    url = new URL(claimed);
  } catch {
    throw csrfFailed(`the request origin '${claimed}' is not allowed`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw csrfFailed(`the request origin '${claimed}' is not allowed`);
  }
  if (sameHost(url.host, request.host)) return;
  if (config.publicOrigin === url.origin || config.allowedOrigins.includes(url.origin)) return;
  throw csrfFailed(`the request origin '${url.origin}' is not allowed`);
}
