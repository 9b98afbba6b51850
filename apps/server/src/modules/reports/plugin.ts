/**
 * What the top of the house mounts from the reports module (`app.ts`, `workers.ts`):
 * its routes and job workers. Other modules import its entry, `index.ts`.
 */
export { reportsRoutes } from './routes';
export { reportWorker } from './worker';
