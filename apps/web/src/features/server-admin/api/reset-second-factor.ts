import {
  authSecondFactorReset,
  type TSecondFactorReset,
  type TSecondFactorResetDone,
} from '@coldtrace/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/**
 * POST /api/auth/second-factor/reset/ (server administrators): remove another
 * person's second factor, with a reason and the administrator's own password.
 */
export function resetSecondFactor(body: TSecondFactorReset): Promise<TSecondFactorResetDone> {
  return callApi(authSecondFactorReset, { body });
}

export function useResetSecondFactor() {
  return useMutation({ mutationFn: resetSecondFactor });
}
