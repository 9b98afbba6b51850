import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { alarmSignatures } from '../../db/schema-notifications';
import { alarms } from '../../db/schema-shipments';
import { selectAlarmViews } from '../records';

/**
 * Database access of the alarm actions. Every query scopes by the
 * organization. Records are locked (by the records module) in the ingest
 * module's order (tags, then records, each by ascending id), so a dismissal
 * and an upload of the same tag serialize without deadlocks.
 */

/** The organization's records among `ids` (id, tag) (records module). */
export { recordTags as findRecords } from '../records';

/** The organization's alarms among `ids` (id, record). */
export async function findAlarms(db: Db, organizationId: string, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: alarms.id, recordId: alarms.recordId })
    .from(alarms)
    .where(and(eq(alarms.organizationId, organizationId), inArray(alarms.id, [...ids])));
}

/** Which alarms a call covers: named ones, or the holding ones of whole records. */
export type AlarmScope =
  | { kind: 'alarms'; alarmIds: readonly number[] }
  | { kind: 'records'; recordIds: readonly number[] };

function scopeCondition(organizationId: string, scope: AlarmScope): SQL {
  return scope.kind === 'alarms'
    ? and(eq(alarms.organizationId, organizationId), inArray(alarms.id, [...scope.alarmIds]))!
    : and(
        eq(alarms.organizationId, organizationId),
        inArray(alarms.recordId, [...scope.recordIds]),
        eq(alarms.state, 'OPEN'),
      )!;
}

export interface Acknowledgement {
  userId: string;
  at: Date;
  comment: string;
  clientType: string;
}

/** Acknowledges the covered alarms not yet acknowledged (a first acknowledgement stays); answers them. */
export async function acknowledge(
  db: Db,
  organizationId: string,
  scope: AlarmScope,
  ack: Acknowledgement,
): Promise<{ id: number; recordId: number; supersededBy: number | null }[]> {
  const rows = await db
    .update(alarms)
    .set({
      acknowledged: true,
      acknowledgedByUserId: ack.userId,
      acknowledgedAt: ack.at,
      acknowledgeComment: ack.comment,
      acknowledgeClientType: ack.clientType,
    })
    .where(and(scopeCondition(organizationId, scope), eq(alarms.acknowledged, false)))
    .returning({ id: alarms.id, recordId: alarms.recordId, supersededBy: alarms.supersededBy });
  return rows;
}

/** The electronic signatures of freshly acknowledged alarms (one per alarm, never changed). */
export async function insertSignatures(
  db: Db,
  values: (typeof alarmSignatures.$inferInsert)[],
): Promise<void> {
  if (values.length > 0) await db.insert(alarmSignatures).values(values);
}

/** Dismisses the covered alarms not yet dismissed (a first dismissal stays). */
export async function dismiss(
  db: Db,
  organizationId: string,
  scope: AlarmScope,
  by: { userId: string; at: Date; reason: string },
): Promise<{ id: number; recordId: number }[]> {
  return db
    .update(alarms)
    .set({
      dismissed: true,
      dismissedByUserId: by.userId,
      dismissedAt: by.at,
      dismissReason: by.reason,
    })
    .where(and(scopeCondition(organizationId, scope), eq(alarms.dismissed, false)))
    .returning({ id: alarms.id, recordId: alarms.recordId });
}

/** The ids of the covered alarms (whatever their flags). */
export async function coveredIds(db: Db, organizationId: string, scope: AlarmScope) {
  const rows = await db
    .select({ id: alarms.id })
    .from(alarms)
    .where(scopeCondition(organizationId, scope));
  return rows.map((r) => r.id);
}

/**
 * The alarms `ids` name and every alarm they absorbed, at any depth (`superseded_by`
 * chains: an alarm absorbed by one that a later merge absorbed in turn), ascending.
 */
export async function withSuperseded(
  db: Db,
  organizationId: string,
  ids: readonly number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.execute<{ id: string | number }>(sql`
    WITH RECURSIVE covered(id) AS (
      SELECT a.id FROM ${alarms} a
       WHERE a.organization_id = ${organizationId}
         AND a.id IN (${sql.join(
           ids.map((id) => sql`${id}`),
           sql`, `,
         )})
      UNION
      SELECT a.id FROM ${alarms} a JOIN covered c ON a.superseded_by = c.id
       WHERE a.organization_id = ${organizationId}
    )
    SELECT id FROM covered ORDER BY id`);
  return rows.map((r) => Number(r.id));
}

/** The covered alarms with who acknowledged and dismissed them, newest excursion first. */
export async function listCovered(db: Db, organizationId: string, scope: AlarmScope) {
  return selectAlarmViews(db)
    .where(scopeCondition(organizationId, scope))
    .orderBy(sql`${alarms.startTime} DESC NULLS LAST`, desc(alarms.id));
}

/** Locks the records (and first their tags) for a change that recomputes them (records module). */
export { lockRecordsForRecompute as lockRecords } from '../records';
