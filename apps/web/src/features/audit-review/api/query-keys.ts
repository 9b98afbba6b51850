import type { TAuditReviewRisk } from '@coldtrace/contract';

/** Query keys of the audit-trail review calls, named after their paths. */
export const auditReviewKeys = {
  periods: ['audit', 'reviews'] as const,
  /** Every cached view (all risks) of one month. */
  period: (period: string) => ['audit', 'review', period] as const,
  review: (period: string, risk: TAuditReviewRisk | undefined) =>
    ['audit', 'review', period, risk ?? 'all'] as const,
};
