import {
  auditReviewClose,
  auditReviewGet,
  auditReviewMark,
  auditReviewPeriods,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { createAuditReviewService } from './service';

/** The audit-trail review (docs/decisions/audit-review.md): administrators only. */
export async function auditReviewRoutes(app: FastifyInstance): Promise<void> {
  const service = createAuditReviewService(app);

  registerCall(app, auditReviewPeriods, async ({ organizationId }) =>
    service.periods(organizationId()),
  );
  registerCall(app, auditReviewGet, async ({ query, organizationId }) =>
    service.review(organizationId(), query.period, query.risk),
  );
  registerCall(app, auditReviewMark, async ({ body, organizationRequest }) =>
    service.mark(organizationRequest(), body),
  );
  registerCall(app, auditReviewClose, async ({ body, organizationRequest }) =>
    service.close(organizationRequest(), body),
  );
}
