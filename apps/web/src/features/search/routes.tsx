/** Pages of the search feature, loaded lazily by the router. */
export { SearchPage } from './search-page';
