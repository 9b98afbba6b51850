import { authLogin, type TLoginCredentials, type TUser } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { isLoggedIn } from '../../../lib/session';
import { replaceSessionUser } from '../../session';

/** POST /api/auth/login/: the reply is the full user. */
export function login(credentials: TLoginCredentials): Promise<TUser> {
  return callApi(authLogin, { body: credentials });
}

/** Signs in; the reply becomes the logged-in user info (unless it is locked). */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: async (user) => {
      if (isLoggedIn(user)) await replaceSessionUser(queryClient, user);
    },
  });
}
