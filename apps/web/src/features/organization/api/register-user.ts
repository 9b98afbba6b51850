import { authUsersRegister, type TUserRegister, type TUserSmall } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { organizationKeys } from './query-keys';

/** POST /api/auth/users/: register a user (all six fields); the server sends the welcome e-mail. */
export function registerUser(body: TUserRegister): Promise<TUserSmall> {
  return callApi(authUsersRegister, { body });
}

export function useRegisterUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.users }),
  });
}
