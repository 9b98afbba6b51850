import { useEffect } from 'react';
import { ensureCsrfToken } from '../../lib/api-client';

/** Fetches the CSRF token on arrival, so the page's first form sends a single request. */
export function useCsrfOnArrival(): void {
  useEffect(() => {
    ensureCsrfToken().catch((error: unknown) => console.error('CSRF token', error));
  }, []);
}
