import { authUserLock, type TUserLock, type TUserSmall } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { organizationKeys } from './query-keys';

/** POST /api/auth/user-lock/: lock (ending the user's sessions at once) or unlock a member. */
export function lockUser(body: TUserLock): Promise<TUserSmall> {
  return callApi(authUserLock, { body });
}

export function useLockUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: lockUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.users }),
  });
}
