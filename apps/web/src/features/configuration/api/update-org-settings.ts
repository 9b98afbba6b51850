import {
  authOrgSettingsUpdate,
  type TGeoFenceSettingsUpdate,
  type TOrganizationSettings,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { configurationKeys } from './query-keys';

/**
 * PATCH /api/auth/org-settings/: part of the geo-fence. A radius typed in a
 * unit goes as `*_radius` with `*_radius_units`; the server stores metres.
 */
export function updateGeoFenceSettings(
  geoFence: TGeoFenceSettingsUpdate,
): Promise<TOrganizationSettings> {
  return callApi(authOrgSettingsUpdate, { body: { geo_fence_settings: geoFence } });
}

/** Saves the geo-fence; the reply becomes the cached organization settings. */
export function useUpdateGeoFenceSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateGeoFenceSettings,
    onSuccess: (settings) => queryClient.setQueryData(configurationKeys.orgSettings, settings),
  });
}
