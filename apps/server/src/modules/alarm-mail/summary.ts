import type { FastifyInstance } from 'fastify';
import type { MailAttachment } from '../../db/schema-mail';
import type { NotificationSettingRow } from '../../db/schema-alarm-mail';
import { publicOrigin } from '../identity';
import { queueMail } from '../mail';
import { displaySettingsOf, renderRecordPdf } from '../reports';
import {
  composeSummary,
  periodText,
  SUMMARY_MAX_ATTACHMENT_BYTES,
  SUMMARY_MAX_ATTACHMENTS,
} from './summary-compose';
import { duePeriod } from './summary-period';
import * as repo from './summary-repository';

/**
 * Scheduled summaries (issue 15 item 3, docs/decisions/scheduled-reports.md).
 * The hourly `notification.summaries` job finds, for each Summary setting
 * that is not Disabled, the period due (the day or ISO week before, due from
 * 06:00 in the setting owner's time zone) and, unless its log entry exists,
 * writes it: the shipments that started in the period per lane and carrier
 * with their alarm counts, and each shipment in alarm linked, its PDF
 * attached when there are at most 10 and they weigh at most 5 MB in all.
 * Exactly once per setting and period: the log entry is unique on (setting,
 * period) and the e-mail is queued in its transaction with a dedupe key.
 */

export type SummaryOutcome = 'sent' | 'test' | 'already';

type PeriodShipment = Awaited<ReturnType<typeof repo.periodShipments>>[number];

/**
 * The PDFs of the shipments in alarm, when there are few enough; none when they
 * are too heavy together (links only: a partial set would look complete).
 */
async function summaryAttachments(
  app: FastifyInstance,
  setting: NotificationSettingRow,
  owner: { degreesUnit: 'C' | 'F'; timeZone: string },
  inAlarm: readonly PeriodShipment[],
): Promise<{ attachments: MailAttachment[]; attached: Set<number> }> {
  const none = { attachments: [], attached: new Set<number>() };
  if (inAlarm.length === 0 || inAlarm.length > SUMMARY_MAX_ATTACHMENTS) return none;
  const attachments: MailAttachment[] = [];
  const attached = new Set<number>();
  let bytes = 0;
  for (const s of inAlarm) {
    const pdf = await renderRecordPdf(app.db, app.jobs, app.log, {
      organizationId: setting.organizationId,
      recordId: s.recordId,
      tagSerialNumber: s.tagSerialNumber,
      timeZone: owner.timeZone,
      degreesUnit: owner.degreesUnit,
      userId: setting.createdByUserId,
      retentionHours: app.config.reportRetentionHours,
      secretKey: app.config.secretKey,
    });
    if (!pdf) continue; // Its link stays.
    bytes += pdf.content.length;
    attached.add(s.recordId);
    attachments.push({
      filename: pdf.fileName,
      contentType: 'application/pdf',
      content: pdf.content.toString('base64'),
    });
  }
  return bytes > SUMMARY_MAX_ATTACHMENT_BYTES ? none : { attachments, attached };
}

export async function sendSummary(
  app: FastifyInstance,
  setting: NotificationSettingRow,
  now: Date,
): Promise<SummaryOutcome> {
  const owner = setting.createdByUserId
    ? await displaySettingsOf(app.db, setting.createdByUserId)
    : { degreesUnit: 'C' as const, timeZone: 'UTC' };
  const period = duePeriod(setting.schedule ?? 'DAILY', owner.timeZone, now);
  if (await repo.summaryWritten(app.db, setting.id, period.key)) return 'already';

  const shipments = await repo.periodShipments(app.db, setting, period.from, period.to);
  const inAlarm = shipments.filter((s) => s.alarms > 0);
  const test = setting.status === 'Test';
  const { attachments, attached } = test
    ? { attachments: [], attached: new Set<number>() }
    : await summaryAttachments(app, setting, owner, inAlarm);
  const origin = publicOrigin(app.config);
  const mail = composeSummary({
    period,
    shipments,
    attached,
    recordLink: (id) => `${origin}/recorddetails/${id}`,
    settingId: setting.id,
  });
  const key = `summary:setting:${setting.id}:period:${period.key}`;
  return app.db.transaction(async (tx) => {
    const written = await repo.insertSummaryEntry(tx, {
      organizationId: setting.organizationId,
      notificationType: 'Summary',
      timestamp: period.from,
      destination: null,
      toList: setting.toList,
      ccList: setting.ccList,
      bccList: setting.bccList,
      comment:
        `${setting.schedule === 'WEEKLY' ? 'Weekly' : 'Daily'} summary of ${periodText(period)}: ` +
        `${shipments.length} shipments, ${inAlarm.length} with alarms, ${attached.size} PDFs attached ` +
        `(notification setting ${setting.id}${test ? ' (Test): not sent' : ''})`,
      customTemplateEmail: mail.text,
      customTemplateSubject: mail.subject,
      eventId: null,
      messageKey: key,
      settingId: setting.id,
      status: test ? 'test' : 'sent',
      period: period.key,
    });
    if (!written) return 'already';
    if (test) return 'test';
    if (setting.toList.length + setting.ccList.length + setting.bccList.length > 0) {
      await queueMail(app, tx, {
        to: setting.toList,
        cc: setting.ccList,
        bcc: setting.bccList,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments,
        organizationId: setting.organizationId,
        dedupeKey: `alarm-mail:${key}`,
      });
    }
    return 'sent';
  });
}

/** Every due summary, each in its own transaction (one failing does not stop the others). */
export async function sendDueSummaries(
  app: FastifyInstance,
  now = new Date(),
): Promise<Map<number, SummaryOutcome>> {
  const outcomes = new Map<number, SummaryOutcome>();
  for (const setting of await repo.activeSummarySettings(app.db)) {
    try {
      outcomes.set(setting.id, await sendSummary(app, setting, now));
    } catch (error) {
      app.log.error({ err: error, settingId: setting.id }, 'scheduled summary failed');
    }
  }
  return outcomes;
}

/** The `notification.summaries` worker (hourly, registered in `workers.ts`). */
export function summaryWorker(app: FastifyInstance) {
  return async (): Promise<void> => {
    await sendDueSummaries(app);
  };
}
