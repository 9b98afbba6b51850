/** Pages of the KPIs feature, loaded lazily by the router. */
export { KpisPage } from './components/kpis-page';
