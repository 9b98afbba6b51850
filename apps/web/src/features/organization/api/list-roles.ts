import { authRolePermissions, type TRole } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { organizationKeys } from './query-keys';

/** GET /api/auth/role-permissions/: the roles of the session organization with their permissions. */
export function listRoles(signal?: AbortSignal): Promise<TRole[]> {
  return callApi(authRolePermissions, { signal });
}

export function rolesQueryOptions() {
  return queryOptions({
    queryKey: organizationKeys.roles,
    queryFn: ({ signal }) => listRoles(signal),
  });
}

export function useRoles(enabled = true) {
  return useQuery({ ...rolesQueryOptions(), enabled });
}
