import { authPasswordResetValidate, type TPasswordResetLink } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** POST /api/auth/password-reset-validate/: is the link still usable (it is not used up)? */
export function validatePasswordReset(body: TPasswordResetLink, signal?: AbortSignal) {
  return callApi(authPasswordResetValidate, { body, signal });
}

export function passwordResetLinkQueryOptions(link: TPasswordResetLink) {
  return queryOptions({
    queryKey: ['auth', 'password-reset-link', link.uuid, link.token] as const,
    queryFn: async ({ signal }) => {
      await validatePasswordReset(link, signal);
      return true;
    },
    retry: false,
    staleTime: Infinity,
    gcTime: 0,
  });
}

export function usePasswordResetLink(link: TPasswordResetLink) {
  return useQuery(passwordResetLinkQueryOptions(link));
}
