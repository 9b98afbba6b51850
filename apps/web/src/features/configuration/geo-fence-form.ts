import {
  DISTANCE_UNITS,
  GEO_FENCE_MAX_POINTS,
  GEO_FENCE_MAX_RADIUS_METRES,
  type TDistanceUnit,
  type TGeoFenceSettings,
  type TGeoFenceSettingsUpdate,
} from '@coldtrace/contract';
import { fromMetres, toMetres } from '@coldtrace/domain';
import { formatNumber, parseIntegerInput, parseNumberInput, type FormErrors } from './form-fields';

/**
 * The geo-fence settings form. Radii are stored in metres with the unit the
 * organization chose to see them in (docs/decisions/configuration.md,
 * "Geo-fence units"); the form shows each radius in its unit and, when the
 * user types a new one, sends `*_radius` with `*_radius_units` for the server
 * to convert. A radius left alone is never sent back as a rounded number, so
 * it keeps its exact metres.
 */

export type GeoFenceSide = 'arrival' | 'departure';
export const GEO_FENCE_SIDES: readonly GeoFenceSide[] = ['arrival', 'departure'];

export const GEO_FENCE_FIELDS = [
  'arrival_radius',
  'arrival_radius_units',
  'departure_radius',
  'departure_radius_units',
  'num_points_to_arrive',
  'num_points_to_depart',
] as const;
export type GeoFenceField = (typeof GEO_FENCE_FIELDS)[number];

/** Prefix of the server's field names for this form (`geo_fence_settings.arrival_radius`). */
export const GEO_FENCE_FIELD_PREFIX = 'geo_fence_settings.';

export interface GeoFenceFormValues {
  arrival_radius: string;
  arrival_radius_units: TDistanceUnit;
  departure_radius: string;
  departure_radius_units: TDistanceUnit;
  num_points_to_arrive: string;
  num_points_to_depart: string;
}

/** The server's defaults for an organization that never saved its geo-fence. */
export const GEO_FENCE_DEFAULTS = {
  radiusMetres: 1000,
  units: 'm',
  points: 2,
} as const satisfies { radiusMetres: number; units: TDistanceUnit; points: number };

const UNIT_NAMES: Partial<Record<TDistanceUnit, string>> = {
  m: 'metres',
  km: 'kilometres',
  cm: 'centimetres',
  mm: 'millimetres',
  um: 'micrometres',
  mi: 'miles',
  ft: 'feet',
  inch: 'inches',
  yd: 'yards',
  nm: 'nautical miles',
  nm_uk: 'UK nautical miles',
  survey_ft: 'US survey feet',
  furlong: 'furlongs',
  fathom: 'fathoms',
  rod: 'rods',
  chain: 'chains',
  link: 'links',
};

/** `m — metres`, `nm — nautical miles`; the rarer surveying units by their code. */
export function distanceUnitLabel(unit: TDistanceUnit): string {
  const name = UNIT_NAMES[unit];
  return name === undefined ? unit : `${unit} — ${name}`;
}

/** Units offered first in the selector, before a divider. */
export const COMMON_DISTANCE_UNITS: readonly TDistanceUnit[] = ['m', 'km', 'mi', 'ft', 'yd', 'nm'];

/** Every unit of the contract: the common ones, then the others in the contract's order. */
export function distanceUnitOptions(): { common: TDistanceUnit[]; rest: TDistanceUnit[] } {
  return {
    common: [...COMMON_DISTANCE_UNITS],
    rest: DISTANCE_UNITS.filter((unit) => !COMMON_DISTANCE_UNITS.includes(unit)),
  };
}

/**
 * A radius in `unit`, rounded for reading and typing: six significant digits,
 * no grouping, no exponent (1000 m in miles is `0.621371`, 2000 m in km is `2`).
 */
export function formatRadius(metres: number, unit: TDistanceUnit): string {
  const value = fromMetres(metres, unit);
  if (!Number.isFinite(value)) return '';
  return value.toLocaleString('en-US', { maximumSignificantDigits: 6, useGrouping: false });
}

function savedOf(settings: TGeoFenceSettings | undefined, side: GeoFenceSide) {
  return {
    metres: settings?.[`${side}_radius_meters`] ?? GEO_FENCE_DEFAULTS.radiusMetres,
    units: settings?.[`${side}_radius_units`] ?? GEO_FENCE_DEFAULTS.units,
  };
}

/** The form filled from the stored settings (or the server's defaults). */
export function geoFenceFormFrom(settings: TGeoFenceSettings | undefined): GeoFenceFormValues {
  const arrival = savedOf(settings, 'arrival');
  const departure = savedOf(settings, 'departure');
  return {
    arrival_radius: formatRadius(arrival.metres, arrival.units),
    arrival_radius_units: arrival.units,
    departure_radius: formatRadius(departure.metres, departure.units),
    departure_radius_units: departure.units,
    num_points_to_arrive: String(settings?.num_points_to_arrive ?? GEO_FENCE_DEFAULTS.points),
    num_points_to_depart: String(settings?.num_points_to_depart ?? GEO_FENCE_DEFAULTS.points),
  };
}

