import {
  CONFIG_DURATION_MAX_SECONDS,
  DEFAULT_NUM_CONSECUTIVE_EXCURSIONS,
  GEO_FENCE_MAX_RADIUS_METRES,
  type TGeoFenceSettingsUpdate,
  type TProductDefinitionUpdate,
  type TTravelLocationUpdate,
} from '@coldtrace/contract';
import {
  canonicalTimeZone,
  formatDurationString,
  parseDurationString,
  toMetres,
} from '@coldtrace/domain';
import { AppError } from '../../kernel/errors';
import { knownUnit } from './presenter';
import type * as repo from './repository';

/**
 * The checks and conversions of configuration forms that Zod cannot express
 * (cross-field ranges, durations, time zones, radii in a unit), kept apart
 * from the service that stores them.
 */

/** Field errors of checks Zod cannot express (cross-field, domain parsing); one 400 naming all. */
export class FieldErrors {
  private readonly fields: Record<string, string> = {};

  add(field: string, reason: string): void {
    this.fields[field] ??= reason;
  }

  throwIfAny(): void {
    const reasons = Object.values(this.fields);
    if (reasons.length > 0) {
      throw new AppError(
        'VALIDATION_ERROR',
        `Invalid request body: ${reasons.join('; ')}`,
        this.fields,
      );
    }
  }
}

/** Whether `error` (or what it wraps) is PostgreSQL's unique violation of `constraint`. */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth += 1) {
    const e = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (e.code === '23505' && e.constraint === constraint) return true;
    current = e.cause;
  }
  return false;
}

/**
 * A cumulative duration: null for none (null or empty string), else the
 * canonical `[DD ]HH:MM:SS` form of a valid one.
 */
export function durationValue(
  field: string,
  text: string | null | undefined,
  errors: FieldErrors,
): string | null {
  if (text == null || text.trim() === '') return null;
  const seconds = parseDurationString(text);
  if (seconds === null) {
    errors.add(field, `Field '${field}' must be a duration '[DD ]HH:MM:SS', e.g. '1 12:00:00'`);
    return null;
  }
  if (seconds > CONFIG_DURATION_MAX_SECONDS) {
    errors.add(field, `Field '${field}' must be at most 3650 days`);
    return null;
  }
  return formatDurationString(seconds);
}

/** Low must not be above high when both are set (the low field is named). */
export function checkRange(
  errors: FieldErrors,
  lowField: string,
  low: number | null | undefined,
  highField: string,
  high: number | null | undefined,
): void {
  if (low != null && high != null && low > high) {
    errors.add(lowField, `Field '${lowField}' (${low}) must not be above ${highField} (${high})`);
  }
}

export type ProductValues = Partial<repo.ProductValues>;

/** The columns a product form (creation or edit) sets; absent fields are left out. */
export function productValues(form: TProductDefinitionUpdate, errors: FieldErrors): ProductValues {
  const values: ProductValues = {};
  if (form.product_name !== undefined) values.productName = form.product_name;
  if (form.high_threshold !== undefined) values.highThreshold = form.high_threshold;
  if (form.low_threshold !== undefined) values.lowThreshold = form.low_threshold;
  if (form.num_consecutive_excursions !== undefined) {
    values.numConsecutiveExcursions =
      form.num_consecutive_excursions ?? DEFAULT_NUM_CONSECUTIVE_EXCURSIONS;
  }
  if (form.cumulative_high_threshold !== undefined) {
    values.cumulativeHighThreshold = form.cumulative_high_threshold;
  }
  if (form.cumulative_low_threshold !== undefined) {
    values.cumulativeLowThreshold = form.cumulative_low_threshold;
  }
  if (form.cumulative_duration_high !== undefined) {
    values.cumulativeDurationHigh = durationValue(
      'cumulative_duration_high',
      form.cumulative_duration_high,
      errors,
    );
  }
  if (form.cumulative_duration_low !== undefined) {
    values.cumulativeDurationLow = durationValue(
      'cumulative_duration_low',
      form.cumulative_duration_low,
      errors,
    );
  }
  if (form.stability_budget !== undefined) {
    // Stored rounded to the tenth the contract checked; [] and null both mean none.
    const bands = (form.stability_budget ?? []).map((band) => ({
      direction: band.direction,
      limit: Math.round(band.limit * 10) / 10,
      allowed_minutes: band.allowed_minutes,
    }));
    values.stabilityBudget = bands.length === 0 ? null : bands;
  }
  return values;
}

