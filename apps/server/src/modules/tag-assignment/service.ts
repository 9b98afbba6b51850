import type { TTagAssignmentResult, TTagAssignmentUpload } from '@coldtrace/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import type { TagRow } from '../../db/schema-shipments';
import { notFound } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { actorOf, recordAudit, type AuditEntry } from '../../kernel/audit';
import type { Principal } from '../../kernel/principal';
import { permissionsIn } from '../identity';
import * as repo from './repository';

/**
 * Assign Tags (spec sections 2, 4, 7; domain rules section 7;
 * docs/decisions/administration.md). Each entry is a Tag id (decimal) or a
 * serial number; a serial number names a tag within an organization. An
 * entry succeeds when its tag is in the target organization already; when it
 * is a serial number the target does not have (created there, whatever other
 * organizations have); or when its tag (by id or serial number) is in another
 * organization the caller may take tags from and not in use there (moved).
 * The caller may take tags from the organizations where they hold
 * sysAssignTags; a server administrator from any. Every other entry fails
 * (`failed_ids`, exactly as sent), and the reply says no more than that: a
 * tag of an organization out of reach, one in use there, an unknown tag id
 * and a malformed entry fail alike.
 */

/** A serial number: letters and digits, then also `-`, `_`, `.` or `:`, at most 64 characters. */
export const SERIAL_NUMBER = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
const DECIMAL_ID = /^\d{1,15}$/;
/** The type of a tag created by assignment (the xt1 family; a first upload may not change it). */
export const ASSIGNED_TAG_TYPE = 'XT1_NFC_MU';
/** How each organization's audit trail names the other one of a move (never by id or name). */
export const ANOTHER_ORGANIZATION = '(another organization)';

interface Assignment {
  target: string;
  /** The organizations tags may be taken from (the target among them); null: any. */
  reach: readonly string[] | null;
  /** Audit entries by organization. */
  audit: Map<string, AuditEntry[]>;
}

function audit(a: Assignment, organizationId: string, entry: AuditEntry): void {
  const entries = a.audit.get(organizationId) ?? [];
  entries.push(entry);
  a.audit.set(organizationId, entries);
}

/** Move a tag of another organization in reach into the target, unless in use or its serial is taken. */
async function move(tx: Db, a: Assignment, tag: TagRow): Promise<boolean> {
  if (tag.running || (await repo.tagInUse(tx, tag))) return false;
  if (!(await repo.moveTag(tx, tag, a.target))) return false;
  const base = { entityType: 'tag', entityId: tag.id, field: 'organization_id' } as const;
  audit(a, tag.organizationId, {
    ...base,
    action: 'tag.release',
    oldValue: tag.organizationId,
    newValue: ANOTHER_ORGANIZATION,
  });
  audit(a, a.target, {
    ...base,
    action: 'tag.assign',
    oldValue: ANOTHER_ORGANIZATION,
    newValue: a.target,
  });
  return true;
}

/** One well-formed entry: whether it is now a tag of the target organization. */
async function assignEntry(tx: Db, a: Assignment, entry: string): Promise<boolean> {
  if (DECIMAL_ID.test(entry)) {
    const byId = await repo.lockTagByIdIn(tx, Number(entry), a.reach);
    if (byId) return byId.organizationId === a.target || move(tx, a, byId);
  }
  const bySerial = await repo.lockTagsBySerialIn(tx, entry, a.reach);
  if (bySerial.some((t) => t.organizationId === a.target)) return true;
  // Several organizations in reach have that serial number: which one is meant is unclear.
  if (bySerial.length > 1) return false;
  if (bySerial.length === 1) return move(tx, a, bySerial[0]!);
  // Digits that are no tag id in reach are not taken for a serial number to create.
  if (DECIMAL_ID.test(entry)) return false;
  const created = await repo.insertTag(tx, {
    organizationId: a.target,
    serialNumber: entry,
    tagType: ASSIGNED_TAG_TYPE,
  });
  // None: the target got that serial number meanwhile (assigned all the same).
  if (created) {
    audit(a, a.target, {
      action: 'tag.create',
      entityType: 'tag',
      entityId: created.id,
      field: 'serial_number',
      newValue: entry,
    });
  }
  return true;
}

export async function assignTags(
  app: FastifyInstance,
  request: FastifyRequest,
  principal: Principal,
  body: TTagAssignmentUpload,
): Promise<TTagAssignmentResult> {
  const target = body.organization_id;
  const held = isUuid(target) ? await permissionsIn(app.db, principal.user.id, target) : undefined;
  // Only an organization where the caller may assign tags; any other is not found.
  if (!held?.includes('sysAssignTags')) throw notFound('Organization');
  // A server administrator (signed in, or with a user token; never an API key) reaches every organization.
  const serverAdmin = principal.user.isServerAdmin && principal.kind !== 'api-key';

  const entries = [...new Set(body.tag_ids.map((e) => e.trim()).filter((e) => e !== ''))];
  const assigned: string[] = [];
  const failed: string[] = [];
  await app.db.transaction(async (tx) => {
    const a: Assignment = {
      target,
      reach: serverAdmin ? null : await repo.organizationsAssigningTags(tx, principal.user.id),
      audit: new Map(),
    };
    for (const entry of entries) {
      const ok = SERIAL_NUMBER.test(entry) && (await assignEntry(tx, a, entry));
      (ok ? assigned : failed).push(entry);
    }
    const actor = actorOf(principal);
    for (const [organizationId, entries] of a.audit) {
      await recordAudit(tx, { organizationId, actor, requestId: request.id }, entries);
    }
  });
  return { assigned_ids: assigned, failed_ids: failed };
}
