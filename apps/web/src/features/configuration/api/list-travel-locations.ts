import { productsTravelLocationsList, type TNameAndAddressLocation } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { configurationKeys } from './query-keys';

/** GET /api/products/travel-locations/: the organization's travel locations, ordered by name. */
export function listTravelLocations(signal?: AbortSignal): Promise<TNameAndAddressLocation[]> {
  return callApi(productsTravelLocationsList, { signal });
}

export function travelLocationsQueryOptions() {
  return queryOptions({
    queryKey: configurationKeys.travelLocations,
    queryFn: ({ signal }) => listTravelLocations(signal),
  });
}

export function useTravelLocations() {
  return useQuery(travelLocationsQueryOptions());
}
