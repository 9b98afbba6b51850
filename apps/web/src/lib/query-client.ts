import { ModelShapeError } from '@coldtrace/contract';
import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-error';

/** Retries: never for a 4xx or a reply of the wrong shape; once for a 5xx. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ModelShapeError) return false;
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  return failureCount < 1;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

/** The app's one query client. */
export const queryClient = createQueryClient();
