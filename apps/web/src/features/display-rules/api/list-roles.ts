import { authRolePermissions, type TRole } from '@coldtrace/contract';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { displayRulesKeys } from './query-keys';

/** GET /api/auth/role-permissions/ (needs sysAdminUser): the roles a rule may be for. */
export function useRuleRoles(enabled: boolean) {
  return useQuery({
    queryKey: displayRulesKeys.roles,
    queryFn: ({ signal }): Promise<TRole[]> => callApi(authRolePermissions, { signal }),
    enabled,
  });
}
