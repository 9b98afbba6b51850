import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { scans } from '../../db/schema-shipments';
import type { TScan } from '@coldtrace/contract';
import { pageOf, type Listed, type Page, type PageQuery } from '../../kernel/paging';
import {
  organizationCounts,
  presentScan,
  selectScanViews,
  withScanTemperatures,
  type ScanView,
} from '../records';
import type { Paged } from './paged';

/** The scan list (`GET scans/`): the organization's scans, newest first. */
export async function listScans(
  db: Db,
  organizationId: string,
  page: Page,
): Promise<Paged<ScanView>> {
  // Every scan of the organization: the maintained count (exact), not a count(*).
  const total = (await organizationCounts(db, organizationId)).scans;
  if (total === 0 || page.offset >= total) return { total, rows: [] };
  const rows = await selectScanViews(db)
    .where(eq(scans.organizationId, organizationId))
    .orderBy(desc(scans.timestamp), desc(scans.id))
    .limit(page.size)
    .offset(page.offset);
  return { total, rows };
}

/** `GET scans/`: a page of the organization's scans with the points each brought. */
export async function scansCall(
  db: Db,
  organizationId: string,
  q: PageQuery,
): Promise<Listed<TScan>> {
  const { total, rows } = await listScans(db, organizationId, pageOf(q));
  return { total, items: (await withScanTemperatures(db, rows)).map(presentScan) };
}