/** Whether the radius input still shows the stored radius (the user has not typed another). */
function showsSavedRadius(
  values: GeoFenceFormValues,
  side: GeoFenceSide,
  settings: TGeoFenceSettings | undefined,
): boolean {
  const saved = savedOf(settings, side);
  return (
    values[`${side}_radius`].trim() === formatRadius(saved.metres, values[`${side}_radius_units`])
  );
}

/**
 * A new unit for one side. When the input still shows the stored radius, it
 * is shown again in the new unit (1000 m becomes 1 km); a number the user has
 * typed is kept, as a value in the new unit (type 2, choose km: 2 km).
 */
export function changeRadiusUnit(
  values: GeoFenceFormValues,
  side: GeoFenceSide,
  unit: TDistanceUnit,
  settings: TGeoFenceSettings | undefined,
): GeoFenceFormValues {
  const next = { ...values, [`${side}_radius_units`]: unit };
  if (!showsSavedRadius(values, side, settings)) return next;
  return { ...next, [`${side}_radius`]: formatRadius(savedOf(settings, side).metres, unit) };
}

/** `= 2,000 m` under a radius in another unit; '' for metres or an invalid value. */
export function metresHint(text: string, unit: TDistanceUnit): string {
  const value = parseNumberInput(text);
  if (value == null || unit === 'm') return '';
  return `= ${formatNumber(toMetres(value, unit))} m`;
}

function checkRadius(text: string, unit: TDistanceUnit, what: string): string | undefined {
  const value = parseNumberInput(text);
  if (value === undefined) return `Enter the ${what} radius`;
  if (value === null) return 'Enter a number, e.g. 500 or 0.5';
  if (value <= 0) return 'Enter a radius above 0';
  if (toMetres(value, unit) > GEO_FENCE_MAX_RADIUS_METRES) {
    return `Use at most 1,000 km (${formatRadius(GEO_FENCE_MAX_RADIUS_METRES, unit)} ${unit})`;
  }
  return undefined;
}

function checkPoints(text: string): string | undefined {
  const value = parseIntegerInput(text);
  if (value == null || value < 1 || value > GEO_FENCE_MAX_POINTS) {
    return `Enter a whole number from 1 to ${GEO_FENCE_MAX_POINTS}`;
  }
  return undefined;
}

/** Every problem of the form; an empty object when it may be sent. */
export function validateGeoFenceForm(values: GeoFenceFormValues): FormErrors<GeoFenceField> {
  const errors: FormErrors<GeoFenceField> = {};
  const arrival = checkRadius(values.arrival_radius, values.arrival_radius_units, 'arrival');
  const departure = checkRadius(
    values.departure_radius,
    values.departure_radius_units,
    'departure',
  );
  const arrive = checkPoints(values.num_points_to_arrive);
  const depart = checkPoints(values.num_points_to_depart);
  if (arrival) errors.arrival_radius = arrival;
  if (departure) errors.departure_radius = departure;
  if (arrive) errors.num_points_to_arrive = arrive;
  if (depart) errors.num_points_to_depart = depart;
  return errors;
}

/**
 * The PATCH body's geo-fence: for each side, a typed radius as `*_radius` with
 * its `*_radius_units` (the server converts it to metres); a changed unit
 * alone as `*_radius_units` (the radius keeps its metres); the numbers of
 * points when changed. Empty when nothing changed.
 */
export function geoFenceUpdateBody(
  values: GeoFenceFormValues,
  settings: TGeoFenceSettings | undefined,
): TGeoFenceSettingsUpdate {
  const body: TGeoFenceSettingsUpdate = {};
  for (const side of GEO_FENCE_SIDES) {
    const unit = values[`${side}_radius_units`];
    if (!showsSavedRadius(values, side, settings)) {
      const value = parseNumberInput(values[`${side}_radius`]);
      if (value != null) {
        body[`${side}_radius`] = value;
        body[`${side}_radius_units`] = unit;
      }
    } else if (unit !== savedOf(settings, side).units) {
      body[`${side}_radius_units`] = unit;
    }
  }
  const arrive = parseIntegerInput(values.num_points_to_arrive);
  const depart = parseIntegerInput(values.num_points_to_depart);
  const saved = geoFenceFormFrom(settings);
  if (arrive != null && values.num_points_to_arrive.trim() !== saved.num_points_to_arrive) {
    body.num_points_to_arrive = arrive;
  }
  if (depart != null && values.num_points_to_depart.trim() !== saved.num_points_to_depart) {
    body.num_points_to_depart = depart;
  }
  return body;
}
