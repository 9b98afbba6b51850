import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditEvents } from '../../db/schema-audit';
import { recordActions, scans, type RecordRow } from '../../db/schema-shipments';
import * as records from '../records';

/**
 * Scans and record actions of the ingest module: the upload stored under a
 * key (a replay) and the rows an upload writes; what an upload set aside is
 * kept in the record's audit trail (`after-stop.ts`). Scoped by the organization.
 */

export interface StoredUpload {
  kind: 'scan' | 'action';
  recordId: number | null;
  tagId: number;
  tagSerialNumber: string;
  reply: unknown;
}

/**
 * The upload already stored under this key in the organization (a replay), if
 * any: an action (with its stored reply) or a scan, in one round trip.
 */
export async function findUpload(
  db: Db,
  organizationId: string,
  uploadKey: string,
): Promise<StoredUpload | undefined> {
  const result = await db.execute<UploadColumns>(
    sql`select ${UPLOAD_COLUMNS} from (select 1) one
        left join lateral (${uploadLookup(organizationId, uploadKey)}) u on true`,
  );
  return storedUploadOf(result.rows[0]);
}

/** What {@link lockRunCandidates} finds. */
export interface RunCandidates {
  byStart: RecordRow | undefined;
  pending: RecordRow | undefined;
  laterRun: boolean;
  stored: StoredUpload | undefined;
}

/**
 * Where an upload with a start time goes, in one round trip (the tag is
 * locked), all within the organization: the tag's run with that start and
 * its pending records, both locked, whether a later run exists (the records
 * module's `lockRunCandidates`), and the upload stored under the key (looked
 * up again now that the tag's lock is held, so a twin committed meanwhile is
 * seen).
 */
export async function lockRunCandidates(
  db: Db,
  organizationId: string,
  tagId: number,
  startTimeSeconds: number,
  uploadKey: string | null,
): Promise<RunCandidates> {
  const found = await records.lockRunCandidates<UploadColumns>(
    db,
    organizationId,
    tagId,
    startTimeSeconds,
    { columns: UPLOAD_COLUMNS, lateral: uploadLookup(organizationId, uploadKey) },
  );
  const { byStart, pending, laterRun } = found;
  return { byStart, pending, laterRun, stored: storedUploadOf(found.alongside) };
}

/** The stored upload as `u_*` columns (see {@link uploadLookup}). */
export interface UploadColumns extends Record<string, unknown> {
  u_kind: 'scan' | 'action' | null;
  u_record_id: string | number | null;
  u_tag_id: string | number | null;
  u_tag_serial_number: string | null;
  u_reply: unknown;
}

export const UPLOAD_COLUMNS = sql`u.kind as u_kind, u.record_id as u_record_id, u.tag_id as u_tag_id,
  u.tag_serial_number as u_tag_serial_number, u.reply as u_reply`;

/** The action or scan stored under the key, at most one row (`left join lateral (...) u on true`). */
export function uploadLookup(organizationId: string, uploadKey: string | null): SQL {
  if (uploadKey === null) {
    return sql`select null::text as kind, null::bigint as record_id, null::bigint as tag_id,
      null::text as tag_serial_number, null::jsonb as reply where false`;
  }
  return sql`
    (select 'action' as kind, record_id, tag_id, tag_serial_number, reply
       from ${recordActions}
      where organization_id = ${organizationId} and upload_key = ${uploadKey}
      limit 1)
    union all
    (select 'scan' as kind, record_id, tag_id, tag_serial_number, null::jsonb as reply
       from ${scans}
      where organization_id = ${organizationId} and upload_key = ${uploadKey}
      limit 1)
    limit 1`;
}

export function storedUploadOf(row: UploadColumns | undefined): StoredUpload | undefined {
  if (!row || row.u_kind === null) return undefined;
  return {
    kind: row.u_kind,
    recordId: row.u_record_id === null ? null : Number(row.u_record_id),
    tagId: Number(row.u_tag_id),
    tagSerialNumber: row.u_tag_serial_number!,
    reply: row.u_kind === 'action' ? row.u_reply : null,
  };
}

/** A scan row, as a statement for a write batch. */
export function insertScanSql(db: Db, values: typeof scans.$inferInsert): SQL {
  return db.insert(scans).values(values).getSQL();
}

/** {@link insertAction} as a statement for a write batch. */
export function insertActionSql(db: Db, values: typeof recordActions.$inferInsert): SQL {
  return db.insert(recordActions).values(values).getSQL();
}

export async function insertAction(
  db: Db,
  values: typeof recordActions.$inferInsert,
): Promise<void> {
  await db.insert(recordActions).values(values);
}

/** Whether the record's audit trail already holds an entry of `action` with this new value. */
export async function auditEntryExists(
  db: Db,
  record: Pick<RecordRow, 'id' | 'organizationId'>,
  action: string,
  newValue: unknown,
): Promise<boolean> {
  const result = await db.execute(
    sql`select 1 from ${auditEvents}
         where ${auditEvents.organizationId} = ${record.organizationId}
           and ${auditEvents.recordId} = ${record.id}
           and ${auditEvents.action} = ${action}
           and ${auditEvents.newValue} = ${JSON.stringify(newValue)}::jsonb
         limit 1`,
  );
  return result.rows.length > 0;
}
