import { and, eq } from 'drizzle-orm';
import type { Database } from '../src/db/client';
import { records, tags, type RecordRow } from '../src/db/schema-shipments';
import { recomputeRecord } from '../src/modules/ingest';

const ofOrganization = (organizationId: string, recordId: number) =>
  and(eq(records.id, recordId), eq(records.organizationId, organizationId));

/**
 * Recompute a record of the organization from what is stored, as an upload
 * would (its tag locked, then the record), in a transaction of its own:
 * "Record not found" for another organization's record. The server
 * recomputes only inside the change that calls for it; tests use this to
 * check that a full recomputation changes nothing.
 */
export async function reevaluateRecord(
  db: Database,
  organizationId: string,
  recordId: number,
  jobs: Parameters<typeof recomputeRecord>[2]['jobs'],
): Promise<RecordRow> {
  return db.transaction(async (tx) => {
    const [found] = await tx.select().from(records).where(ofOrganization(organizationId, recordId));
    if (!found) throw new Error('Record not found');
    await tx.select({ id: tags.id }).from(tags).where(eq(tags.id, found.tagId)).for('update');
    const [record] = await tx
      .select()
      .from(records)
      .where(ofOrganization(organizationId, recordId))
      .for('update');
    if (!record) throw new Error('Record not found');
    return (await recomputeRecord(tx, record, { jobs, full: true })).record;
  });
}
