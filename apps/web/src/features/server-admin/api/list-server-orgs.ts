import { serverAdminOrgs, type TOrgLevelRecord } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

export const serverOrgsKey = ['auth', 'server-orgs'] as const;

/** GET /api/auth/server-orgs/: every organization with its counts (server administrators). */
export function listServerOrgs(signal?: AbortSignal): Promise<TOrgLevelRecord[]> {
  return callApi(serverAdminOrgs, { signal });
}

export function serverOrgsQueryOptions() {
  return queryOptions({ queryKey: serverOrgsKey, queryFn: ({ signal }) => listServerOrgs(signal) });
}

export function useServerOrgs() {
  return useQuery(serverOrgsQueryOptions());
}
