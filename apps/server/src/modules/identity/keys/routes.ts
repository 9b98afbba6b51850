import { keysAuthenticate, keysGenerate, keysList, keysRevoke } from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../../http/register-call';
import { describeCredentials, generateKey, listKeys, revokeKey } from './service';

/** /api/keys/...: list, generate and revoke the organization's API keys; check a key or token. */
export async function keysRoutes(app: FastifyInstance): Promise<void> {
  registerCall(app, keysList, async ({ requirePrincipal }) => listKeys(app.db, requirePrincipal()));

  registerCall(app, keysGenerate, async ({ body, requirePrincipal }) =>
    generateKey(app.db, requirePrincipal(), body),
  );

  registerCall(app, keysRevoke, async ({ body, requirePrincipal }) =>
    revokeKey(app.db, requirePrincipal(), body.prefix),
  );

  registerCall(app, keysAuthenticate, async ({ requirePrincipal }) =>
    describeCredentials(app.db, requirePrincipal()),
  );
}
