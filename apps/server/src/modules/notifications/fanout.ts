import type { FastifyInstance } from 'fastify';
import { onAlarmRaisedEmail } from '../alarm-mail/hooks';
import { ALARM_RAISED_JOB, type AlarmRaisedEvent } from './events';
import * as repo from './repository';

/**
 * The `alarm.raised` worker: one bell notification per member of the
 * organization who may see records and receive notifications, then the alarm
 * e-mails (alarm-mail module), in one transaction. Idempotent: a notification
 * is unique per (user, alarm), so a job run again makes no second one; the
 * e-mail hook keeps its own marks.
 */
export function registerAlarmFanout(app: FastifyInstance): void {
  app.jobs.work<AlarmRaisedEvent>(ALARM_RAISED_JOB, async (event) => {
    await app.db.transaction(async (tx) => {
      await repo.createNotifications(tx, event);
      await onAlarmRaisedEmail(app, tx, event);
    });
  });
}
