import { authPrivacyPolicyGet, type TPrivacyPolicy } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** GET /api/auth/privacy-policy/: the active privacy policy (404 when none is published). */
export function getPrivacyPolicy(signal?: AbortSignal): Promise<TPrivacyPolicy> {
  return callApi(authPrivacyPolicyGet, { signal });
}

export function privacyPolicyQueryOptions() {
  return queryOptions({
    queryKey: ['auth', 'privacy-policy'] as const,
    queryFn: ({ signal }) => getPrivacyPolicy(signal),
    staleTime: 5 * 60_000,
  });
}

export function usePrivacyPolicy() {
  return useQuery(privacyPolicyQueryOptions());
}
