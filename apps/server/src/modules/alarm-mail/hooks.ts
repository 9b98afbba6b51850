import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import { processEvent } from './process-event';
import * as repo from './repository';

/**
 * Called by the alarm fan-out worker, in its transaction, when alarms are
 * raised on a record: the alarm e-mails of those alarms are written (log
 * entries and outbox rows) in that same transaction. Idempotent: the event
 * key is the record and its alarm ids, and each alarm is e-mailed by one
 * event only (`alarm_mail_event_alarms`), so a re-run job, or the ingest path
 * announcing the same alarms, sends nothing new.
 */
export async function onAlarmRaisedEmail(
  app: FastifyInstance,
  tx: Db,
  event: { organizationId: string; recordId: number; alarmIds: number[] },
): Promise<void> {
  const alarmIds = [...new Set(event.alarmIds)].sort((a, b) => a - b);
  if (alarmIds.length === 0) return;
  const row = await repo.upsertEvent(tx, {
    organizationId: event.organizationId,
    recordId: event.recordId,
    notificationType: 'Alarm',
    eventKey: `alarm:${event.recordId}:${alarmIds.join(',')}`,
    occurredAt: new Date(),
    alarmIds,
  });
  const locked = await repo.lockEvent(tx, row.id);
  if (!locked || locked.processedAt !== null) return;
  await processEvent(app, tx, locked);
}
