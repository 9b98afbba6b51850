import type { TAuditEvent } from '@coldtrace/contract';
import type { auditEvents } from '../../db/schema-audit';

export type AuditRow = typeof auditEvents.$inferSelect;

/** An entry as the API gives it (also the audit-trail review's). */
export function presentAuditEvent(row: AuditRow): TAuditEvent {
  return {
    id: String(row.id),
    occurred_at: row.occurredAt.toISOString(),
    actor_user_id: row.actorUserId,
    actor_name: row.actorName,
    client_type: row.clientType,
    action: row.action,
    entity_type: row.entityType,
    entity_id: row.entityId,
    record_id: row.recordId === null ? null : String(row.recordId),
    field: row.field,
    old_value: row.oldValue ?? null,
    new_value: row.newValue ?? null,
    reason: row.reason,
  };
}
