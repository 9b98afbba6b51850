/** Pages of the records feature, loaded lazily by the router. */
export { AllRecordsPage } from './all-records-page';
