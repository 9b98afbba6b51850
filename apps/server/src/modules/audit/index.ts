/**
 * The audit module's entry: the only way in from outside the module (issue 12).
 */
export { auditRoutes, presentAuditEvent, type AuditRow } from './routes';
