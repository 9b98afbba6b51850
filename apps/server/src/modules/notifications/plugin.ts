/**
 * What the top of the house mounts from the notifications module (`app.ts`, `workers.ts`):
 * its routes and job workers. Other modules import its entry, `index.ts`.
 */
export { notificationsRoutes } from './routes';
