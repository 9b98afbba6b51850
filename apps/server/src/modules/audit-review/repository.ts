import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditEvents } from '../../db/schema-audit';
import { auditReviewClosures, auditReviewMarks } from '../../db/schema-audit-review';
import { organizations, userSettings } from '../../db/schema';
import { records } from '../../db/schema-shipments';
import type { AuditRow } from '../audit';

/**
 * The audit-trail review's reads and writes (docs/decisions/audit-review.md).
 * Every query names the organization. A month's entries are read with what
 * ranking them needs, in one statement: the record's first release entry, when
 * its trip ended, and the actor's time zone.
 */

export type MarkRow = typeof auditReviewMarks.$inferSelect;
export type ClosureRow = typeof auditReviewClosures.$inferSelect;

export interface PeriodEntry {
  row: AuditRow;
  firstReleaseEventId: number | null;
  recordEndedAt: Date | null;
  actorTimeZone: string;
}

/** Entries of people (and failed signatures, which a person caused), of the month. */
const personEntry = sql`(${auditEvents.actorUserId} IS NOT NULL OR ${auditEvents.action} IN
  ('signature.failure', 'second_factor.failure', 'second_factor.locked'))`;

const inPeriod = (organizationId: string, start: Date, end: Date) =>
  and(
    eq(auditEvents.organizationId, organizationId),
    sql`${auditEvents.occurredAt} >= ${start} AND ${auditEvents.occurredAt} < ${end}`,
  );

/** The id of the record's first release entry (a correlated subquery; `d` hides the outer table's name). */
const firstReleaseEventId = sql<number | null>`(
  SELECT min(d.id) FROM audit_events d
   WHERE d.organization_id = ${auditEvents.organizationId} AND d.record_id = ${auditEvents.recordId}
     AND d.action = 'record.disposition' AND d.new_value = '"RELEASED"'::jsonb)`;

export async function periodEntries(
  db: Db,
  organizationId: string,
  start: Date,
  end: Date,
): Promise<PeriodEntry[]> {
  const rows = await db
    .select({
      row: auditEvents,
      firstReleaseEventId: firstReleaseEventId.mapWith(Number),
      recordEndedAt: sql`least(${records.stopTime}, ${records.tripEndTime})`.mapWith(
        records.stopTime,
      ),
      timeZone: userSettings.timezone,
    })
    .from(auditEvents)
    .leftJoin(
      records,
      and(
        eq(records.organizationId, auditEvents.organizationId),
        eq(records.id, auditEvents.recordId),
      ),
    )
    .leftJoin(userSettings, eq(userSettings.userId, auditEvents.actorUserId))
    .where(and(inPeriod(organizationId, start, end), personEntry));
  return rows.map((r) => ({
    row: r.row,
    firstReleaseEventId: r.firstReleaseEventId ?? null,
    recordEndedAt: (r.recordEndedAt as Date | null) ?? null,
    actorTimeZone: r.timeZone ?? 'UTC',
  }));
}

/** Entries of the month written by the system: counted, not listed. */
export async function systemEntryCount(
  db: Db,
  organizationId: string,
  start: Date,
  end: Date,
): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(auditEvents)
    .where(and(inPeriod(organizationId, start, end), sql`NOT ${personEntry}`));
  return row?.n ?? 0;
}

export const marksOf = (db: Db, organizationId: string, period: string) =>
  db
    .select()
    .from(auditReviewMarks)
    .where(
      and(eq(auditReviewMarks.organizationId, organizationId), eq(auditReviewMarks.period, period)),
    );

export async function closureOf(
  db: Db,
  organizationId: string,
  period: string,
): Promise<ClosureRow | null> {
  const [row] = await db
    .select()
    .from(auditReviewClosures)
    .where(
      and(
        eq(auditReviewClosures.organizationId, organizationId),
        eq(auditReviewClosures.period, period),
      ),
    );
  return row ?? null;
}

export const closuresOf = (db: Db, organizationId: string, periods: string[]) =>
  db
    .select()
    .from(auditReviewClosures)
    .where(
      and(
        eq(auditReviewClosures.organizationId, organizationId),
        inArray(auditReviewClosures.period, periods),
      ),
    );

/** The ids among `ids` that are entries of the organization in the month. */
export async function entriesInPeriod(
  db: Db,
  organizationId: string,
  ids: number[],
  start: Date,
  end: Date,
): Promise<Set<number>> {
  const rows = await db
    .select({ id: auditEvents.id })
    .from(auditEvents)
    .where(and(inPeriod(organizationId, start, end), inArray(auditEvents.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/** Marks the entries not marked yet (a second mark of an entry is no mark: the first stays). */
export async function insertMarks(
  db: Db,
  marks: (typeof auditReviewMarks.$inferInsert)[],
): Promise<MarkRow[]> {
  return db.insert(auditReviewMarks).values(marks).onConflictDoNothing().returning();
}

export async function insertClosure(
  db: Db,
  closure: typeof auditReviewClosures.$inferInsert,
): Promise<ClosureRow | null> {
  const [row] = await db
    .insert(auditReviewClosures)
    .values(closure)
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

/** When the organization was created: no review is due for the months before. */
export async function organizationCreated(db: Db, organizationId: string): Promise<Date> {
  const [row] = await db
    .select({ created: organizations.created })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row?.created ?? new Date(0);
}
