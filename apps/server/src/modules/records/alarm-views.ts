import { and, desc, eq, sql, type Placeholder } from 'drizzle-orm';
import { alias, type SelectedFields } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { jsonRow } from '../../db/json-rows';
import { preparedOnce } from '../../db/named-query';
import { users } from '../../db/schema';
import { alarmSignatures } from '../../db/schema-notifications';
import { alarms } from '../../db/schema-shipments';

/** The alarm list of the read side, with who acknowledged, dismissed and closed each alarm and its signatures. */

export interface AlarmQuery {
  recordId?: number;
  includeAcknowledged: boolean;
  includeDismissed: boolean;
  /** Also closed alarms. */
  includeClosed: boolean;
}

const acknowledgedBy = alias(users, 'acknowledged_by');
const dismissedBy = alias(users, 'dismissed_by');
const closedBy = alias(users, 'closed_by');
const ackSignature = alias(alarmSignatures, 'ack_signature');
const closeSignature = alias(alarmSignatures, 'close_signature');

/** What an alarm view selects: the alarm, who acknowledged, dismissed and closed it, its signatures. */
const alarmViewSelection = {
  alarm: alarms,
  acknowledgedBy: acknowledgedBy.username,
  dismissedBy: dismissedBy.username,
  closedBy: closedBy.username,
  signature: ackSignature,
  closeSignature,
};

const ackSignatureOfAlarm = and(
  eq(ackSignature.alarmId, alarms.id),
  sql`${ackSignature.purpose} = 'ACKNOWLEDGE'`,
);
const closeSignatureOfAlarm = and(
  eq(closeSignature.alarmId, alarms.id),
  sql`${closeSignature.purpose} = 'CLOSE'`,
);

/** Alarms with the usernames of who acknowledged and dismissed them (add `.where(...)`). */
export function selectAlarmViews(db: Db) {
  return db
    .select(alarmViewSelection)
    .from(alarms)
    .leftJoin(acknowledgedBy, eq(acknowledgedBy.id, alarms.acknowledgedByUserId))
    .leftJoin(dismissedBy, eq(dismissedBy.id, alarms.dismissedByUserId))
    .leftJoin(closedBy, eq(closedBy.id, alarms.closedByUserId))
    .leftJoin(ackSignature, ackSignatureOfAlarm)
    .leftJoin(closeSignature, closeSignatureOfAlarm);
}

type AlarmViewRow = Awaited<ReturnType<typeof selectAlarmViews>>[number];

/** The alarm view as one JSON array a row (db/json-rows.ts). */
const alarmViewRow = jsonRow<AlarmViewRow>(
  alarmViewSelection,
  ((db: Db, fields: SelectedFields) =>
    db
      .select(fields)
      .from(alarms)
      .leftJoin(acknowledgedBy, eq(acknowledgedBy.id, alarms.acknowledgedByUserId))
      .leftJoin(dismissedBy, eq(dismissedBy.id, alarms.dismissedByUserId))
      .leftJoin(closedBy, eq(closedBy.id, alarms.closedByUserId))
      .leftJoin(ackSignature, ackSignatureOfAlarm)
      .leftJoin(closeSignature, closeSignatureOfAlarm)) as never,
  { nullable: ['signature', 'closeSignature'] },
);

/**
 * The alarm list's select: the flags as constants (the partial index of the
 * default list is chosen by them), the organization and record as values.
 */
function alarmList(db: Db, q: AlarmQuery, organizationId: string | Placeholder) {
  const where = and(
    eq(alarms.organizationId, organizationId),
    q.recordId === undefined ? undefined : eq(alarms.recordId, q.recordId),
    q.includeAcknowledged ? undefined : sql`${alarms.acknowledged} = false`,
    q.includeDismissed ? undefined : sql`${alarms.dismissed} = false`,
    q.includeClosed ? undefined : sql`${alarms.state} = 'OPEN'`,
  );
  return db
    .select({ row: alarmViewRow })
    .from(alarms)
    .leftJoin(acknowledgedBy, eq(acknowledgedBy.id, alarms.acknowledgedByUserId))
    .leftJoin(dismissedBy, eq(dismissedBy.id, alarms.dismissedByUserId))
    .leftJoin(closedBy, eq(closedBy.id, alarms.closedByUserId))
    .leftJoin(ackSignature, ackSignatureOfAlarm)
    .leftJoin(closeSignature, closeSignatureOfAlarm)
    .where(where)
    .orderBy(sql`${alarms.startTime} DESC NULLS LAST`, desc(alarms.id));
}

/** A name for each combination of the flags (one text each). */
const alarmListName = (q: AlarmQuery) =>
  [
    'alarm_list',
    q.recordId === undefined ? 'all' : 'record',
    q.includeAcknowledged ? 'ack' : '',
    q.includeDismissed ? 'dismissed' : '',
    q.includeClosed ? 'closed' : '',
  ].join('_');

/** The default list (the alarm page's): prepared once. */
const DEFAULT_ALARMS: AlarmQuery = {
  includeAcknowledged: false,
  includeDismissed: false,
  includeClosed: true,
};
const defaultAlarmList = preparedOnce((db) =>
  alarmList(db, DEFAULT_ALARMS, sql.placeholder('org')).prepare(alarmListName(DEFAULT_ALARMS)),
);

/** The organization's alarms `q` asks for, newest first: a named statement per combination of the flags. */
export async function listAlarms(db: Db, organizationId: string, q: AlarmQuery) {
  const isDefault =
    q.recordId === undefined &&
    q.includeAcknowledged === DEFAULT_ALARMS.includeAcknowledged &&
    q.includeDismissed === DEFAULT_ALARMS.includeDismissed &&
    q.includeClosed === DEFAULT_ALARMS.includeClosed;
  const rows = await (isDefault
    ? defaultAlarmList(db).execute({ org: organizationId })
    : alarmList(db, q, organizationId).prepare(alarmListName(q)).execute());
  return rows.map((r) => r.row);
}
