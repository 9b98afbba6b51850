import { authPasswordResetConfirm, type TPasswordResetConfirm } from '@coldtrace/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** POST /api/auth/password-reset-confirm/: sets the password from a reset or welcome link. */
export function confirmPasswordReset(body: TPasswordResetConfirm): Promise<void> {
  return callApi(authPasswordResetConfirm, { body });
}

export function useConfirmPasswordReset() {
  return useMutation({ mutationFn: confirmPasswordReset });
}
