import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { memberships, roles, userOrgSettings, users } from '../../db/schema';
import {
  alarmMailEventAlarms,
  alarmMailEvents,
  notificationLog,
  notificationRules,
  notificationSettings,
  type AlarmMailEventRow,
  type NotificationLogRow,
  type NotificationRuleRow,
  type NotificationSettingRow,
} from '../../db/schema-alarm-mail';
import { alarms, scans, travelLocations, type AlarmRow } from '../../db/schema-shipments';

/**
 * Database access of the alarm-mail module. Every query of the calls takes
 * the organization id and scopes by it (another organization's row answers
 * 404 in the service).
 */

export type SettingValues = Omit<
  typeof notificationSettings.$inferInsert,
  'id' | 'organizationId' | 'created'
>;
export type RuleValues = Omit<
  typeof notificationRules.$inferInsert,
  'id' | 'organizationId' | 'created'
>;

type OrganizationTable = typeof notificationSettings | typeof notificationRules;

/**
 * Find, insert, update and delete of the rows of one organization in the
 * settings or the rules table, by id (another organization's id finds nothing).
 */
function organizationRows<T extends OrganizationTable>(table: T) {
  type Row = T['$inferSelect'];
  type Values = Omit<T['$inferInsert'], 'id' | 'organizationId' | 'created'>;
  // One table type for the builders: both tables have the columns used here.
  const t = table as OrganizationTable as typeof notificationSettings;
  const ofOrganization = (organizationId: string, id: number) =>
    and(eq(t.organizationId, organizationId), eq(t.id, id));
  const rows = {
    async find(db: Db, organizationId: string, id: number): Promise<Row | undefined> {
      const [row] = await db.select().from(t).where(ofOrganization(organizationId, id));
      return row as Row | undefined;
    },
    async insert(db: Db, organizationId: string, values: Values): Promise<Row> {
      const [row] = await db
        .insert(t)
        .values({ ...values, organizationId } as typeof t.$inferInsert)
        .returning();
      return row as Row;
    },
    async update(
      db: Db,
      organizationId: string,
      id: number,
      values: Partial<Values>,
    ): Promise<Row | undefined> {
      if (Object.keys(values).length === 0) return rows.find(db, organizationId, id);
      const [row] = await db
        .update(t)
        .set(values as Partial<typeof t.$inferInsert>)
        .where(ofOrganization(organizationId, id))
        .returning();
      return row as Row | undefined;
    },
    async delete(db: Db, organizationId: string, id: number): Promise<boolean> {
      const gone = await db
        .delete(t)
        .where(ofOrganization(organizationId, id))
        .returning({ id: t.id });
      return gone.length > 0;
    },
  };
  return rows;
}

// ---------------------------------------------------------------- settings

export const settingRows = organizationRows(notificationSettings);

export async function listSettings(
  db: Db,
  organizationId: string,
): Promise<NotificationSettingRow[]> {
  return db
    .select()
    .from(notificationSettings)
    .where(eq(notificationSettings.organizationId, organizationId))
    .orderBy(asc(notificationSettings.id));
}

/** The settings of a notification type that are not Disabled, oldest first. */
export async function activeSettings(
  db: Db,
  organizationId: string,
  type: NotificationSettingRow['notificationType'],
): Promise<NotificationSettingRow[]> {
  return db
    .select()
    .from(notificationSettings)
    .where(
      and(
        eq(notificationSettings.organizationId, organizationId),
        eq(notificationSettings.notificationType, type),
        inArray(notificationSettings.status, ['Enabled', 'Test']),
      ),
    )
    .orderBy(asc(notificationSettings.id));
}

// ---------------------------------------------------------------- rules

export const ruleRows = organizationRows(notificationRules);

export async function listRules(db: Db, organizationId: string): Promise<NotificationRuleRow[]> {
  return db
    .select()
    .from(notificationRules)
    .where(eq(notificationRules.organizationId, organizationId))
    .orderBy(asc(sql`lower(${notificationRules.name})`), asc(notificationRules.id));
}

// ---------------------------------------------------------------- log

