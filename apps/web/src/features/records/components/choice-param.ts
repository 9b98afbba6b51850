import { TABLE_STATE_PARAMS } from '@coldtrace/domain';
import { useSearchParams } from 'react-router';
import { useUpdateSearch } from '../../../lib/url-search';

/**
 * A choice above All Records' grid kept in one URL parameter (the review
 * state, the release decision): its value when the URL holds one of the
 * choices, and its setter (undefined removes it; a new filter starts on the
 * first page).
 */
export function useChoiceParam<T extends string>(
  name: string,
  choices: readonly T[],
): [T | undefined, (value: T | undefined) => void] {
  const [params] = useSearchParams();
  const updateSearch = useUpdateSearch();
  const raw = params.get(name) ?? '';
  const value = (choices as readonly string[]).includes(raw) ? (raw as T) : undefined;
  const set = (next: T | undefined) =>
    updateSearch((current) => {
      const out = new URLSearchParams(current);
      if (next === undefined) out.delete(name);
      else out.set(name, next);
      out.delete(TABLE_STATE_PARAMS.pageNumber);
      return out;
    });
  return [value, set];
}
