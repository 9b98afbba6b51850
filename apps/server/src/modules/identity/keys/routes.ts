import { keysAuthenticate, keysGenerate, keysList, keysRevoke } from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../../http/register-call';
import { describeCredentials, generateKey, listKeys, revokeKey } from './service';

/** /api/keys/...: list, generate and revoke the organization's API keys; check a key or token. */
export async function keysRoutes(app: FastifyInstance): Promise<void> {
  registerCall(app, keysList, async ({ organizationId }) => listKeys(app.db, organizationId()));

  registerCall(app, keysGenerate, async ({ body, organizationId, requirePrincipal }) =>
    generateKey(app.db, organizationId(), requirePrincipal(), body),
  );

  registerCall(app, keysRevoke, async ({ body, organizationId }) =>
    revokeKey(app.db, organizationId(), body.prefix),
  );

  registerCall(app, keysAuthenticate, async ({ organizationId, requirePrincipal }) =>
    describeCredentials(app.db, organizationId(), requirePrincipal()),
  );
}
