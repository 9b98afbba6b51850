import { xt1AssignTags } from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { assignTags } from './service';

/** POST /api/devices/xt1/admin/assign-tags/ (needs sysAssignTags in the session and the target organization). */
export async function tagAssignmentRoutes(app: FastifyInstance): Promise<void> {
  registerCall(app, xt1AssignTags, async ({ request, body, requirePrincipal }) =>
    assignTags(app, request, requirePrincipal(), body),
  );
}
