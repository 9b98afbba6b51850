import type { FastifyInstance } from 'fastify';
import type { JobContext } from '../../jobs/queue';
import { createReportsService } from './service';

/** The `report.generate` worker (registered from `workers.ts`). */
export function reportWorker(app: FastifyInstance) {
  const service = createReportsService(app.db, app.jobs, app.log, {
    retentionHours: app.config.reportRetentionHours,
    secretKey: app.config.secretKey,
  });
  return async ({ reportId }: { reportId: string }, job: JobContext) =>
    service.runJob(reportId, job.retryCount);
}
