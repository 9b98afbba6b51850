import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { REPORT_RETRIES, type JobPublisher } from '../../jobs/catalogue';
import { reportFileName } from './report-model';
import * as repo from './repository';
import { createReportsService } from './service';

/**
 * A record's PDF report made now, without a user's request (issue 15: the
 * PDFs attached to a scheduled summary, docs/decisions/scheduled-reports.md).
 * The same path as a requested report: a `reports` row (kept for the
 * retention like any other), rendered by the report job's own code, run here
 * rather than queued. Answers null when the rendering failed.
 */
export async function renderRecordPdf(
  db: Database,
  jobs: JobPublisher,
  log: FastifyBaseLogger,
  options: {
    organizationId: string;
    recordId: number;
    tagSerialNumber: string;
    timeZone: string;
    degreesUnit: 'C' | 'F';
    /** Whose display rules apply and who is named as its maker; null: none ("Unknown user"). */
    userId: string | null;
    retentionHours: number;
    secretKey: string;
  },
): Promise<{ fileName: string; content: Buffer } | null> {
  const fileName = reportFileName(
    { id: String(options.recordId), tag_serial_number: options.tagSerialNumber },
    'pdf',
  );
  const row = await repo.insertReport(db, {
    organizationId: options.organizationId,
    recordId: options.recordId,
    kind: 'pdf',
    fileName,
    degreesUnit: options.degreesUnit,
    timeZone: options.timeZone,
    createdByUserId: options.userId,
  });
  const service = createReportsService(db, jobs, log, options);
  // The last attempt: a failure marks the row failed instead of throwing.
  await service.runJob(row.id, REPORT_RETRIES);
  const content = await repo.reportContent(db, options.organizationId, row.id);
  return content === null ? null : { fileName, content };
}
