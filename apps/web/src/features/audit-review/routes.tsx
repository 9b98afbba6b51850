/** The audit-trail review page, loaded lazily by the router. */
export { AuditReviewPage } from './components/audit-review-page';