export async function listLog(
  db: Db,
  organizationId: string,
  opts: { recordId?: number; limit: number; offset: number },
): Promise<{ rows: NotificationLogRow[]; total: number }> {
  const where = and(
    eq(notificationLog.organizationId, organizationId),
    opts.recordId !== undefined ? eq(notificationLog.recordId, opts.recordId) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(notificationLog)
      .where(where)
      .orderBy(desc(notificationLog.created), desc(notificationLog.id))
      .limit(opts.limit)
      .offset(opts.offset),
    db.select({ n: count() }).from(notificationLog).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function insertLogEntry(
  db: Db,
  values: typeof notificationLog.$inferInsert,
): Promise<boolean> {
  const rows = await db
    .insert(notificationLog)
    .values(values)
    .onConflictDoNothing({ target: [notificationLog.eventId, notificationLog.messageKey] })
    .returning({ id: notificationLog.id });
  return rows.length > 0;
}

// ---------------------------------------------------------------- records and people

/** The record row of the organization; locking it; setting its alarm recipients (records module). */
export {
  findRecordRow as findRecord,
  lockRecord as lockRecordRecipients,
  setAlarmRecipients,
} from '../records';

export async function locationNames(
  db: Db,
  organizationId: string,
  ids: readonly number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: travelLocations.id, name: travelLocations.name })
    .from(travelLocations)
    .where(
      and(
        eq(travelLocations.organizationId, organizationId),
        inArray(travelLocations.id, [...ids]),
      ),
    );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Whether every id is a travel location of the organization. */
export async function locationsExist(
  db: Db,
  organizationId: string,
  ids: readonly number[],
): Promise<boolean> {
  return (await locationNames(db, organizationId, ids)).size === new Set(ids).size;
}

export interface Member {
  userId: string;
  email: string;
  anyScans: boolean;
  myScans: boolean;
}

/**
 * Members of the organization who may receive notifications (not locked,
 * their role holds notifyReceive), with their alarm e-mail flags.
 */
export async function notifiableMembers(
  db: Db,
  organizationId: string,
  opts: { userIds?: readonly string[]; subscribedOnly?: boolean } = {},
): Promise<Member[]> {
  if (opts.userIds !== undefined && opts.userIds.length === 0) return [];
  const rows = await db
    .select({
      userId: users.id,
      email: users.email,
      anyScans: sql<boolean>`coalesce(${userOrgSettings.alarmNotifyAnyScans}, false)`,
      myScans: sql<boolean>`coalesce(${userOrgSettings.alarmNotifyMyScans}, false)`,
    })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(roles, eq(roles.id, memberships.roleId))
    .leftJoin(
      userOrgSettings,
      and(
        eq(userOrgSettings.userId, memberships.userId),
        eq(userOrgSettings.organizationId, memberships.organizationId),
      ),
    )
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        eq(users.isLocked, false),
        sql`'notifyReceive' = ANY(${roles.permissionNames})`,
        opts.userIds !== undefined ? inArray(users.id, [...opts.userIds]) : undefined,
        opts.subscribedOnly
          ? sql`(${userOrgSettings.alarmNotifyAnyScans} OR ${userOrgSettings.alarmNotifyMyScans})`
          : undefined,
      ),
    )
    .orderBy(asc(users.email));
  return rows;
}

/** Members of the organization among `userIds` (for rule validation). */
export async function memberIds(
  db: Db,
  organizationId: string,
  userIds: readonly string[],
): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        inArray(memberships.userId, [...userIds]),
      ),
    );
  return new Set(rows.map((r) => r.userId));
}

/** The users who made scans of the record. */
export async function scanningUserIds(db: Db, recordId: number): Promise<Set<string>> {
  const rows = await db
    .selectDistinct({ userId: scans.createdByUserId })
    .from(scans)
    .where(eq(scans.recordId, recordId));
  return new Set(rows.map((r) => r.userId).filter((id): id is string => id !== null));
}

// ---------------------------------------------------------------- events

export type EventValues = Pick<
  typeof alarmMailEvents.$inferInsert,
  'organizationId' | 'recordId' | 'notificationType' | 'eventKey' | 'occurredAt' | 'alarmIds'
