import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { alarmSignatures } from '../../db/schema-notifications';
import { alarms } from '../../db/schema-shipments';

/**
 * The alarm lifecycle's writes (`lifecycle.ts`): alarms inserted, their
 * evaluated fields updated while open, closed for good, and the signatures
 * of a signed change that closed them; and whether a record has any alarm.
 */

/** Insert new alarms (answering their ids), as a statement for a {@link WriteBatch}; null: none. */
export function insertAlarmsSql(db: Db, values: (typeof alarms.$inferInsert)[]): SQL | null {
  if (values.length === 0) return null;
  return db.insert(alarms).values(values).returning({ id: alarms.id }).getSQL();
}

/** Update the evaluated fields of an open alarm; acknowledgement, dismissal and state are never written here. */
export function updateAlarmSql(
  db: Db,
  id: number,
  patch: Pick<
    typeof alarms.$inferInsert,
    | 'lastPointIdx'
    | 'degreeMinutes'
    | 'startTime'
    | 'endTime'
    | 'duration'
    | 'highThreshold'
    | 'lowThreshold'
    | 'highestRecordedTemperature'
    | 'lowestRecordedTemperature'
    | 'numberOfPoints'
  >,
): SQL {
  return db
    .update(alarms)
    .set(patch)
    .where(and(eq(alarms.id, id), eq(alarms.state, 'OPEN')))
    .getSQL();
}

/** How alarms close: when, who (null: the system), the cause and the reason. */
export interface AlarmClosing {
  closedAt: Date;
  closedByUserId: string | null;
  closeCause: string;
  closeReason: string;
  /** The alarm that absorbed it (cause MERGED). */
  supersededBy?: number;
}

/** Close open alarms for good, as a statement; null: none. */
export function closeAlarmsSql(db: Db, ids: readonly number[], closing: AlarmClosing): SQL | null {
  if (ids.length === 0) return null;
  return db
    .update(alarms)
    .set({ state: 'CLOSED', ...closing })
    .where(and(inArray(alarms.id, [...ids]), eq(alarms.state, 'OPEN')))
    .getSQL();
}

/** The signatures of a signed change that closed alarms (purpose CLOSE), one per alarm. */
export async function insertCloseSignatures(
  db: Db,
  rows: readonly Omit<typeof alarmSignatures.$inferInsert, 'purpose' | 'id'>[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(alarmSignatures).values(rows.map((r) => ({ ...r, purpose: 'CLOSE' as const })));
}

/** Whether a record has any alarm, open or closed (a regulated change then needs a reason). */
export async function recordHasAlarms(
  db: Db,
  organizationId: string,
  recordId: number,
): Promise<boolean> {
  const rows = await db
    .select({ id: alarms.id })
    .from(alarms)
    .where(and(eq(alarms.organizationId, organizationId), eq(alarms.recordId, recordId)))
    .limit(1);
  return rows.length > 0;
}
