/** Pages of the changelog feature, loaded lazily by the router. */
export { ChangelogPage } from './changelog-page';
