/** Pages of the integrations feature, loaded lazily by the router. */
export { WebhooksPage } from './components/webhooks-page';
