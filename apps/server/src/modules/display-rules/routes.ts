import {
  dataDisplayRulesCreate,
  dataDisplayRulesList,
  dataDisplayRulesUpdate,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { createDisplayRulesService } from './service';

/** GET, POST, PATCH /api/data-display-rules/ (docs/decisions/data-display-rules.md). */
export async function displayRulesRoutes(app: FastifyInstance): Promise<void> {
  const service = createDisplayRulesService(app.db);

  registerCall(app, dataDisplayRulesList, async ({ organizationId, requirePrincipal }) =>
    service.list(organizationId(), requirePrincipal()),
  );
  registerCall(
    app,
    dataDisplayRulesCreate,
    async ({ body, request, organizationId, requirePrincipal }) =>
      service.create(organizationId(), requirePrincipal(), body, request.id),
  );
  registerCall(
    app,
    dataDisplayRulesUpdate,
    async ({ body, request, organizationId, requirePrincipal }) =>
      service.update(organizationId(), requirePrincipal(), body, request.id),
  );
}
