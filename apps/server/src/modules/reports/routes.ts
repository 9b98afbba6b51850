import {
  xt1ReportCsvCreate,
  xt1ReportDossierCreate,
  xt1ReportDossierGet,
  xt1ReportCsvGet,
  xt1ReportPdfCreate,
  xt1ReportPdfGet,
  xt1ReportXlsxCreate,
  xt1ReportXlsxGet,
  type TReportKind,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { contentDisposition } from './report-model';
import { createReportsService } from './service';

/**
 * Reports and the dossier: POST generates (through the `report.generate` job, its worker in
 * `worker.ts`), GET downloads (docs/decisions/reports.md).
 */
export async function reportsRoutes(app: FastifyInstance): Promise<void> {
  const service = createReportsService(app.db, app.jobs, app.log, {
    retentionHours: app.config.reportRetentionHours,
    secretKey: app.config.secretKey,
  });

  const calls = [
    ['pdf', xt1ReportPdfCreate, xt1ReportPdfGet],
    ['csv', xt1ReportCsvCreate, xt1ReportCsvGet],
    ['xlsx', xt1ReportXlsxCreate, xt1ReportXlsxGet],
    ['dossier', xt1ReportDossierCreate, xt1ReportDossierGet],
  ] as const;
  for (const [kind, create, get] of calls) {
    registerReportCalls(app, service, kind, create, get);
  }
}

function registerReportCalls(
  app: FastifyInstance,
  service: ReturnType<typeof createReportsService>,
  kind: TReportKind,
  create: typeof xt1ReportPdfCreate,
  get: typeof xt1ReportPdfGet,
): void {
  registerCall(app, create, async ({ body, organizationId, requirePrincipal }) =>
    service.generate(organizationId(), requirePrincipal(), kind, body.record_id),
  );
  registerCall(app, get, async ({ query, reply, organizationId }) => {
    const file = await service.download(organizationId(), kind, query.report_id);
    void reply
      .header('content-type', file.contentType)
      .header('content-disposition', contentDisposition(file.fileName))
      .header('cache-control', 'private, no-store');
    // A Buffer bypasses the reply schema's serializer.
    return reply.send(file.content) as unknown as string;
  });
}
