import { authSessionGet } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { isLoggedIn } from '../../../lib/session';
import { sessionQueryKey, type SessionUser } from '../session-cache';

/** GET /api/auth/session/: the signed-in user. */
export function getSession(signal?: AbortSignal): Promise<SessionUser> {
  return callApi(authSessionGet, { signal });
}

export function sessionQueryOptions() {
  return queryOptions({
    queryKey: sessionQueryKey,
    queryFn: ({ signal }) => getSession(signal),
    staleTime: 60_000,
  });
}

/** The session query (pending while the first load runs). */
export function useSession() {
  return useQuery(sessionQueryOptions());
}

/** The signed-in user, or null when signed out, locked, or not loaded yet. */
export function useCurrentUser(): SessionUser {
  const { data } = useSession();
  return isLoggedIn(data) ? data : null;
}
