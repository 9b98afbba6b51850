import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client';
import type { NotificationSettingRow } from '../../db/schema-alarm-mail';
import type { AlarmRow } from '../../db/schema-shipments';
import {
  ALARM_ESCALATION_JOB,
  publish,
  type EscalationStep,
  type JobData,
} from '../../jobs/catalogue';
import { queueMail } from '../mail';
import { ESCALATION_BODY, ESCALATION_SUBJECTS, renderTemplate, subjectLine } from './compose';
import { templateValues } from './template-values';
import * as repo from './repository';

/**
 * Escalation (issue 14, docs/decisions/escalation.md). When an alarm is
 * e-mailed, each matching Alarm setting with `remind_after_minutes` or
 * `escalate_after_minutes` schedules one `alarm.escalate` job per step, in the
 * transaction that writes the alarm's e-mails, to start that many minutes
 * after the alarm was raised (pg-boss keeps it in the database: a restart
 * delays it, never loses it). At its time the job sends the step unless the
 * alarm was acknowledged or dismissed. Exactly once: the step's log entry is
 * unique per alarm, setting and step, and its e-mail is queued in the same
 * transaction with a dedupe key, so a job that runs twice sends once.
 */

const delayOf = (setting: NotificationSettingRow, step: EscalationStep): number | null =>
  step === 'reminder' ? setting.remindAfterMinutes : setting.escalateAfterMinutes;

const stepKey = (alarmId: number, settingId: number, step: EscalationStep) =>
  `${step}:alarm:${alarmId}:setting:${settingId}`;

/** When the step of an alarm is due: its delay after the alarm was raised. */
const dueAt = (alarm: AlarmRow, minutes: number) =>
  new Date(alarm.created.getTime() + minutes * 60_000);

/**
 * In the alarm e-mail's transaction: one job per alarm, escalating setting
 * and step. Settings that do not escalate schedule nothing.
 */
export async function scheduleEscalations(
  app: FastifyInstance,
  tx: Db,
  alarms: readonly AlarmRow[],
  settings: readonly NotificationSettingRow[],
): Promise<void> {
  for (const setting of settings) {
    for (const step of ['reminder', 'escalation'] as const) {
      const minutes = delayOf(setting, step);
      if (minutes === null) continue;
      for (const alarm of alarms) {
        await publish(
          app.jobs,
          ALARM_ESCALATION_JOB,
          {
            organizationId: alarm.organizationId,
            alarmId: alarm.id,
            settingId: setting.id,
            step,
          },
          {
            tx,
            startAfter: dueAt(alarm, minutes),
            singletonKey: stepKey(alarm.id, setting.id, step),
          },
        );
      }
    }
  }
}

type EscalationJob = JobData<typeof ALARM_ESCALATION_JOB>;

/**
 * Sends one step of one alarm, in one transaction holding the alarm's row
 * lock: nothing when the alarm is acknowledged, dismissed or superseded (or gone), when
 * the setting is gone, Disabled or no longer has the step, or when the step
 * was already written. A setting whose delay was lengthened since waits
 * (the job is sent again for the new time).
 */
export async function sendEscalation(
  app: FastifyInstance,
  tx: Db,
  job: EscalationJob,
  now = new Date(),
): Promise<'sent' | 'test' | 'stopped' | 'already' | 'later'> {
  const alarm = await repo.lockAlarm(tx, job.organizationId, job.alarmId);
  // A superseded alarm is reviewed with the alarm that absorbed it, which escalates on its own.
  if (!alarm || alarm.acknowledged || alarm.dismissed || alarm.supersededBy !== null)
    return 'stopped';
  const setting = await repo.settingRows.find(tx, job.organizationId, job.settingId);
  if (!setting || setting.status === 'Disabled' || setting.notificationType !== 'Alarm')
    return 'stopped';
  const minutes = delayOf(setting, job.step);
  if (minutes === null) return 'stopped';
  const due = dueAt(alarm, minutes);
  if (due.getTime() > now.getTime()) {
    await publish(app.jobs, ALARM_ESCALATION_JOB, job, { tx, startAfter: due });
    return 'later';
  }
  const to = job.step === 'reminder' ? setting.toList : setting.escalationEmails;
  const cc = job.step === 'reminder' ? setting.ccList : [];
  const bcc = job.step === 'reminder' ? setting.bccList : [];
  if (to.length + cc.length + bcc.length === 0) return 'stopped';
  const event = await repo.eventOfAlarm(tx, alarm.id);
  const record = await repo.findRecord(tx, job.organizationId, alarm.recordId);
  if (!event || !record) return 'stopped';

  const locationIds = [record.shipperLocationId, record.receiverLocationId].filter(
    (id): id is number => id !== null,
  );
  const locations = await repo.locationNames(tx, job.organizationId, locationIds);
  const values = {
    ...templateValues(app, event, record, locations, [alarm]),
    minutes: String(minutes),
  };
  const subject = subjectLine(renderTemplate(ESCALATION_SUBJECTS[job.step], values));
  const body = renderTemplate(ESCALATION_BODY, values);
  const test = setting.status === 'Test';
  const what = job.step === 'reminder' ? 'Reminder' : 'Escalation';
  const key = stepKey(alarm.id, setting.id, job.step);
  const written = await repo.insertEscalationEntry(tx, {
    organizationId: job.organizationId,
    notificationType: 'Alarm',
    timestamp: alarm.created,
    destination:
      record.receiverLocationId === null
        ? null
        : (locations.get(record.receiverLocationId) ?? null),
    toList: to,
    ccList: cc,
    bccList: bcc,
    comment:
      `${what} after ${minutes} minutes: alarm ${alarm.id} unacknowledged ` +
      `(notification setting ${setting.id}${test ? ' (Test): not sent' : ''})`,
    serialNumber: record.tagSerialNumber,
    customTemplateEmail: body,
    customTemplateSubject: subject,
    recordId: record.id,
    eventId: event.id,
    messageKey: key,
    settingId: setting.id,
    status: test ? 'test' : 'sent',
    alarmId: alarm.id,
    step: job.step,
  });
  if (!written) return 'already';
  if (test) return 'test';
  await queueMail(app, tx, {
    to,
    cc,
    bcc,
    subject,
    text: body,
    organizationId: job.organizationId,
    dedupeKey: `alarm-mail:${key}`,
  });
  return 'sent';
}

/** The `alarm.escalate` worker (registered in `workers.ts`). */
export function alarmEscalationWorker(app: FastifyInstance) {
  return async (job: EscalationJob): Promise<void> => {
    await app.db.transaction(async (tx) => {
      await sendEscalation(app, tx, job);
    });
  };
}
