import { authUsersList, type TUserSmall } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';

/** GET /api/auth/users/?server_admin=true: every user of every organization (server administrators). */
export function listAllUsers(signal?: AbortSignal): Promise<TUserSmall[]> {
  return callApi(authUsersList, { query: { server_admin: 'true' }, signal });
}

export function allUsersQueryOptions() {
  return queryOptions({
    queryKey: ['auth', 'users', 'server-admin'] as const,
    queryFn: ({ signal }) => listAllUsers(signal),
  });
}

export function useAllUsers() {
  return useQuery(allUsersQueryOptions());
}
