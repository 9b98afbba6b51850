import { auditReviewPeriods, type TAuditReviewPeriodSummary } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { auditReviewKeys } from './query-keys';

/** GET /api/audit/reviews/: the last 12 months, newest first, each open, due, overdue or closed. */
export function listReviewPeriods(signal?: AbortSignal): Promise<TAuditReviewPeriodSummary[]> {
  return callApi(auditReviewPeriods, { signal });
}

export function reviewPeriodsQueryOptions() {
  return queryOptions({
    queryKey: auditReviewKeys.periods,
    queryFn: ({ signal }) => listReviewPeriods(signal),
  });
}

export function useReviewPeriods(enabled = true) {
  return useQuery({ ...reviewPeriodsQueryOptions(), enabled });
}
