import {
  integrationsWebhookDeliveries,
  integrationsWebhookRedeliver,
  integrationsWebhooksCreate,
  integrationsWebhooksDelete,
  integrationsWebhooksList,
  integrationsWebhooksUpdate,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { createIntegrationsService } from './service';

/** Webhooks (docs/decisions/webhooks.md): the calls of the Webhooks page. */
export async function integrationsRoutes(app: FastifyInstance): Promise<void> {
  const service = createIntegrationsService(app);

  registerCall(app, integrationsWebhooksList, async ({ organizationRequest }) =>
    service.list(organizationRequest()),
  );
  registerCall(app, integrationsWebhooksCreate, async ({ body, organizationRequest }) =>
    service.create(organizationRequest(), body),
  );
  registerCall(app, integrationsWebhooksUpdate, async ({ body, query, organizationRequest }) =>
    service.update(organizationRequest(), query.webhook_id, body),
  );
  registerCall(app, integrationsWebhooksDelete, async ({ query, organizationRequest }) =>
    service.remove(organizationRequest(), query.webhook_id),
  );
  registerCall(
    app,
    integrationsWebhookDeliveries,
    async ({ reply, query, organizationRequest }) => {
      const { total, items } = await service.deliveries(organizationRequest(), query);
      void reply.header('x-total-count', String(total));
      return items;
    },
  );
  registerCall(app, integrationsWebhookRedeliver, async ({ body, organizationRequest }) =>
    service.redeliver(organizationRequest(), body.delivery_id),
  );
}
