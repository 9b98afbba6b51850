/**
 * What the top of the house mounts from the health module (`app.ts`, `workers.ts`):
 * its routes and job workers. Other modules import its entry, `index.ts`.
 */
export { healthRoutes } from './routes';
