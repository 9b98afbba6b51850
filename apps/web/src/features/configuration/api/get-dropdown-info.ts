import { productsDropdownInfo, type TDropdownInfo } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { configurationKeys } from './query-keys';

/**
 * GET /api/products/dropdown-info/: products, origin and destination locations
 * and carriers, for the shipment forms. Refreshed by every configuration save.
 */
export function getDropdownInfo(signal?: AbortSignal): Promise<TDropdownInfo> {
  return callApi(productsDropdownInfo, { signal });
}

export function dropdownInfoQueryOptions() {
  return queryOptions({
    queryKey: configurationKeys.dropdownInfo,
    queryFn: ({ signal }) => getDropdownInfo(signal),
  });
}

export function useDropdownInfo() {
  return useQuery(dropdownInfoQueryOptions());
}
