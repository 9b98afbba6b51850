/**
 * What the top of the house mounts from the evidence module (`app.ts`, `workers.ts`):
 * its routes and job workers. Other modules import its entry, `index.ts`.
 */
export { evidenceRoutes } from './routes';
