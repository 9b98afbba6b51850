/** The audit writer lives in the kernel (`kernel/audit.ts`); this path stays for older imports. */
export {
  actorOf,
  changedFields,
  printedName,
  recordAudit,
  SYSTEM_ACTOR,
  type AuditActor,
  type AuditClientType,
  type AuditContext,
  type AuditEntry,
} from '../../kernel/audit';
