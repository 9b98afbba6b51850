import { authPasswordChange, type TPasswordChange, type TUser } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { updateSessionUser } from '../../session';

/** POST /api/auth/password-change/: the reply is the full user; other sessions end. */
export function changePassword(body: TPasswordChange): Promise<TUser> {
  return callApi(authPasswordChange, { body });
}

/** Errors are shown on the dialog's fields (spec section 5), not by the shared handler. */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: (user) => updateSessionUser(queryClient, () => user),
  });
}
