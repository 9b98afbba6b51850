import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchStaticText } from '../../../lib/api-client';

/** The static changelog text file the build emits next to the app. */
export const CHANGELOG_PATH = '/changelog.md';

export function getChangelog(signal?: AbortSignal): Promise<string> {
  return fetchStaticText(CHANGELOG_PATH, { signal });
}

export function changelogQueryOptions() {
  return queryOptions({
    queryKey: ['static', 'changelog'] as const,
    queryFn: ({ signal }) => getChangelog(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function useChangelog() {
  return useQuery(changelogQueryOptions());
}
