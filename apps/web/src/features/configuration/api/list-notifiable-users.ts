import { authUsersList, type TUserSmall } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-error';
import { notificationKeys } from './notification-keys';

/**
 * GET /api/auth/users/: the members of the organization a notification rule
 * may notify. Null when the user may not list users (403, spec section 8).
 */
export async function listNotifiableUsers(signal?: AbortSignal): Promise<TUserSmall[] | null> {
  try {
    return await callApi(authUsersList, { query: { server_admin: 'false' }, signal });
  } catch (error) {
    if (isApiError(error) && error.status === 403) return null;
    throw error;
  }
}

export function notifiableUsersQueryOptions() {
  return queryOptions({
    queryKey: [...notificationKeys.all, 'users'] as const,
    queryFn: ({ signal }) => listNotifiableUsers(signal),
  });
}

export function useNotifiableUsers() {
  return useQuery(notifiableUsersQueryOptions());
}
