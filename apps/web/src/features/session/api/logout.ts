import { authLogout } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { callApi } from '../../../lib/api-client';
import { clearRedirectTarget } from '../../../lib/session';
import { clearSession } from '../session-cache';

/** GET /api/auth/logout/ (204). */
export function logout(): Promise<void> {
  return callApi(authLogout);
}

/**
 * Log Out: end the session, clear the query cache and go to /login. A logout
 * failure is only logged (spec section 8).
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: async () => {
      try {
        await logout();
      } catch (error) {
        console.error('Log out failed', error);
      }
    },
    onSettled: async () => {
      // Leave the guarded page first, so the guard does not remember it as the target.
      await navigate('/login', { replace: true });
      clearRedirectTarget();
      await clearSession(queryClient);
    },
  });
}
