import { keysList, type TApiKey } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { organizationKeys } from './query-keys';

/** GET /api/keys/generate/: the organization's live API keys (prefix only, never the secret). */
export function listApiKeys(signal?: AbortSignal): Promise<TApiKey[]> {
  return callApi(keysList, { signal });
}

export function apiKeysQueryOptions() {
  return queryOptions({
    queryKey: organizationKeys.apiKeys,
    queryFn: ({ signal }) => listApiKeys(signal),
  });
}

export function useApiKeys() {
  return useQuery(apiKeysQueryOptions());
}
