import { xt1Records, type TRecord } from '@coldtrace/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApiWithTotal, type CallResult } from '../../../lib/api-client';

export interface SearchQuery {
  terms: string;
  /** 1-based. */
  page: number;
  pageSize: number;
}

/**
 * GET /api/devices/xt1/records/?search=: records matching any word of the
 * terms (spec section 5), one page, with the total in `totalCount`.
 */
export function searchRecords(
  { terms, page, pageSize }: SearchQuery,
  signal?: AbortSignal,
): Promise<CallResult<TRecord[]>> {
  return callApiWithTotal(xt1Records, {
    query: { search: terms, page_number: page, page_size: pageSize },
    signal,
  });
}

export function searchQueryOptions(query: SearchQuery) {
  return queryOptions({
    // Under the records prefix, so what invalidates record lists refreshes searches too.
    queryKey: ['xt1', 'records', 'search', query.terms, query.page, query.pageSize] as const,
    queryFn: ({ signal }) => searchRecords(query, signal),
  });
}

export function useSearchRecords(query: SearchQuery, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...searchQueryOptions(query),
    placeholderData: keepPreviousData,
    enabled: (options.enabled ?? true) && query.terms !== '',
  });
}
