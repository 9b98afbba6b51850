import {
  REPORT_WAIT_SECONDS,
  type TAlarmSignature,
  type TFileReference,
  type TRecord,
  type TReportKind,
} from '@coldtrace/contract';
import { effectiveInterval } from '@coldtrace/domain';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { AppError, forbidden, notFound } from '../../kernel/errors';
import { isUuid } from '../../kernel/ids';
import { publish, REPORT_JOB, REPORT_RETRIES, type JobPublisher } from '../../jobs/catalogue';
import { printedName } from '../../kernel/audit';
import type { Principal } from '../../kernel/principal';
import { createRecordsService } from '../records';
import { readSeries } from '../../kernel/series-store';
import { renderCsv } from './render-csv';
import { renderPdf } from './render-pdf';
import { renderXlsx } from './render-xlsx';
import {
  reportFileName,
  type ReportAlarm,
  type ReportData,
  type ReportSignature,
  type ReportTiming,
} from './report-model';
import * as repo from './repository';
import { effectiveDisplayRule } from '../display-rules';
import { evidenceStamp, organizationKeyFrom } from '../evidence';
import { readDossierEvidence, renderDossier } from './dossier';

/**
 * Reports (docs/decisions/reports.md): the POST stores a `queued` row and
 * enqueues `report.generate` in one transaction, then waits up to
 * REPORT_WAIT_SECONDS for the row to be `ready`; the GET answers the stored
 * file, 409 while it is not ready. Everything is scoped to the session's
 * organization; another organization's record or report answers 404.
 */

/** What a report prints for a value a data display rule hides. */
const HIDDEN_VALUE = '(hidden)';
const POLL_MS = 100;

export const REPORT_CONTENT_TYPES: Record<TReportKind, string> = {
  pdf: 'application/pdf',
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  dossier: 'application/zip',
};

const RENDERERS: Record<
  Exclude<TReportKind, 'dossier'>,
  (data: ReportData) => Promise<Buffer> | Buffer
> = {
  pdf: renderPdf,
  csv: renderCsv,
  xlsx: renderXlsx,
};

type StoredReport = NonNullable<Awaited<ReturnType<typeof repo.findReportForJob>>>;

const reportNotFound = (id: string) => notFound(`Report '${id}'`, 'report_id');

/** The download call of a report: the GET of its kind with its report_id. */
export const reportUrl = (kind: TReportKind, id: string) =>
  `/api/devices/xt1/reports/${kind}/?report_id=${encodeURIComponent(id)}`;

/** A signature as the alarms data carries it (contract `signature`, `close_signature`). */
function signatureOf(s: TAlarmSignature | undefined): ReportSignature | null {
  if (!s) return null;
  return {
    printedName: s.printed_name,
    meaning: s.meaning,
    signedAt: new Date(s.signed_at),
    comment: s.comment || null,
    secondFactor: s.second_factor ?? null,
  };
}

function timingOf(record: TRecord): ReportTiming | null {
  const interval = effectiveInterval({
    measurement_interval: record.measurement_interval ?? null,
    calculated_measurement_interval: record.calculated_measurement_interval ?? null,
  });
  if (record.start_time_seconds == null || interval === null) return null;
  return {
    startTimeSeconds: record.start_time_seconds,
    startDelay: record.start_delay ?? 0,
    intervalSeconds: interval,
  };
}

/** Everything the report shows, read as the requesting user would see it (through `reader`: the database or a transaction). */
async function gather(report: StoredReport, reader: Database): Promise<ReportData> {
  const records = createRecordsService(reader);
  const [user] = report.createdByUserId
    ? await reader.select().from(users).where(eq(users.id, report.createdByUserId))
    : [];
  const recordIdText = String(report.recordId);
  const record = await records.record(report.organizationId, recordIdText);
  const alarms = await records.alarms(report.organizationId, {
    record_id: recordIdText,
    include_acknowledged: true,
    include_dismissed: true,
    include_closed: true,
  });
  // Open and closed, acknowledged and dismissed: every alarm the record ever raised.
  const withSignatures: ReportAlarm[] = alarms
    .map(({ signature, close_signature, ...a }) => ({
      ...a,
      signature: signatureOf(signature),
      closeSignature: signatureOf(close_signature),
    }))
    .sort(
      (a, b) =>
        (a.first_point_idx ?? 0) - (b.first_point_idx ?? 0) ||
        Number(a.id ?? 0) - Number(b.id ?? 0),
    );
  const rule = report.createdByUserId
    ? await effectiveDisplayRule(reader, report.organizationId, report.createdByUserId)
    : null;
  const hidden = new Set<string>(rule?.hidden_fields ?? []);
  // A hidden field's changes stay in the audit trail, their values not shown.
  const audit = (await repo.recordAudit(reader, report.organizationId, report.recordId)).map((e) =>
    e.field !== null && hidden.has(e.field)
      ? { ...e, oldValue: HIDDEN_VALUE, newValue: HIDDEN_VALUE }
      : e,
  );
  return {
    display: { decimals: rule?.temperature_decimals ?? 1, hidden },
    organizationName: await repo.organizationName(reader, report.organizationId),
    record,
    alarms: withSignatures,
    audit,
    temps: await readSeries(reader, report.recordId),
    timing: timingOf(record),
    unit: report.degreesUnit,
    timeZone: report.timeZone,
    generatedAt: new Date(),
    generatedBy: user ? printedName(user) : 'Unknown user',
    evidence: await evidenceStamp(reader, report.organizationId, report.recordId),
  };
}

