/**
 * What the top of the house mounts from the configuration module (`app.ts`, `workers.ts`):
 * its routes and job workers. Other modules import its entry, `index.ts`.
 */
export { configurationRoutes } from './routes';
export { createConfigurationService } from './service';
