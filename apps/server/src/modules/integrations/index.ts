/**
 * The integrations module's entry (issue 15): webhooks. Its routes (`app.ts`)
 * and the workers of `webhook.event` and `webhook.deliver` (`jobs/workers.ts`).
 */
export { integrationsRoutes } from './routes';
export { webhookDeliverWorker, webhookEventWorker } from './service';
