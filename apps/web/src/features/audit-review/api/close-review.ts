import { auditReviewClose } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { auditReviewKeys } from './query-keys';

export interface CloseReview {
  period: string;
  comment: string;
  password: string;
  /** Sent only when given (the organization may require it). */
  secondFactorCode: string;
}

/** POST /api/audit/review/close/: signs the month's review (meaning Reviewed); answers the closed month. */
export function closeReview({ period, comment, password, secondFactorCode }: CloseReview) {
  const code = secondFactorCode.trim();
  return callApi(auditReviewClose, {
    body: {
      period,
      comment,
      password,
      client_type: 'WEB',
      ...(code === '' ? {} : { second_factor_code: code }),
    },
  });
}

export function useCloseReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closeReview,
    onSuccess: (_closed, { period }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: auditReviewKeys.period(period) }),
        queryClient.invalidateQueries({ queryKey: auditReviewKeys.periods }),
      ]),
  });
}
