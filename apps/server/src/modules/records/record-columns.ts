import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { records } from '../../db/schema-shipments';

/**
 * The two record columns other modules set (issue 12, "one owner per
 * table"): the alarm recipients (alarm-mail) and whether a report exists
 * (reports). Everything else of a record is written by ingest.
 */

/** Sets the organization's record's alarm recipients (the caller has locked the row). */
export async function setAlarmRecipients(
  db: Db,
  organizationId: string,
  id: number,
  recipients: string[],
): Promise<void> {
  await db
    .update(records)
    .set({ alarmRecipients: recipients })
    .where(and(eq(records.organizationId, organizationId), eq(records.id, id)));
}

/** Marks that the organization's record has a finished report. */
export async function markReportExists(
  db: Db,
  organizationId: string,
  recordId: number,
): Promise<void> {
  await db
    .update(records)
    .set({ reportExists: true })
    .where(and(eq(records.organizationId, organizationId), eq(records.id, recordId)));
}
