import {
  authOrgSettingsUpdate,
  type TCalibrationSettingsUpdate,
  type TGeoFenceSettingsUpdate,
  type TOrganizationSettings,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ChangeSignatureBody } from '../../../components/change-signature';
import { callApi } from '../../../lib/api-client';
import { configurationKeys } from './query-keys';

export interface GeoFenceUpdateInput {
  geoFence: TGeoFenceSettingsUpdate;
  /** Reason for change, and the signature when the change closes alarms. */
  change?: ChangeSignatureBody;
}

/**
 * PATCH /api/auth/org-settings/: part of the geo-fence. A radius typed in a
 * unit goes as `*_radius` with `*_radius_units`; the server stores metres.
 * The reason for change and signature go beside `geo_fence_settings`.
 */
export function updateGeoFenceSettings({
  geoFence,
  change,
}: GeoFenceUpdateInput): Promise<TOrganizationSettings> {
  return callApi(authOrgSettingsUpdate, { body: { geo_fence_settings: geoFence, ...change } });
}

/** Saves the geo-fence; the reply becomes the cached organization settings. */
export function useUpdateGeoFenceSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateGeoFenceSettings,
    onSuccess: (settings) => queryClient.setQueryData(configurationKeys.orgSettings, settings),
  });
}

export interface CalibrationSettingsUpdateInput {
  calibration: TCalibrationSettingsUpdate;
  change?: ChangeSignatureBody;
}

/** PATCH /api/auth/org-settings/: part of the calibration settings (issue 14 item 7). */
export function updateCalibrationSettings({
  calibration,
  change,
}: CalibrationSettingsUpdateInput): Promise<TOrganizationSettings> {
  return callApi(authOrgSettingsUpdate, { body: { calibration_settings: calibration, ...change } });
}

/** Saves the calibration settings; the reply becomes the cached organization settings. */
export function useUpdateCalibrationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCalibrationSettings,
    onSuccess: (settings) => queryClient.setQueryData(configurationKeys.orgSettings, settings),
  });
}

export interface NoDataFactorUpdateInput {
  noDataFactor: number;
  change?: ChangeSignatureBody;
}

/** PATCH /api/auth/org-settings/: the no-data alarm's factor (issue 14 item 4). */
export function updateNoDataFactor({
  noDataFactor,
  change,
}: NoDataFactorUpdateInput): Promise<TOrganizationSettings> {
  return callApi(authOrgSettingsUpdate, { body: { no_data_factor: noDataFactor, ...change } });
}

/** Saves the no-data factor; the reply becomes the cached organization settings. */
export function useUpdateNoDataFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNoDataFactor,
    onSuccess: (settings) => queryClient.setQueryData(configurationKeys.orgSettings, settings),
  });
}

/** The on/off organization settings (issue 35; issue 37 item 7), by their contract names. */
export type OrgSwitchName =
  'allow_release_in_transit' | 'second_factor_for_signers' | 'second_factor_for_administrators';

export interface OrgSwitchesUpdateInput {
  switches: Partial<Record<OrgSwitchName, boolean>>;
  change?: ChangeSignatureBody;
}

/** PATCH /api/auth/org-settings/: on/off settings (release in transit, second factor). */
export function updateOrgSwitches({
  switches,
  change,
}: OrgSwitchesUpdateInput): Promise<TOrganizationSettings> {
  return callApi(authOrgSettingsUpdate, { body: { ...switches, ...change } });
}

/** Saves switches; the reply becomes the cached organization settings. */
export function useUpdateOrgSwitches() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOrgSwitches,
    onSuccess: (settings) => queryClient.setQueryData(configurationKeys.orgSettings, settings),
  });
}
