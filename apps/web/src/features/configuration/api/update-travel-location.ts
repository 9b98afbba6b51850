import {
  productsTravelLocationsUpdate,
  type TNameAndAddressLocation,
  type TTravelLocationUpdate,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { configurationKeys, invalidateAfterSave } from './query-keys';

export interface UpdateTravelLocationArgs {
  travelLocationId: string;
  body: TTravelLocationUpdate;
}

/**
 * PATCH /api/products/travel-locations/?travel_location_id= (only the changed
 * fields, with the reason for change and signature when given).
 */
export function updateTravelLocation({
  travelLocationId,
  body,
}: UpdateTravelLocationArgs): Promise<TNameAndAddressLocation> {
  return callApi(productsTravelLocationsUpdate, {
    query: { travel_location_id: travelLocationId },
    body,
  });
}

/** Edits a travel location, then refreshes the location list and the dropdown bundle. */
export function useUpdateTravelLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateTravelLocation,
    onSuccess: () => invalidateAfterSave(queryClient, configurationKeys.travelLocations),
  });
}
