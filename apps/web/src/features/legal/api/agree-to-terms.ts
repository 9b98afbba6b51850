import { authTosAgreement, type TTermsOfService } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { updateSessionUser } from '../../session';

/** POST /api/auth/tos-agreement/: agree to the active terms (by id); the reply is those terms. */
export function agreeToTerms(id: string): Promise<TTermsOfService> {
  return callApi(authTosAgreement, { body: { id } });
}

/** Agrees; the cached user then counts as having agreed. */
export function useAgreeToTerms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: agreeToTerms,
    onSuccess: () =>
      updateSessionUser(queryClient, (user) => ({ ...user, has_agreed_to_tos: true })),
  });
}
