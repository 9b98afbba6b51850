import {
  auditReviewClose,
  auditReviewGet,
  auditReviewMark,
  auditReviewPeriods,
} from '@coldtrace/contract';
import type { FastifyInstance } from 'fastify';
import { registerCall } from '../../http/register-call';
import { createAuditReviewService, requestOf } from './service';

/** The audit-trail review (docs/decisions/audit-review.md): administrators only. */
export async function auditReviewRoutes(app: FastifyInstance): Promise<void> {
  const service = createAuditReviewService(app);

  registerCall(app, auditReviewPeriods, async ({ requirePrincipal }) =>
    service.periods(requirePrincipal()),
  );
  registerCall(app, auditReviewGet, async ({ query, requirePrincipal }) =>
    service.review(requirePrincipal(), query.period, query.risk),
  );
  registerCall(app, auditReviewMark, async ({ body, request, requirePrincipal }) =>
    service.mark({ principal: requirePrincipal(), ...requestOf(request) }, body),
  );
  registerCall(app, auditReviewClose, async ({ body, request, requirePrincipal }) =>
    service.close({ principal: requirePrincipal(), ...requestOf(request) }, body),
  );
}
