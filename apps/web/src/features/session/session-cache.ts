import type { TUser } from '@coldtrace/contract';
import type { QueryClient } from '@tanstack/react-query';

/** Query key of the signed-in user (GET /api/auth/session/). */
export const sessionQueryKey = ['auth', 'session'] as const;

/** The cached session value: the user, or null when signed out. */
export type SessionUser = TUser | null;

function isSessionQuery(queryKey: readonly unknown[]): boolean {
  return (
    queryKey.length === sessionQueryKey.length &&
    queryKey.every((part, i) => part === sessionQueryKey[i])
  );
}

/**
 * A new user info arrived (sign-in or organization switch): it replaces the
 * cached user, and everything else cached belonged to the previous context.
 */
export async function replaceSessionUser(queryClient: QueryClient, user: TUser): Promise<void> {
  // A session load still in flight (or swallowed by the API client) must not overwrite it.
  await queryClient.cancelQueries({ queryKey: sessionQueryKey, exact: true });
  queryClient.setQueryData<SessionUser>(sessionQueryKey, user);
  // Reset, not just invalidate: another organization's rows must never show, even for a moment.
  const notSession = {
    predicate: (query: { queryKey: readonly unknown[] }) => !isSessionQuery(query.queryKey),
  };
  await queryClient.cancelQueries(notSession);
  await queryClient.resetQueries(notSession);
}

/** Updates the cached user in place (e.g. new organization-level settings). */
export function updateSessionUser(queryClient: QueryClient, update: (user: TUser) => TUser): void {
  queryClient.setQueryData<SessionUser>(sessionQueryKey, (user) => (user ? update(user) : user));
}

/**
 * Signed out (sign-out, or the API client sent the visitor to /login): forget
 * the user and every other cached answer.
 */
export async function clearSession(queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries();
  queryClient.setQueryData<SessionUser>(sessionQueryKey, null);
  queryClient.removeQueries({ predicate: (query) => !isSessionQuery(query.queryKey) });
}
