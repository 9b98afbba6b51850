import { authAdminOrgs, type TOrg } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { organizationKeys } from './query-keys';

/** GET /api/auth/admin-orgs/: the organizations the user administers. */
export function listAdminOrgs(signal?: AbortSignal): Promise<TOrg[]> {
  return callApi(authAdminOrgs, { signal });
}

export function adminOrgsQueryOptions() {
  return queryOptions({
    queryKey: organizationKeys.adminOrgs,
    queryFn: ({ signal }) => listAdminOrgs(signal),
  });
}

export function useAdminOrgs() {
  return useQuery(adminOrgsQueryOptions());
}
