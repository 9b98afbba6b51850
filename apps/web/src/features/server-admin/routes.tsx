/** The server administration page, loaded lazily by the router. */
export { ServerAdminPage } from './components/server-admin-page';
