import type { FastifyInstance } from 'fastify';
import type { JobContext } from '../../../jobs/queue';
import { createPasswordService } from './service';

/** The `password.reset-request` worker (registered from `workers.ts`). */
export function passwordResetWorker(app: FastifyInstance) {
  const service = createPasswordService(app);
  return async ({ email }: { email: string }, job: JobContext) =>
    service.sendResetMail(email, job.id);
}
