import { dataDisplayRulesList } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { displayRulesKeys } from './query-keys';

/** GET /api/data-display-rules/: the organization's rules and the one that applies to the caller. */
export function listDisplayRules(signal?: AbortSignal) {
  return callApi(dataDisplayRulesList, { signal });
}

/**
 * The rules of the session organization (its id is in the key: a switch loads
 * the new organization's). Kept for five minutes; a save on the Display rules
 * tab refreshes it at once.
 */
export function displayRulesQueryOptions(organizationId: string | null | undefined) {
  return queryOptions({
    queryKey: displayRulesKeys.organization(organizationId),
    queryFn: ({ signal }) => listDisplayRules(signal),
    staleTime: 5 * 60_000,
  });
}

export function useDisplayRules(organizationId: string | null | undefined, enabled = true) {
  return useQuery({ ...displayRulesQueryOptions(organizationId), enabled });
}