>;

/** Inserts the event unless its key exists; answers the event (new or existing). */
export async function upsertEvent(db: Db, values: EventValues): Promise<AlarmMailEventRow> {
  const [inserted] = await db
    .insert(alarmMailEvents)
    .values(values)
    .onConflictDoNothing({ target: [alarmMailEvents.organizationId, alarmMailEvents.eventKey] })
    .returning();
  if (inserted) return inserted;
  const [existing] = await db
    .select()
    .from(alarmMailEvents)
    .where(
      and(
        eq(alarmMailEvents.organizationId, values.organizationId),
        eq(alarmMailEvents.eventKey, values.eventKey),
      ),
    );
  return existing!;
}

/** Locks an event, waiting for another transaction that holds it. */
export async function lockEvent(db: Db, id: number): Promise<AlarmMailEventRow | undefined> {
  const [row] = await db
    .select()
    .from(alarmMailEvents)
    .where(eq(alarmMailEvents.id, id))
    .for('update');
  return row;
}

export async function markEventProcessed(db: Db, id: number): Promise<void> {
  await db
    .update(alarmMailEvents)
    .set({ processedAt: new Date() })
    .where(eq(alarmMailEvents.id, id));
}

/**
 * Claims the alarms for the event: answers those no other event announced
 * (an alarm is e-mailed once, whichever path announced it first).
 */
export async function claimAlarms(
  db: Db,
  eventId: number,
  alarmIds: readonly number[],
): Promise<number[]> {
  if (alarmIds.length === 0) return [];
  const rows = await db
    .insert(alarmMailEventAlarms)
    .values(alarmIds.map((alarmId) => ({ alarmId, eventId })))
    .onConflictDoNothing({ target: alarmMailEventAlarms.alarmId })
    .returning({ alarmId: alarmMailEventAlarms.alarmId });
  return rows.map((r) => r.alarmId);
}

/** The alarms of the record to announce: the given ones, else every alarm that still holds. */
export async function alarmsToAnnounce(
  db: Db,
  organizationId: string,
  recordId: number,
  alarmIds: readonly number[],
): Promise<AlarmRow[]> {
  return db
    .select()
    .from(alarms)
    .where(
      and(
        eq(alarms.organizationId, organizationId),
        eq(alarms.recordId, recordId),
        alarmIds.length > 0 ? inArray(alarms.id, [...alarmIds]) : eq(alarms.state, 'OPEN'),
      ),
    )
    .orderBy(asc(alarms.id));
}

// ---------------------------------------------------------------- escalation

/**
 * A reminder's or escalation's log entry: written once per alarm, setting and
 * step (any conflict, on the event's message key or on the alarm and step,
 * writes nothing). Answers whether it was written.
 */
export async function insertEscalationEntry(
  db: Db,
  values: typeof notificationLog.$inferInsert,
): Promise<boolean> {
  const rows = await db
    .insert(notificationLog)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: notificationLog.id });
  return rows.length > 0;
}

/**
 * The alarm, locked until the caller's transaction ends: an acknowledgement
 * (which updates the row) commits before the check or after the e-mail is
 * written, never in between.
 */
export async function lockAlarm(
  db: Db,
  organizationId: string,
  alarmId: number,
): Promise<AlarmRow | undefined> {
  const [row] = await db
    .select()
    .from(alarms)
    .where(and(eq(alarms.organizationId, organizationId), eq(alarms.id, alarmId)))
    .for('update');
  return row;
}

/** The event that e-mailed the alarm first (its log entries hang from it). */
export async function eventOfAlarm(
  db: Db,
  alarmId: number,
): Promise<AlarmMailEventRow | undefined> {
  const [row] = await db
    .select({ event: alarmMailEvents })
    .from(alarmMailEventAlarms)
    .innerJoin(alarmMailEvents, eq(alarmMailEvents.id, alarmMailEventAlarms.eventId))
    .where(eq(alarmMailEventAlarms.alarmId, alarmId));
  return row?.event;
}
