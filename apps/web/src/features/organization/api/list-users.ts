import { authUsersList, type TUserSmall } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { organizationKeys } from './query-keys';

/**
 * GET /api/auth/users/: the members of the session organization. A 403 reply
 * sets the list to null: the user may not view users (spec sections 6, 7, 8).
 */
export async function listUsers(signal?: AbortSignal): Promise<TUserSmall[] | null> {
  try {
    return await callApi(authUsersList, { query: { server_admin: 'false' }, signal });
  } catch (error) {
    if (isApiError(error) && error.status === 403) return null;
    throw error;
  }
}

export function usersQueryOptions() {
  return queryOptions({
    queryKey: organizationKeys.users,
    queryFn: ({ signal }) => listUsers(signal),
  });
}

export function useUsers() {
  return useQuery(usersQueryOptions());
}
