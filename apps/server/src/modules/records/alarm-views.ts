import { and, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
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

/** Alarms with the usernames of who acknowledged and dismissed them (add `.where(...)`). */
export function selectAlarmViews(db: Db) {
  return db
    .select({
      alarm: alarms,
      acknowledgedBy: acknowledgedBy.username,
      dismissedBy: dismissedBy.username,
      closedBy: closedBy.username,
      signature: ackSignature,
      closeSignature,
    })
    .from(alarms)
    .leftJoin(acknowledgedBy, eq(acknowledgedBy.id, alarms.acknowledgedByUserId))
    .leftJoin(dismissedBy, eq(dismissedBy.id, alarms.dismissedByUserId))
    .leftJoin(closedBy, eq(closedBy.id, alarms.closedByUserId))
    .leftJoin(
      ackSignature,
      and(eq(ackSignature.alarmId, alarms.id), eq(ackSignature.purpose, 'ACKNOWLEDGE')),
    )
    .leftJoin(
      closeSignature,
      and(eq(closeSignature.alarmId, alarms.id), eq(closeSignature.purpose, 'CLOSE')),
    );
}

export async function listAlarms(db: Db, organizationId: string, q: AlarmQuery) {
  return selectAlarmViews(db)
    .where(
      and(
        eq(alarms.organizationId, organizationId),
        q.recordId === undefined ? undefined : eq(alarms.recordId, q.recordId),
        q.includeAcknowledged ? undefined : eq(alarms.acknowledged, false),
        q.includeDismissed ? undefined : eq(alarms.dismissed, false),
        q.includeClosed ? undefined : eq(alarms.state, 'OPEN'),
      ),
    )
    .orderBy(sql`${alarms.startTime} DESC NULLS LAST`, desc(alarms.id));
}
