/**
 * The review module's entry (issue 14 item 2: release decisions): the only
 * way in from outside the module.
 */
export { reviewRoutes } from './routes';
