import { xt1Records, type CallQuery, type TRecord } from '@coldtrace/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApiWithTotal, type CallResult } from '../../../lib/api-client';
import { recordsKeys } from './query-keys';

export type RecordsQuery = NonNullable<CallQuery<typeof xt1Records>>;

/**
 * GET /api/devices/xt1/records/: a page of records (filter, search, order_by,
 * 1-based page_number, page_size), with the total in `totalCount`.
 */
export function listRecords(
  query: RecordsQuery,
  signal?: AbortSignal,
): Promise<CallResult<TRecord[]>> {
  return callApiWithTotal(xt1Records, { query, signal });
}

export function recordsQueryOptions(query: RecordsQuery) {
  return queryOptions({
    queryKey: recordsKeys.list(query),
    queryFn: ({ signal }) => listRecords(query, signal),
  });
}

/** A page of records; the previous page stays on screen while the next one loads. */
export function useRecords(
  query: RecordsQuery,
  options: { enabled?: boolean; refetchInterval?: number | false } = {},
) {
  return useQuery({ ...recordsQueryOptions(query), placeholderData: keepPreviousData, ...options });
}
