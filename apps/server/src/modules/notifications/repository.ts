import { and, desc, eq, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { memberships, roles } from '../../db/schema';
import { notifications } from '../../db/schema-notifications';
import { alarms } from '../../db/schema-shipments';
import { selectAlarmViews } from '../records';

/** Database access of the bell notifications; every query scopes by the organization. */

/** Permissions a member needs to be notified: may see records, may receive notifications. */
const NOTIFIED_PERMISSIONS = ['sysDataRead', 'notifyReceive'];

/**
 * One notification per member who may be notified and per alarm of the
 * event that still exists in the organization and is neither acknowledged
 * nor superseded yet (an acknowledgement, or a merge into a longer alarm,
 * clears the bell: a fan-out that runs after it must not bring it back); existing (user, alarm) pairs are left alone. Answers how
 * many were made.
 */
export async function createNotifications(
  db: Db,
  event: { organizationId: string; recordId: number; alarmIds: readonly number[] },
): Promise<number> {
  if (event.alarmIds.length === 0) return 0;
  const result = await db.execute(sql`
    insert into ${notifications} (organization_id, user_id, alarm_id, record_id)
    select ${event.organizationId}::uuid, m.user_id, a.id, a.record_id
      from ${memberships} m
      join ${roles} r on r.id = m.role_id
      join ${alarms} a on a.organization_id = m.organization_id
     where m.organization_id = ${event.organizationId}::uuid
       and r.permission_names @> ${sql.raw(`array['${NOTIFIED_PERMISSIONS.join("','")}']::text[]`)}
       and a.record_id = ${event.recordId}
       and not a.acknowledged
       and a.superseded_by is null
       and a.id in (${sql.join(
         event.alarmIds.map((id) => sql`${id}`),
         sql`, `,
       )})
    on conflict (user_id, alarm_id) do nothing`);
  return result.rowCount ?? 0;
}

/** When the alarm happened: its first point's time, else when it was raised (the bell's order). */
export const occurredAt = sql<Date>`coalesce(${alarms.startTime}, ${alarms.created})`;

export interface NotificationQuery {
  recordId?: number;
  limit: number;
  offset: number;
}

function openOf(organizationId: string, userId: string, recordId?: number): SQL {
  return and(
    eq(notifications.organizationId, organizationId),
    eq(notifications.userId, userId),
    isNull(notifications.dismissedAt),
    recordId === undefined ? undefined : eq(notifications.recordId, recordId),
  )!;
}

/**
 * The user's notifications not dismissed, newest first (by when the alarm
 * happened, then by alarm id), with their alarms; and the total.
 */
export async function listOpen(
  db: Db,
  organizationId: string,
  userId: string,
  q: NotificationQuery,
) {
  const where = openOf(organizationId, userId, q.recordId);
  const rows = await selectAlarmViews(db)
    .innerJoin(notifications, eq(notifications.alarmId, alarms.id))
    .where(where)
    .orderBy(desc(occurredAt), desc(alarms.id))
    .limit(q.limit)
    .offset(q.offset);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(notifications)
    .where(where);
  return { rows, total: count?.n ?? 0 };
}

/** Dismisses the user's open notifications of the alarms (or of the records). */
export async function dismissForUser(
  db: Db,
  organizationId: string,
  userId: string,
  scope: { alarmIds: readonly number[] } | { recordIds: readonly number[] },
  at: Date,
): Promise<number[]> {
  const which =
    'alarmIds' in scope
      ? scope.alarmIds.length === 0
        ? undefined
        : inArray(notifications.alarmId, [...scope.alarmIds])
      : scope.recordIds.length === 0
        ? undefined
        : inArray(notifications.recordId, [...scope.recordIds]);
  if (which === undefined) return [];
  const rows = await db
    .update(notifications)
    .set({ dismissedAt: at })
    .where(and(openOf(organizationId, userId), which))
    .returning({ alarmId: notifications.alarmId });
  return rows.map((r) => r.alarmId);
}

/**
 * Acknowledging clears the bell: every user's open notifications of the
 * alarms are dismissed (in the acknowledgement's transaction). Answers how
 * many were cleared.
 */
export async function clearForAlarms(
  db: Db,
  organizationId: string,
  alarmIds: readonly number[],
  at: Date,
): Promise<number> {
  if (alarmIds.length === 0) return 0;
  const rows = await db
    .update(notifications)
    .set({ dismissedAt: at })
    .where(
      and(
        eq(notifications.organizationId, organizationId),
        inArray(notifications.alarmId, [...alarmIds]),
        isNull(notifications.dismissedAt),
      ),
    )
    .returning({ id: notifications.id });
  return rows.length;
}
