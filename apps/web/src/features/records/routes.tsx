/** Pages of the records feature, loaded lazily by the router. */
export { AllRecordsPage, RecordDetailPage, SearchPage } from './records-pages';
