/**
 * What the top of the house mounts from the alarms module (`app.ts`, `workers.ts`):
 * its routes and job workers. Other modules import its entry, `index.ts`.
 */
export { alarmsRoutes, type AlarmsRoutesOptions } from './routes';
