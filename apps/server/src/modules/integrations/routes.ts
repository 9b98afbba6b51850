import {
  integrationsWebhookDeliveries,
  integrationsWebhookRedeliver,
  integrationsWebhooksCreate,
  integrationsWebhooksDelete,
  integrationsWebhooksList,
  integrationsWebhooksUpdate,
} from '@coldtrace/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerCall } from '../../http/register-call';
import type { RequestContext } from '../../kernel/context';
import type { Principal } from '../../kernel/principal';
import { createIntegrationsService } from './service';

/** Webhooks (docs/decisions/webhooks.md): the calls of the Webhooks page. */
export async function integrationsRoutes(app: FastifyInstance): Promise<void> {
  const service = createIntegrationsService(app);
  const ctx = (request: FastifyRequest, principal: Principal): RequestContext => ({
    principal,
    requestId: request.id,
  });

  registerCall(app, integrationsWebhooksList, async ({ request, requirePrincipal }) =>
    service.list(ctx(request, requirePrincipal())),
  );
  registerCall(app, integrationsWebhooksCreate, async ({ request, body, requirePrincipal }) =>
    service.create(ctx(request, requirePrincipal()), body),
  );
  registerCall(
    app,
    integrationsWebhooksUpdate,
    async ({ request, body, query, requirePrincipal }) =>
      service.update(ctx(request, requirePrincipal()), query.webhook_id, body),
  );
  registerCall(app, integrationsWebhooksDelete, async ({ request, query, requirePrincipal }) =>
    service.remove(ctx(request, requirePrincipal()), query.webhook_id),
  );
  registerCall(
    app,
    integrationsWebhookDeliveries,
    async ({ request, reply, query, requirePrincipal }) => {
      const { total, items } = await service.deliveries(ctx(request, requirePrincipal()), query);
      void reply.header('x-total-count', String(total));
      return items;
    },
  );
  registerCall(app, integrationsWebhookRedeliver, async ({ request, body, requirePrincipal }) =>
    service.redeliver(ctx(request, requirePrincipal()), body.delivery_id),
  );
}
