import {
  authInvitationValidate,
  type TInvitationLink,
  type TInvitationView,
} from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/**
 * POST /api/auth/invitation-validate/: what an invitation link offers (organization,
 * role, whether the address has an account); 400 with `fields.token` when it is dead.
 */
export function validateInvitation(
  link: TInvitationLink,
  signal?: AbortSignal,
): Promise<TInvitationView> {
  return callApi(authInvitationValidate, { body: link, signal });
}

export function invitationLinkQueryOptions(link: TInvitationLink) {
  return queryOptions({
    queryKey: ['auth', 'invitation-link', link.uuid, link.token] as const,
    queryFn: ({ signal }) => validateInvitation(link, signal),
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
}

export function useInvitationLink(link: TInvitationLink) {
  return useQuery(invitationLinkQueryOptions(link));
}
