import { authInvitationAccept, type TInvitationLink } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { callApi } from '../../../lib/api-client';
import { getSession, replaceSessionUser, sessionQueryKey } from '../../session';

/**
 * POST /api/auth/invitation-accept/: the signed-in person becomes a member, and the
 * session switches to that organization (403 when they are not the invited address).
 */
export function acceptInvitation(link: TInvitationLink): Promise<void> {
  return callApi(authInvitationAccept, { body: link });
}

/**
 * Accepts, goes to / and loads the session again: it is in the new organization now.
 * The page is left first: resetting the cache would check the used link again.
 */
export function useAcceptInvitation() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: acceptInvitation,
    onSuccess: async () => {
      const user = await getSession();
      await navigate('/', { replace: true });
      // The other organization's cached answers go with the switch.
      if (user) await replaceSessionUser(queryClient, user);
      else await queryClient.invalidateQueries({ queryKey: sessionQueryKey });
    },
  });
}
