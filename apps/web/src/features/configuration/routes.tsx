/** Lazy entry of the Configuration page (loaded by the router). */
export { ConfigurationPage } from './configuration-page';
