/**
 * What the top of the house mounts from the tag-assignment module (`app.ts`, `workers.ts`):
 * its routes and job workers. Other modules import its entry, `index.ts`.
 */
export { tagAssignmentRoutes } from './routes';
