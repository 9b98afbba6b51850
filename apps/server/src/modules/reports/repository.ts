import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { organizations, userSettings } from '../../db/schema';
import { auditEvents } from '../../db/schema-audit';
import { reports, type ReportRow } from '../../db/schema-reports';
import { markReportExists } from '../records';
import type { ReportAuditLine } from './report-model';

/** Reports: the rows of `reports` and what the job reads besides the records service. */

export async function insertReport(
  db: Db,
  values: typeof reports.$inferInsert,
): Promise<ReportRow> {
  const [row] = await db.insert(reports).values(values).returning();
  return row!;
}

/** A report's row without its content. */
const reportColumns = {
  id: reports.id,
  organizationId: reports.organizationId,
  recordId: reports.recordId,
  kind: reports.kind,
  status: reports.status,
  fileName: reports.fileName,
  degreesUnit: reports.degreesUnit,
  timeZone: reports.timeZone,
  createdByUserId: reports.createdByUserId,
};

/** A report of the organization, without its content. */
export async function findReport(db: Db, organizationId: string, id: string) {
  const [row] = await db
    .select(reportColumns)
    .from(reports)
    .where(and(eq(reports.organizationId, organizationId), eq(reports.id, id)));
  return row;
}

/** The job's view: the row by id alone (the job carries no organization of its own). */
export async function findReportForJob(db: Db, id: string) {
  const [row] = await db.select(reportColumns).from(reports).where(eq(reports.id, id));
  return row;
}

export async function reportContent(
  db: Db,
  organizationId: string,
  id: string,
): Promise<Buffer | null> {
  const [row] = await db
    .select({ content: reports.content })
    .from(reports)
    .where(and(eq(reports.organizationId, organizationId), eq(reports.id, id)));
  return row?.content ?? null;
}

/** Stores the file and marks the report ready, once (a re-run finds it ready and stops). */
export async function completeReport(db: Db, id: string, content: Buffer): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(reports)
      .set({
        status: 'ready',
        content,
        byteSize: content.length,
        completedAt: new Date(),
        error: null,
      })
      .where(and(eq(reports.id, id), sql`${reports.status} <> 'ready'`))
      .returning({ organizationId: reports.organizationId, recordId: reports.recordId });
    if (row) await markReportExists(tx, row.organizationId, row.recordId);
  });
}

/** Deletes the report files requested before `before` (every organization). */
export async function deleteReportsBefore(db: Db, before: Date): Promise<number> {
  const gone = await db
    .delete(reports)
    .where(lt(reports.created, before))
    .returning({ id: reports.id });
  return gone.length;
}

export async function failReport(db: Db, id: string, error: string): Promise<void> {
  await db
    .update(reports)
    .set({ status: 'failed', error, completedAt: new Date() })
    .where(and(eq(reports.id, id), sql`${reports.status} <> 'ready'`));
}

export async function reportStatus(db: Db, id: string): Promise<ReportRow['status'] | undefined> {
  const [row] = await db.select({ status: reports.status }).from(reports).where(eq(reports.id, id));
  return row?.status;
}

export async function userDisplaySettings(db: Db, userId: string) {
  const [row] = await db
    .select({ degreesUnit: userSettings.degreesUnit, timezone: userSettings.timezone })
    .from(userSettings)
    .where(eq(userSettings.userId, userId));
  return { degreesUnit: row?.degreesUnit ?? 'C', timeZone: row?.timezone ?? 'UTC' };
}

export async function organizationName(db: Db, organizationId: string): Promise<string> {
  const [row] = await db
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row?.name ?? '';
}

/** The audit entries of a record, oldest first. */
export async function recordAudit(
  db: Db,
  organizationId: string,
  recordId: number,
): Promise<ReportAuditLine[]> {
  return db
    .select({
      occurredAt: auditEvents.occurredAt,
      actorName: auditEvents.actorName,
      action: auditEvents.action,
      entityType: auditEvents.entityType,
      entityId: auditEvents.entityId,
      field: auditEvents.field,
      oldValue: auditEvents.oldValue,
      newValue: auditEvents.newValue,
      reason: auditEvents.reason,
    })
    .from(auditEvents)
    .where(and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.recordId, recordId)))
    .orderBy(asc(auditEvents.occurredAt), asc(auditEvents.id));
}
