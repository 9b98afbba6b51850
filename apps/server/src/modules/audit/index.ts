/**
 * The audit module's entry: the only way in from outside the module (issue 12).
 */
export { presentAuditEvent, type AuditRow } from './presenter';
