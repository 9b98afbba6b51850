import { authTosPost, type TTermsOfService } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { sessionQueryKey } from '../../session';

/** POST /api/auth/tos/: publish new terms of use; every user must agree to them again. */
export function publishTerms(content: string): Promise<TTermsOfService> {
  return callApi(authTosPost, { body: { content } });
}

export function usePublishTerms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishTerms,
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['auth', 'tos'] }),
        queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
      ]),
  });
}
