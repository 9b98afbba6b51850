/**
 * The audit-trail review module's entry (issue 37 item 6;
 * docs/decisions/audit-review.md).
 */
export { auditReviewRoutes } from './routes';
