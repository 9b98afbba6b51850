import { authUserSuspend, type TUserSmall, type TUserSuspend } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { refreshMemberLists } from './query-keys';

/**
 * POST /api/auth/user-suspend/: suspend or reactivate a member's membership of the
 * session organization only (their account and other memberships are untouched).
 */
export function suspendUser(body: TUserSuspend): Promise<TUserSmall> {
  return callApi(authUserSuspend, { body });
}

export function useSuspendUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: suspendUser,
    onSuccess: () => refreshMemberLists(queryClient),
  });
}
