import {
  productsTravelLocationsCreate,
  type TNameAndAddressLocation,
  type TTravelLocationCreate,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { configurationKeys, invalidateAfterSave } from './query-keys';

/** POST /api/products/travel-locations/. */
export function createTravelLocation(
  body: TTravelLocationCreate,
): Promise<TNameAndAddressLocation> {
  return callApi(productsTravelLocationsCreate, { body });
}

/** Creates a travel location, then refreshes the location list and the dropdown bundle. */
export function useCreateTravelLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTravelLocation,
    onSuccess: () => invalidateAfterSave(queryClient, configurationKeys.travelLocations),
  });
}
