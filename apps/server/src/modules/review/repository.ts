import { and, count, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recordDispositions, type RecordDispositionRow } from '../../db/schema-review';
import { alarms, organizationSettings } from '../../db/schema-shipments';

/** The record's alarms that still need a signature: neither acknowledged nor dismissed nor superseded. */
export async function countUnacknowledged(
  db: Db,
  organizationId: string,
  recordId: number,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(alarms)
    .where(
      and(
        eq(alarms.organizationId, organizationId),
        eq(alarms.recordId, recordId),
        eq(alarms.acknowledged, false),
        eq(alarms.dismissed, false),
        isNull(alarms.supersededBy),
      ),
    );
  return row?.n ?? 0;
}

/** Whether the organization allows a release before the trip has ended (default: no). */
export async function allowsReleaseInTransit(db: Db, organizationId: string): Promise<boolean> {
  const [row] = await db
    .select({ allowed: organizationSettings.allowReleaseInTransit })
    .from(organizationSettings)
    .where(eq(organizationSettings.organizationId, organizationId));
  return row?.allowed ?? false;
}

/** Every signed decision of the record, newest first (the first is the current one). */
export async function history(
  db: Db,
  organizationId: string,
  recordId: number,
): Promise<RecordDispositionRow[]> {
  return db
    .select()
    .from(recordDispositions)
    .where(
      and(
        eq(recordDispositions.organizationId, organizationId),
        eq(recordDispositions.recordId, recordId),
      ),
    )
    .orderBy(desc(recordDispositions.id));
}

export async function insert(
  db: Db,
  row: typeof recordDispositions.$inferInsert,
): Promise<RecordDispositionRow> {
  const [inserted] = await db.insert(recordDispositions).values(row).returning();
  return inserted!;
}
