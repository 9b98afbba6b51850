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
import type { Principal } from '../../kernel/principal';
import { createIntegrationsService, type OrganizationRequest } from './service';

/** Webhooks (docs/decisions/webhooks.md): the calls of the Webhooks page. */
export async function integrationsRoutes(app: FastifyInstance): Promise<void> {
  const service = createIntegrationsService(app);
  const ctx = (
    request: FastifyRequest,
    organizationId: string,
    principal: Principal,
  ): OrganizationRequest => ({
    organizationId,
    principal,
    requestId: request.id,
  });

  registerCall(
    app,
    integrationsWebhooksList,
    async ({ request, organizationId, requirePrincipal }) =>
      service.list(ctx(request, organizationId(), requirePrincipal())),
  );
  registerCall(
    app,
    integrationsWebhooksCreate,
    async ({ request, body, organizationId, requirePrincipal }) =>
      service.create(ctx(request, organizationId(), requirePrincipal()), body),
  );
  registerCall(
    app,
    integrationsWebhooksUpdate,
    async ({ request, body, query, organizationId, requirePrincipal }) =>
      service.update(ctx(request, organizationId(), requirePrincipal()), query.webhook_id, body),
  );
  registerCall(
    app,
    integrationsWebhooksDelete,
    async ({ request, query, organizationId, requirePrincipal }) =>
      service.remove(ctx(request, organizationId(), requirePrincipal()), query.webhook_id),
  );
  registerCall(
    app,
    integrationsWebhookDeliveries,
    async ({ request, reply, query, organizationId, requirePrincipal }) => {
      const { total, items } = await service.deliveries(
        ctx(request, organizationId(), requirePrincipal()),
        query,
      );
      void reply.header('x-total-count', String(total));
      return items;
    },
  );
  registerCall(
    app,
    integrationsWebhookRedeliver,
    async ({ request, body, organizationId, requirePrincipal }) =>
      service.redeliver(ctx(request, organizationId(), requirePrincipal()), body.delivery_id),
  );
}
