/** Pages of the dashboard feature, loaded lazily by the router. */
export { DashboardPage } from './dashboard-page';
