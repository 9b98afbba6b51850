import type { Db } from '../../db/client';
import { actorOf, changedFields as auditChanges, recordAudit } from '../../kernel/audit';
import type { Principal } from '../../kernel/principal';
import type { ChangeSignature } from '../signatures';

/**
 * A change that may re-evaluate trips (geo-fence, moving a travel location):
 * the request's id, the reason for change and the verified signature.
 */
export interface ReasonedChange {
  requestId: string;
  reason: string | undefined;
  signature: ChangeSignature | null;
}

/**
 * Audit entries of a configuration edit: one per field (as the API names it)
 * whose value changed between the presented rows; a creation is one entry
 * with the new definition.
 */
export async function auditConfiguration(
  tx: Db,
  organizationId: string,
  principal: Principal,
  entity: { type: string; id: number | string },
  before: Record<string, unknown> | null,
  after: Record<string, unknown>,
  reason?: string,
): Promise<void> {
  const base = {
    action: before === null ? `${entity.type}.create` : `${entity.type}.update`,
    entityType: entity.type,
    entityId: entity.id,
    reason: reason ?? null,
  };
  await recordAudit(
    tx,
    { organizationId, actor: actorOf(principal) },
    before === null
      ? [{ ...base, oldValue: null, newValue: after }]
      : auditChanges(before, after, base),
  );
}
