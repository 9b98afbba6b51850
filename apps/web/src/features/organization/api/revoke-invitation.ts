import { authInvitationRevoke } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { refreshMemberLists } from './query-keys';

/** POST /api/auth/invitation-revoke/: the invitation's link dies at once. */
export function revokeInvitation(invitationId: string): Promise<void> {
  return callApi(authInvitationRevoke, { body: { invitation_id: invitationId } });
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvitation,
    onSuccess: () => refreshMemberLists(queryClient),
  });
}
