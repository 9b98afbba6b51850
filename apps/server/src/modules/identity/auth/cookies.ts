import { createHash } from 'node:crypto';
import { CSRF_COOKIE, SESSION_COOKIE } from '@coldtrace/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';

export { constantTimeEqual, isTokenShaped, newToken } from '../../../kernel/tokens';

/** The session row id: sha256 of the token, so a database leak does not hand out sessions. */
export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Secure when the request came over https (x-forwarded-proto counts only with TRUST_PROXY). */
const isHttps = (request: FastifyRequest) => request.protocol === 'https';

export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  expires: Date,
): void {
  void reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: isHttps(request),
    expires,
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure: isHttps(request),
  });
}

/** The CSRF cookie is readable by the page's script (not HttpOnly): it copies it into X-CSRFToken. */
export function setCsrfCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  void reply.setCookie(CSRF_COOKIE, token, {
    httpOnly: false,
    sameSite: 'lax',
    path: '/',
    secure: isHttps(request),
    maxAge: 365 * 24 * 3600,
  });
}
