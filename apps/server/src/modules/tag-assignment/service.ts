import type { TTagAssignmentResult, TTagAssignmentUpload } from '@coldtrace/contract';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { tags } from '../../db/schema-shipments';
import { notFound } from '../../http/errors';
import { isUuid } from '../../http/ids';
import { actorOf, recordAudit, type AuditEntry } from '../audit/audit';
import type { Principal } from '../auth/principal';
import { permissionsIn } from '../auth/repository';

/**
 * Assign Tags (spec sections 2, 4, 7; domain rules section 7). Each entry is a
 * Tag id (decimal) or a serial number. A known tag joins the target
 * organization unless another organization is using it on a running record;
 * an unknown serial number is created there. A malformed entry fails. Failed
 * entries come back in `failed_ids` exactly as sent.
 */

/** A serial number: letters and digits, then also `-`, `_`, `.` or `:`, at most 64 characters. */
export const SERIAL_NUMBER = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;
const DECIMAL_ID = /^\d{1,15}$/;
/** The type of a tag created by assignment (the xt1 family; a first upload may not change it). */
export const ASSIGNED_TAG_TYPE = 'XT1_NFC_MU';

type TagRow = typeof tags.$inferSelect;

async function lockTag(tx: Db, entry: string): Promise<TagRow | undefined> {
  if (DECIMAL_ID.test(entry)) {
    const [byId] = await tx
      .select()
      .from(tags)
      .where(eq(tags.id, Number(entry)))
      .for('update');
    if (byId) return byId;
  }
  const [bySerial] = await tx
    .select()
    .from(tags)
    .where(eq(sql`${tags.serialNumber}`, entry))
    .for('update');
  return bySerial;
}

export async function assignTags(
  app: FastifyInstance,
  request: FastifyRequest,
  principal: Principal,
  body: TTagAssignmentUpload,
): Promise<TTagAssignmentResult> {
  const organizationId = body.organization_id;
  const held = isUuid(organizationId)
    ? await permissionsIn(app.db, principal.user.id, organizationId)
    : undefined;
  // Only an organization where the caller may assign tags; any other is not found.
  if (!held?.includes('sysAssignTags')) throw notFound('Organization');

  const entries = [...new Set(body.tag_ids.map((e) => e.trim()).filter((e) => e !== ''))];
  const assigned: string[] = [];
  const failed: string[] = [];
  const audit: AuditEntry[] = [];
  await app.db.transaction(async (tx) => {
    for (const entry of entries) {
      if (!SERIAL_NUMBER.test(entry)) {
        failed.push(entry);
        continue;
      }
      const tag = await lockTag(tx, entry);
      if (!tag) {
        const [created] = await tx
          .insert(tags)
          .values({ organizationId, serialNumber: entry, tagType: ASSIGNED_TAG_TYPE })
          .returning();
        audit.push({
          action: 'tag.create',
          entityType: 'tag',
          entityId: created!.id,
          field: 'serial_number',
          newValue: entry,
        });
        assigned.push(entry);
      } else if (tag.organizationId === organizationId) {
        assigned.push(entry);
      } else if (tag.running) {
        failed.push(entry);
      } else {
        await tx.update(tags).set({ organizationId }).where(eq(tags.id, tag.id));
        audit.push({
          action: 'tag.assign',
          entityType: 'tag',
          entityId: tag.id,
          field: 'organization_id',
          oldValue: tag.organizationId,
          newValue: organizationId,
        });
        assigned.push(entry);
      }
    }
    await recordAudit(
      tx,
      { organizationId, actor: actorOf(principal), requestId: request.id },
      audit,
    );
  });
  return { assigned_ids: assigned, failed_ids: failed };
}
