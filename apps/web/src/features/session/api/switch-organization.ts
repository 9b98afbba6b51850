import { authSessionSwitch, type TUser } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useErrorHandler } from '../../../components/error-handler';
import { callApi } from '../../../lib/api-client';
import { replaceSessionUser } from '../session-cache';

/** PATCH /api/auth/session/ {id}: switch the session to another organization. */
export function switchOrganization(organizationId: string): Promise<TUser> {
  return callApi(authSessionSwitch, { body: { id: organizationId } });
}

/**
 * Spec section 4, "Organization switch": the reply replaces the user info and
 * the app goes to /; on failure the shared error handler runs.
 */
export function useSwitchOrganization() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  return useMutation({
    mutationFn: switchOrganization,
    onSuccess: async (user) => {
      await replaceSessionUser(queryClient, user);
      await navigate('/');
    },
    onError: (error) => handleError(error, 'Switching the organization failed'),
  });
}
