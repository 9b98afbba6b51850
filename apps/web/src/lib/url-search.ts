import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/** Changes a page's URL parameters (a filter, the order, the page, a tab). */
export type SearchUpdate = (current: URLSearchParams) => URLSearchParams;

/** The search string an update makes of the current one (always with its "?"). */
export function updatedSearch(current: string, update: SearchUpdate): string {
  return `?${update(new URLSearchParams(current)).toString()}`;
}

/**
 * Writes the page's URL parameters, replacing the history entry. Each update
 * starts from the URL as it is at that moment, not as the last render saw
 * it: React Router's own `setSearchParams(fn)` hands `fn` the parameters of
 * the render it came from, so two writes before the page re-renders (a second
 * filter chosen while the first is landing, the grid moving to page 1 as a
 * select changes) kept only the last, and the URL lost the first filter while
 * its select still showed it. The app runs on a browser router, whose
 * location is the window's.
 */
export function useUpdateSearch(): (update: SearchUpdate) => void {
  const navigate = useNavigate();
  return useCallback(
    (update: SearchUpdate) => {
      void navigate(updatedSearch(window.location.search, update), { replace: true });
    },
    [navigate],
  );
}
