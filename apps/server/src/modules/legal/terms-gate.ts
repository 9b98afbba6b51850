import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../../kernel/errors';
import { hasAgreedToActiveTerms } from './repository';

/**
 * Calls a signed-in user may make before agreeing to the active terms: the
 * session itself, signing in and out, reading the terms and privacy policy,
 * agreeing, and the password links (spec section 2: the user is taken to
 * /tou-agreement and can do nothing else until agreeing).
 */
export const TERMS_EXEMPT_PATHS: ReadonlySet<string> = new Set([
  '/api/auth/csrf/',
  '/api/auth/session/',
  '/api/auth/login/',
  '/api/auth/public-login/',
  '/api/auth/logout/',
  '/api/auth/tos/',
  '/api/auth/tos-agreement/',
  '/api/auth/privacy-policy/',
  '/api/auth/password-reset/',
  '/api/auth/password-reset-validate/',
  '/api/auth/password-reset-confirm/',
  // The invitation page's public calls (issue 34): whoever holds the link, signed in or not.
  '/api/auth/invitation-validate/',
  '/api/auth/invitation-register/',
  '/api/auth/invitation-decline/',
]);

export const TERMS_NOT_ACCEPTED_MESSAGE =
  'You must agree to the current terms of use before using Coldtrace (POST /api/auth/tos-agreement/).';

/**
 * Refuses (403 `TERMS_NOT_ACCEPTED`) every other call of a session whose user
 * has not agreed to the active terms. Runs after the call's own guard (which
 * resolved `request.principal`) and before the body is validated. Tokens and
 * API keys are machine credentials and are not gated.
 */
export const termsGate = fp(
  async (app: FastifyInstance) => {
    app.addHook('preValidation', async (request) => {
      const principal = request.principal;
      if (principal?.kind !== 'session') return;
      const path = request.routeOptions.url;
      if (path === undefined || !path.startsWith('/api/') || TERMS_EXEMPT_PATHS.has(path)) return;
      // The session lookup of this request read it already (one round trip less per request).
      const agreed =
        principal.agreedToActiveTerms ?? (await hasAgreedToActiveTerms(app.db, principal.user.id));
      if (!agreed) {
        throw new AppError('TERMS_NOT_ACCEPTED', TERMS_NOT_ACCEPTED_MESSAGE);
      }
    });
  },
  { name: 'coldtrace-terms-gate' },
);
