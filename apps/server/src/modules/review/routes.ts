import { xt1RecordDisposition, xt1RecordDispositions } from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { createReviewService } from './service';

/** Release decisions (docs/decisions/disposition.md). */
export async function reviewRoutes(app: FastifyInstance): Promise<void> {
  const service = createReviewService(app);

  registerCall(app, xt1RecordDisposition, async ({ body, organizationRequest }) =>
    service.decide(organizationRequest(), body),
  );

  registerCall(app, xt1RecordDispositions, async ({ query, organizationId }) =>
    service.history(organizationId(), query.record_id),
  );
}
