/**
 * The KPIs module's entry (issue 15 item 4: lane and carrier KPIs): the only
 * way in from outside the module.
 */
export { kpisRoutes } from './routes';
