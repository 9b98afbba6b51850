import { and, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { compiledSelect } from '../../db/compiled-select';
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

/** Alarms with the usernames of who acknowledged and dismissed them (add `.where(...)`). */
export function selectAlarmViews(db: Db, selection = alarmViewSelection) {
  return db
    .select(selection)
    .from(alarms)
    .leftJoin(acknowledgedBy, eq(acknowledgedBy.id, alarms.acknowledgedByUserId))
    .leftJoin(dismissedBy, eq(dismissedBy.id, alarms.dismissedByUserId))
    .leftJoin(closedBy, eq(closedBy.id, alarms.closedByUserId))
    .leftJoin(
      ackSignature,
      // Constants in the text (no bound parameter): the list renders this select once.
      and(eq(ackSignature.alarmId, alarms.id), sql`${ackSignature.purpose} = 'ACKNOWLEDGE'`),
    )
    .leftJoin(
      closeSignature,
      and(eq(closeSignature.alarmId, alarms.id), sql`${closeSignature.purpose} = 'CLOSE'`),
    );
}

type AlarmViewRow = Awaited<ReturnType<typeof selectAlarmViews>>[number];

/** The same select, rendered once (the list: only its WHERE and order per request). */
const alarmViewsCompiled = compiledSelect<AlarmViewRow, typeof alarmViewSelection>(
  alarmViewSelection,
  selectAlarmViews,
  {
    nullable: ['signature', 'closeSignature'],
  },
);

export async function listAlarms(db: Db, organizationId: string, q: AlarmQuery) {
  // The flags as constants (the partial index of the default list is chosen by
  // them), the organization and record as parameters: a prepared statement per
  // combination, planned once by PostgreSQL.
  const where = and(
    eq(alarms.organizationId, organizationId),
    q.recordId === undefined ? undefined : eq(alarms.recordId, q.recordId),
    q.includeAcknowledged ? undefined : sql`${alarms.acknowledged} = false`,
    q.includeDismissed ? undefined : sql`${alarms.dismissed} = false`,
    q.includeClosed ? undefined : sql`${alarms.state} = 'OPEN'`,
  );
  return alarmViewsCompiled.run(
    db,
    sql`where ${where} order by ${alarms.startTime} DESC NULLS LAST, ${alarms.id} desc`,
    { prepared: true },
  );
}
