import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { recordActions, records, scans } from '../../db/schema-shipments';
import { readSeries } from '../../kernel/series-store';
import type { ActionView, ScanView } from './presenter';

/** The records' actions and scans. */

export async function listActions(
  db: Db,
  organizationId: string,
  recordIds: readonly number[],
): Promise<ActionView[]> {
  const rows = await db
    .select({ action: recordActions, createdByUser: users.username })
    .from(recordActions)
    .leftJoin(users, eq(users.id, recordActions.createdByUserId))
    .where(
      and(
        eq(recordActions.organizationId, organizationId),
        inArray(recordActions.recordId, [...recordIds]),
      ),
    )
    .orderBy(asc(recordActions.timestamp), asc(recordActions.id));
  return rows;
}

/** Scans with their creators and records (add `.where(…)`). */
export function selectScanViews(db: Db) {
  return db
    .select({
      scan: scans,
      createdByUser: users.username,
      /** The scan's record in the scan's organization (null: none). */
      seriesRecordId: records.id,
      recordStartSeconds: records.startTimeSeconds,
      recordStartDelay: records.startDelay,
      recordStopTime: records.stopTime,
    })
    .from(scans)
    .leftJoin(users, eq(users.id, scans.createdByUserId))
    .leftJoin(
      records,
      and(eq(records.id, scans.recordId), eq(records.organizationId, scans.organizationId)),
    )
    .$dynamic();
}

/** No later scan of the same record (by time, then id). */
const latestScanOfRecord = sql`NOT EXISTS (SELECT 1 FROM scans later WHERE later.record_id = ${scans.recordId} AND later.organization_id = ${scans.organizationId} AND (later."timestamp", later.id) > (${scans.timestamp}, ${scans.id}))`;

export async function listScansOfRecords(
  db: Db,
  organizationId: string,
  recordIds: readonly number[],
  latest: boolean,
): Promise<ScanView[]> {
  return selectScanViews(db)
    .where(
      and(
        eq(scans.organizationId, organizationId),
        inArray(scans.recordId, [...recordIds]),
        latest ? latestScanOfRecord : undefined,
      ),
    )
    .orderBy(desc(scans.timestamp), desc(scans.id));
}

/**
 * The scans with the points each brought: one read per record, of the range
 * its listed scans cover, from the record of the scan's own organization.
 */
export async function withScanTemperatures(db: Db, views: ScanView[]): Promise<ScanView[]> {
  const ranges = new Map<number, { from: number; to: number }>();
  for (const v of views) {
    const { tempsOffsetIndex: from, tempsLength: length } = v.scan;
    if (v.seriesRecordId == null || length <= 0) continue;
    const to = from + length - 1;
    const range = ranges.get(v.seriesRecordId);
    ranges.set(
      v.seriesRecordId,
      range ? { from: Math.min(range.from, from), to: Math.max(range.to, to) } : { from, to },
    );
  }
  const series = new Map<number, { from: number; values: (number | null)[] }>();
  for (const [recordId, range] of ranges) {
    series.set(recordId, { from: range.from, values: await readSeries(db, recordId, range) });
  }
  return views.map((v) => {
    const read = v.seriesRecordId == null ? undefined : series.get(v.seriesRecordId);
    if (!read) return { ...v, temperatures: [] };
    const start = v.scan.tempsOffsetIndex - read.from;
    return { ...v, temperatures: read.values.slice(start, start + v.scan.tempsLength) };
  });
}
