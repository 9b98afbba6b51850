import { xt1Details, type CallQuery, type TTagExtended } from '@coldtrace/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApiWithTotal, type CallResult } from '../../../lib/api-client';

export type DevicesQuery = NonNullable<CallQuery<typeof xt1Details>>;

/**
 * GET /api/devices/xt1/details/: a page of the organization's tags in the
 * extended view (filter, order_by, 1-based page_number, page_size), with the
 * total in `totalCount`. Needs sysAdminUser.
 */
export function listDevices(
  query: DevicesQuery,
  signal?: AbortSignal,
): Promise<CallResult<TTagExtended[]>> {
  return callApiWithTotal(xt1Details, { query, signal });
}

export function devicesQueryOptions(query: DevicesQuery) {
  return queryOptions({
    queryKey: ['xt1', 'details', query] as const,
    queryFn: ({ signal }) => listDevices(query, signal),
  });
}

export function useDevices(query: DevicesQuery, options: { enabled?: boolean } = {}) {
  return useQuery({ ...devicesQueryOptions(query), placeholderData: keepPreviousData, ...options });
}
