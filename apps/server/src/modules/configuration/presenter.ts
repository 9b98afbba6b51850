import {
  ZDistanceUnit,
  type TCarrierDefinition,
  type TDistanceUnit,
  type TNameAndAddressLocation,
  type TOrganizationSettings,
  type TProductDefinition,
} from '@coldtrace/contract';
import type { CarrierRow, LocationRow, OrgSettingsRow, ProductRow } from './repository';

/**
 * Rows to the contract's entities (spec section 3): ids as decimal strings,
 * `created` as ISO 8601, `organization` the owning organization's id.
 */

export function presentCarrier(row: CarrierRow): TCarrierDefinition {
  return {
    id: String(row.id),
    created: row.created.toISOString(),
    name: row.name,
    organization: row.organizationId,
  };
}

export function presentProduct(row: ProductRow): TProductDefinition {
  return {
    id: String(row.id),
    created: row.created.toISOString(),
    product_name: row.productName,
    high_threshold: row.highThreshold,
    low_threshold: row.lowThreshold,
    num_consecutive_excursions: row.numConsecutiveExcursions,
    cumulative_high_threshold: row.cumulativeHighThreshold,
    cumulative_low_threshold: row.cumulativeLowThreshold,
    cumulative_duration_high: row.cumulativeDurationHigh,
    cumulative_duration_low: row.cumulativeDurationLow,
    organization: row.organizationId,
    stability_budget: row.stabilityBudget ?? null,
  };
}

export function presentLocation(row: LocationRow): TNameAndAddressLocation {
  return {
    id: String(row.id),
    created: row.created.toISOString(),
    name: row.name,
    address: row.address,
    latitude: row.latitude,
    longitude: row.longitude,
    origin: row.origin,
    destination: row.destination,
    timezone: row.timezone,
    organization: row.organizationId,
  };
}

/** A stored unit the contract does not know (never written by the API) reads as metres. */
export function knownUnit(unit: string): TDistanceUnit {
  const parsed = ZDistanceUnit.safeParse(unit);
  return parsed.success ? parsed.data : 'm';
}

/** The settings and their geo-fence carry the organization's id (one row per organization). */
export function presentOrgSettings(row: OrgSettingsRow): TOrganizationSettings {
  return {
    id: row.organizationId,
    geo_fence_settings: {
      id: row.organizationId,
      arrival_radius_meters: row.arrivalRadiusMeters,
      arrival_radius_units: knownUnit(row.arrivalRadiusUnits),
      departure_radius_meters: row.departureRadiusMeters,
      departure_radius_units: knownUnit(row.departureRadiusUnits),
      num_points_to_arrive: row.numPointsToArrive,
      num_points_to_depart: row.numPointsToDepart,
    },
    calibration_settings: {
      calibration_validity_months: row.calibrationValidityMonths,
      calibration_due_soon_days: row.calibrationDueSoonDays,
      expired_calibration_start: row.expiredCalibrationStart === 'REFUSE' ? 'REFUSE' : 'WARN',
    },
    no_data_factor: row.noDataFactor,
    allow_release_in_transit: row.allowReleaseInTransit,
    second_factor_for_signers: row.secondFactorForSigners,
    second_factor_for_administrators: row.secondFactorForAdministrators,
  };
}
