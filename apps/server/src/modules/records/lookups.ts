import { and, asc, count, eq, inArray, max } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { records, tags, type RecordRow } from '../../db/schema-shipments';

/**
 * The records table as other modules read it (issue 12, "one owner per
 * table"): alarm-mail, alarms, audit, tag-assignment and users ask these
 * functions through the records module's index.ts instead of querying
 * `records` themselves; ingest too. Every query names the organization (the
 * server administration's counts group by it). The writes are `writes.ts`
 * (ingest's) and `record-columns.ts` (two columns other modules set).
 */

/** The organization's record row, or undefined. */
export async function findRecordRow(
  db: Db,
  organizationId: string,
  id: number,
): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(records)
    .where(and(eq(records.id, id), eq(records.organizationId, organizationId)));
  return row;
}

/** Whether the organization has the record. */
export async function recordExists(db: Db, organizationId: string, id: number): Promise<boolean> {
  const [found] = await db
    .select({ id: records.id })
    .from(records)
    .where(and(eq(records.organizationId, organizationId), eq(records.id, id)));
  return found !== undefined;
}

/** The organization's records among `ids` (id, tag). */
export async function recordTags(db: Db, organizationId: string, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: records.id, tagId: records.tagId })
    .from(records)
    .where(and(eq(records.organizationId, organizationId), inArray(records.id, [...ids])));
}

/**
 * Whether the tag is in use in its organization: it has an active record
 * there, started (running) or not yet started (configured or a shipment
 * created, waiting for the start).
 */
export async function tagHasActiveRecord(
  db: Db,
  tag: { id: number; organizationId: string },
): Promise<boolean> {
  const [row] = await db
    .select({ id: records.id })
    .from(records)
    .where(
      and(
        eq(records.organizationId, tag.organizationId),
        eq(records.tagId, tag.id),
        eq(records.active, true),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Per organization: how many records it has and when one last changed (server administration). */
export async function recordCountsByOrganization(db: Db) {
  return db
    .select({
      organizationId: records.organizationId,
      n: count(),
      latest: max(records.lastModified),
    })
    .from(records)
    .groupBy(records.organizationId);
}

/** The organization's record row, locked (ingest's changes, a change of its alarm recipients). */
export async function lockRecord(
  db: Db,
  organizationId: string,
  id: number,
): Promise<RecordRow | undefined> {
  const [row] = await db
    .select()
    .from(records)
    .where(and(eq(records.organizationId, organizationId), eq(records.id, id)))
    .for('update');
  return row;
}

/**
 * Locks the records (and first their tags) for a change that recomputes
 * them; answers the locked rows in ascending id order. Tags, then records,
 * each by ascending id: the ingest module's order, so a dismissal and an
 * upload of the same tag serialize without deadlocks.
 */
export async function lockRecordsForRecompute(
  db: Db,
  organizationId: string,
  recordIds: readonly number[],
): Promise<RecordRow[]> {
  if (recordIds.length === 0) return [];
  const owners = await db
    .select({ tagId: records.tagId })
    .from(records)
    .where(and(eq(records.organizationId, organizationId), inArray(records.id, [...recordIds])));
  const tagIds = [...new Set(owners.map((o) => o.tagId))];
  if (tagIds.length > 0) {
    await db
      .select({ id: tags.id })
      .from(tags)
      .where(inArray(tags.id, tagIds))
      .orderBy(asc(tags.id))
      .for('update');
  }
  return db
    .select()
    .from(records)
    .where(and(eq(records.organizationId, organizationId), inArray(records.id, [...recordIds])))
    .orderBy(asc(records.id))
    .for('update');
}
