import { authUserRoles, type TUserRoleChange, type TUserSmall } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { refreshMemberLists } from './query-keys';

/** PATCH /api/auth/user-roles/: replace a member's role in the session organization. */
export function changeUserRole(body: TUserRoleChange): Promise<TUserSmall> {
  return callApi(authUserRoles, { body });
}

export function useChangeUserRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changeUserRole,
    onSuccess: () => refreshMemberLists(queryClient),
  });
}
