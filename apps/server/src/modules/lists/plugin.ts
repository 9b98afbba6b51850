/**
 * What the top of the house mounts from the lists module (`app.ts`): its routes.
 */
export { listsRoutes } from './routes';
