import { authUserLock, type TUserLock, type TUserSmall } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/**
 * POST /api/auth/user-lock/ (server administrators): lock an account platform-wide,
 * ending the person's sessions and tokens at once, or unlock it.
 */
export function lockUser(body: TUserLock): Promise<TUserSmall> {
  return callApi(authUserLock, { body });
}

export function useLockUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: lockUser,
    // Every user list: this page's and Manage Users'.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['auth', 'users'] }),
  });
}
