import {
  authSessionsRevokeOthers,
  authTokenCreate,
  authTokenList,
  authTokenRevoke,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../../http/register-call';
import { endOtherSessions, issueToken, listTokens, revokeToken } from './service';

/**
 * POST /api/auth/tokens/: issue a user token (the minimal way to equip a device
 * now); listing and revoking one's own tokens and ending one's other sessions
 * are additions to the spec (issue 10).
 */
export async function tokenRoutes(app: FastifyInstance): Promise<void> {
  const ttl = app.config.tokenTtlDays;

  registerCall(app, authTokenCreate, async ({ body, organizationId, requirePrincipal }) =>
    issueToken(app.db, organizationId(), requirePrincipal(), body, ttl),
  );

  registerCall(app, authTokenList, async ({ requirePrincipal }) =>
    listTokens(app.db, requirePrincipal(), ttl),
  );

  registerCall(app, authTokenRevoke, async ({ body, requirePrincipal }) => {
    await revokeToken(app.db, requirePrincipal(), body.id);
  });

  registerCall(app, authSessionsRevokeOthers, async ({ requirePrincipal }) => {
    await endOtherSessions(app.db, requirePrincipal());
  });
}