export function checkProduct(product: ProductValues, errors: FieldErrors): void {
  checkRange(
    errors,
    'low_threshold',
    product.lowThreshold,
    'high_threshold',
    product.highThreshold,
  );
  checkRange(
    errors,
    'cumulative_low_threshold',
    product.cumulativeLowThreshold,
    'cumulative_high_threshold',
    product.cumulativeHighThreshold,
  );
}

export type LocationValues = Partial<repo.LocationValues>;

/** The columns a location form sets; the time zone in its canonical spelling. */
export function locationValues(form: TTravelLocationUpdate, errors: FieldErrors): LocationValues {
  const values: LocationValues = {};
  if (form.name !== undefined) values.name = form.name;
  if (form.address !== undefined) values.address = form.address;
  if (form.latitude !== undefined) values.latitude = form.latitude;
  if (form.longitude !== undefined) values.longitude = form.longitude;
  if (form.origin !== undefined) values.origin = form.origin;
  if (form.destination !== undefined) values.destination = form.destination;
  if (form.timezone !== undefined) {
    if (form.timezone === null || form.timezone.trim() === '') {
      values.timezone = null;
    } else {
      const zone = canonicalTimeZone(form.timezone.trim());
      if (zone === null) {
        errors.add('timezone', `Field 'timezone': unknown or unsupported time zone`);
      } else {
        values.timezone = zone;
      }
    }
  }
  return values;
}

export const GEO_FENCE_KEYS = [
  'arrival_radius_meters',
  'arrival_radius',
  'arrival_radius_units',
  'departure_radius_meters',
  'departure_radius',
  'departure_radius_units',
  'num_points_to_arrive',
  'num_points_to_depart',
] as const;

/**
 * The new radius and unit of one geo-fence side: `*_radius_meters` is metres,
 * `*_radius` a value in the (new or stored) unit, converted to metres.
 */
export function radiusOf(
  side: 'arrival' | 'departure',
  patch: TGeoFenceSettingsUpdate,
  current: { metres: number; units: string },
  errors: FieldErrors,
): { metres: number; units: string } {
  const metresField = `${side}_radius_meters` as const;
  const valueField = `${side}_radius` as const;
  const unitsField = `${side}_radius_units` as const;
  const units = patch[unitsField] ?? knownUnit(current.units);
  const metres = patch[metresField];
  const value = patch[valueField];
  const path = (field: string) => `geo_fence_settings.${field}`;
  if (metres !== undefined && value !== undefined) {
    errors.add(
      path(valueField),
      `Give either '${path(metresField)}' (metres) or '${path(valueField)}' (in ${unitsField}), not both`,
    );
    return current;
  }
  if (metres !== undefined) return { metres, units };
  if (value !== undefined) {
    const converted = toMetres(value, units);
    if (converted <= 0) {
      errors.add(path(valueField), `Field '${path(valueField)}' must be more than 0 m`);
      return current;
    }
    if (!Number.isFinite(converted) || converted > GEO_FENCE_MAX_RADIUS_METRES) {
      errors.add(
        path(valueField),
        `Field '${path(valueField)}' must be at most 1,000 km (${value} ${units} is ${converted} m)`,
      );
      return current;
    }
    return { metres: converted, units };
  }
  return { metres: current.metres, units };
}
