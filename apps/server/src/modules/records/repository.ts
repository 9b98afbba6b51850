import { and, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { records, type RecordRow } from '../../db/schema-shipments';
import { receiver, scannedBy, shipper } from './fields';
import { receiverOfRecord, scannerOfRecord, shipperOfRecord } from './record-views';

/**
 * Queries of the record calls (one record, its ids, actions, scans and
 * locations). Every function takes the organization and scopes every table it
 * reads to it; the lists are the lists module's.
 */

export async function listRecordReferences(db: Db, organizationId: string) {
  return db
    .select({ id: records.id, tagId: records.tagId, tagSerialNumber: records.tagSerialNumber })
    .from(records)
    .where(eq(records.organizationId, organizationId))
    .orderBy(desc(records.id));
}

/** The rows of those of `ids` that are records of the organization. */
export async function recordsByIds(
  db: Db,
  organizationId: string,
  ids: readonly number[],
): Promise<RecordRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(records)
    .where(and(eq(records.organizationId, organizationId), inArray(records.id, [...ids])));
}

/** `ids` (all records of the organization) sorted by `orderBy`. */
export async function orderRecordIds(
  db: Db,
  organizationId: string,
  ids: readonly number[],
  orderBy: SQL[],
): Promise<number[]> {
  const rows = await db
    .select({ id: records.id })
    .from(records)
    .leftJoin(shipper, shipperOfRecord)
    .leftJoin(receiver, receiverOfRecord)
    .leftJoin(scannedBy, scannerOfRecord)
    .where(and(eq(records.organizationId, organizationId), inArray(records.id, [...ids])))
    .orderBy(...orderBy, desc(records.id));
  return rows.map((r) => r.id);
}

export { findLatestRecordOfTag, findRecord } from './record-views';
export { listActions, listScansOfRecords } from './scan-views';
export { listAlarms } from './alarm-views';
export { listLocations } from './location-views';
