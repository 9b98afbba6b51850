import { auditReviewMark, type TAuditReview, type TAuditReviewEntry } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { auditReviewKeys } from './query-keys';

export interface MarkEntries {
  period: string;
  eventIds: string[];
  comment: string;
}

/** POST /api/audit/review/marks/: the entries as marked (an entry marked before keeps its first mark). */
export function markEntries({ period, eventIds, comment }: MarkEntries) {
  return callApi(auditReviewMark, { body: { period, event_ids: eventIds, comment } });
}

/** The cached month with the marked entries replaced by the reply's. */
export function withMarkedEntries(review: TAuditReview, marked: TAuditReviewEntry[]): TAuditReview {
  const byId = new Map(marked.map((e) => [e.event.id, e]));
  return {
    ...review,
    entries: review.entries.map((e) => byId.get(e.event.id) ?? e),
  };
}

export function useMarkEntries() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: markEntries,
    onSuccess: (marked, { period }) => {
      // The marks show at once; the counts (reviewed, high-risk left) come with the reload.
      queryClient.setQueriesData<TAuditReview>(
        { queryKey: auditReviewKeys.period(period) },
        (review) => (review ? withMarkedEntries(review, marked) : review),
      );
      return queryClient.invalidateQueries({ queryKey: auditReviewKeys.period(period) });
    },
  });
}
