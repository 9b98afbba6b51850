import { authInvitationDecline, type TInvitationLink } from '@coldtrace/contract';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** POST /api/auth/invitation-decline/: the invitation ends and its link dies. */
export function declineInvitation(link: TInvitationLink): Promise<void> {
  return callApi(authInvitationDecline, { body: link });
}

export function useDeclineInvitation() {
  return useMutation({ mutationFn: declineInvitation });
}