/**
 * A dossier: the report's data and the record's evidence chain read in one
 * snapshot (repeatable read), so that what it shows and what it hashes agree
 * even while packets arrive.
 */
async function renderDossierOf(
  db: Database,
  options: ReportOptions,
  report: StoredReport,
): Promise<Buffer> {
  const input = await db.transaction(
    async (tx) => ({
      data: await gather(report, tx),
      evidence: await readDossierEvidence(tx, report.organizationId, report.recordId),
    }),
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  return renderDossier({
    ...input,
    organizationId: report.organizationId,
    key: organizationKeyFrom(options.secretKey, report.organizationId),
  });
}

async function waitUntilSettled(db: Database, id: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await repo.reportStatus(db, id);
    if (status !== 'queued') return;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** How long generated files are kept, and the key the dossier's evidence is signed with. */
interface ReportOptions {
  retentionHours: number;
  secretKey: string;
}

async function generate(
  db: Database,
  jobs: JobPublisher,
  recordsService: ReturnType<typeof createRecordsService>,
  organizationId: string,
  principal: Principal,
  kind: TReportKind,
  recordIdText: string,
  waitMs = REPORT_WAIT_SECONDS * 1000,
): Promise<TFileReference> {
  // 404 naming record_id for an unknown id or another organization's record.
  const record = await recordsService.record(organizationId, recordIdText).catch((error) => {
    if (error instanceof AppError && error.code === 'NOT_FOUND') {
      throw notFound(`Record '${recordIdText}'`, 'record_id');
    }
    throw error;
  });
  const settings = await repo.userDisplaySettings(db, principal.user.id);
  // A display rule's unit overrides the user's own.
  const rule = await effectiveDisplayRule(db, organizationId, principal.user.id);
  if (kind === 'dossier' && (rule?.hidden_fields.length ?? 0) > 0) {
    // The dossier is the whole evidence: what a display rule hides would be in it.
    throw forbidden(
      'A data display rule hides fields from you; the dossier holds the complete record.',
    );
  }
  const fileName = reportFileName(record, kind);
  const row = await db.transaction(async (tx) => {
    const inserted = await repo.insertReport(tx, {
      organizationId,
      recordId: Number(record.id),
      kind,
      fileName,
      degreesUnit: rule?.degrees_unit ?? settings.degreesUnit,
      timeZone: settings.timeZone,
      createdByUserId: principal.user.id,
    });
    await publish(jobs, REPORT_JOB, { reportId: inserted.id }, { tx });
    return inserted;
  });
  await waitUntilSettled(db, row.id, waitMs);
  const url = reportUrl(kind, row.id);
  return { url, localUrl: url, fileName };
}

async function download(db: Database, organizationId: string, kind: TReportKind, reportId: string) {
  if (!isUuid(reportId)) throw reportNotFound(reportId);
  const report = await repo.findReport(db, organizationId, reportId);
  if (!report || report.kind !== kind) throw reportNotFound(reportId);
  if (report.status === 'queued') {
    throw new AppError(
      'CONFLICT',
      'The report is not ready yet; try again in a few seconds.',
      { report_id: 'report not ready' },
      { 'retry-after': '2' },
    );
  }
  if (report.status === 'failed') {
    throw new AppError('CONFLICT', 'The report could not be generated; request a new one.', {
      report_id: 'report generation failed',
    });
  }
  const content = await repo.reportContent(db, organizationId, reportId);
  if (content === null) throw reportNotFound(reportId);
  return { fileName: report.fileName, contentType: REPORT_CONTENT_TYPES[kind], content };
}

/** The `report.generate` job: render and store the file; nothing for a report already ready (idempotent). */
async function runJob(
  db: Database,
  log: FastifyBaseLogger,
  options: ReportOptions,
  reportId: string,
  retryCount: number,
): Promise<void> {
  const report = await repo.findReportForJob(db, reportId);
  if (!report || report.status === 'ready') return;
  try {
    const content =
      report.kind === 'dossier'
        ? await renderDossierOf(db, options, report)
        : await RENDERERS[report.kind](await gather(report, db));
    // Files older than the retention go as new ones are made (in the job, not the request).
    await repo.deleteReportsBefore(db, new Date(Date.now() - options.retentionHours * 3_600_000));
    await repo.completeReport(db, reportId, content);
  } catch (error) {
    log.error({ err: error, reportId }, 'report generation failed');
    const gone = error instanceof AppError && error.code === 'NOT_FOUND';
    if (gone || retryCount >= REPORT_RETRIES) {
      await repo.failReport(
        db,
        reportId,
        gone ? 'The record no longer exists.' : 'Generation failed.',
      );
      return;
    }
    throw error;
  }
}

export function createReportsService(
  db: Database,
  jobs: JobPublisher,
  log: FastifyBaseLogger,
  options: ReportOptions,
) {
  const recordsService = createRecordsService(db);

  return {
    generate: (
      organizationId: string,
      principal: Principal,
      kind: TReportKind,
      recordIdText: string,
      waitMs?: number,
    ) => generate(db, jobs, recordsService, organizationId, principal, kind, recordIdText, waitMs),
    download: (organizationId: string, kind: TReportKind, reportId: string) =>
      download(db, organizationId, kind, reportId),
    runJob: (reportId: string, retryCount: number) =>
      runJob(db, log, options, reportId, retryCount),
  };
}

export type ReportsService = ReturnType<typeof createReportsService>;

/** The unit and time zone a user reads reports in (calibration certificates use them too). */
export const displaySettingsOf = repo.userDisplaySettings;

/** The organization's name, as reports print it. */
export const organizationNameOf = repo.organizationName;
