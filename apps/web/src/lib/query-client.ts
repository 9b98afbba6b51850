import { ModelShapeError } from '@coldtrace/contract';
import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error';

/** Retries: never for a 4xx or a reply of the wrong shape; once for a 5xx. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ModelShapeError) return false;
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

/**
 * New terms published while signed in: the server refuses calls with
 * TERMS_NOT_ACCEPTED; reloading the session lets the guard take the user to
 * /tou-agreement.
 */
function reloadSessionOnTermsRefusal(client: QueryClient, error: unknown): void {
  if (isApiError(error) && error.code === 'TERMS_NOT_ACCEPTED') {
    void client.invalidateQueries({ queryKey: ['auth', 'session'], exact: true });
  }
}

export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error) => reloadSessionOnTermsRefusal(client, error) }),
    mutationCache: new MutationCache({
      onError: (error) => reloadSessionOnTermsRefusal(client, error),
    }),
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
  return client;
}

/** The app's one query client. */
export const queryClient = createQueryClient();
