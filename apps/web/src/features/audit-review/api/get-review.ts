import { auditReviewGet, type TAuditReview, type TAuditReviewRisk } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { auditReviewKeys } from './query-keys';

/** GET /api/audit/review/?period=&risk=: the month's entries by people, ranked by risk, with their marks. */
export function getReview(
  period: string,
  risk: TAuditReviewRisk | undefined,
  signal?: AbortSignal,
): Promise<TAuditReview> {
  return callApi(auditReviewGet, {
    query: risk === undefined ? { period } : { period, risk },
    signal,
  });
}

export function reviewQueryOptions(period: string, risk: TAuditReviewRisk | undefined) {
  return queryOptions({
    queryKey: auditReviewKeys.review(period, risk),
    queryFn: ({ signal }) => getReview(period, risk, signal),
  });
}

/**
 * The chosen month (nothing while none is chosen). While another risk of the
 * same month loads, the previous list stays (no skeleton flash); another month
 * starts from its skeleton.
 */
export function useReview(period: string | undefined, risk: TAuditReviewRisk | undefined) {
  return useQuery({
    ...reviewQueryOptions(period ?? '', risk),
    enabled: period !== undefined,
    placeholderData: (previous) => (previous?.period === period ? previous : undefined),
  });
}
