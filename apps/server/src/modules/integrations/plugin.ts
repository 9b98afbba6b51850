/**
 * What the top of the house mounts from the integrations module (`app.ts`, `workers.ts`):
 * its routes and job workers. Other modules import its entry, `index.ts`.
 */
export { integrationsRoutes } from './routes';
export { webhookDeliverWorker, webhookEventWorker } from './service';
