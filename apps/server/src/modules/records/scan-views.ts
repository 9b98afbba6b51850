import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { recordActions, records, scans } from '../../db/schema-shipments';
import type { ActionView, ScanView } from './presenter';
import type { Page } from '../../kernel/paging';
import type { Paged } from './paged';
import { organizationCounts } from './statistics';

/** The records' actions and scans (the records module's repository re-exports them). */

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

function selectScanViews(db: Db) {
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

export async function listScans(
  db: Db,
  organizationId: string,
  page: Page,
): Promise<Paged<ScanView>> {
  const where = eq(scans.organizationId, organizationId);
  // Every scan of the organization: the maintained count (exact), not a count(*).
  const total = (await organizationCounts(db, organizationId)).scans;
  if (total === 0 || page.offset >= total) return { total, rows: [] };
  const rows = await selectScanViews(db)
    .where(where)
    .orderBy(desc(scans.timestamp), desc(scans.id))
    .limit(page.size)
    .offset(page.offset);
  return { total, rows };
}
