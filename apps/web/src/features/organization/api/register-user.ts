import { authUsersRegister, type TUserRegister, type TUserRegistration } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { refreshMemberLists } from './query-keys';

/**
 * POST /api/auth/users/ (all six fields): an organization's administrator always gets an
 * invitation sent ('invited'); a server administrator adds the person directly ('added').
 */
export function registerUser(body: TUserRegister): Promise<TUserRegistration> {
  return callApi(authUsersRegister, { body });
}

export function useRegisterUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerUser,
    onSuccess: () => refreshMemberLists(queryClient),
  });
}
