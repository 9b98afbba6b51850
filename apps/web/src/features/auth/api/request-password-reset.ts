import { authPasswordReset, type TPasswordResetRequest } from '@coldtrace/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** POST /api/auth/password-reset/: the reply is the same whether the address is known or not. */
export function requestPasswordReset(body: TPasswordResetRequest): Promise<void> {
  return callApi(authPasswordReset, { body });
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
