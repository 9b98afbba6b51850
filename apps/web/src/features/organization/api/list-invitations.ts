import { authInvitationsList, type TInvitation } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { organizationKeys } from './query-keys';

/** GET /api/auth/invitations/: the pending invitations of the session organization. */
export function listInvitations(signal?: AbortSignal): Promise<TInvitation[]> {
  return callApi(authInvitationsList, { signal });
}

export function invitationsQueryOptions() {
  return queryOptions({
    queryKey: organizationKeys.invitations,
    queryFn: ({ signal }) => listInvitations(signal),
  });
}

/** Loaded once the members list answered (a 403 there means this one is refused too). */
export function useInvitations(enabled = true) {
  return useQuery({ ...invitationsQueryOptions(), enabled });
}
