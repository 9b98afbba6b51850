import { authTosGet, type TTermsOfService } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** GET /api/auth/tos/: the active terms of service (404 when none is published). */
export function getTermsOfUse(signal?: AbortSignal): Promise<TTermsOfService> {
  return callApi(authTosGet, { signal });
}

export function termsOfUseQueryOptions() {
  return queryOptions({
    queryKey: ['auth', 'tos'] as const,
    queryFn: ({ signal }) => getTermsOfUse(signal),
    staleTime: 5 * 60_000,
  });
}

export function useTermsOfUse() {
  return useQuery(termsOfUseQueryOptions());
}
