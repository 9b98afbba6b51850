import { authTokenCreate } from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { issueToken } from './service';

/** POST /api/auth/tokens/: issue a user token (the minimal way to equip a device now). */
export async function tokenRoutes(app: FastifyInstance): Promise<void> {
  registerCall(app, authTokenCreate, async ({ body, requirePrincipal }) =>
    issueToken(app.db, requirePrincipal(), body),
  );
}
