import {
  CONFIG_ADDRESS_MAX_LENGTH,
  CONFIG_NAME_MAX_LENGTH,
  type TNameAndAddressLocation,
  type TTravelLocationCreate,
  type TTravelLocationUpdate,
} from '@coldtrace/contract';
import { canonicalTimeZone } from '@coldtrace/domain';
import { parseNumberInput, type FormErrors } from './form-fields';

/**
 * The travel location form (name, address, latitude, longitude, origin,
 * destination, time zone): values as typed, checks mirroring the server's
 * (docs/decisions/configuration.md, "Validation") and the bodies it sends.
 */

export const TRAVEL_LOCATION_FIELDS = [
  'name',
  'address',
  'latitude',
  'longitude',
  'origin',
  'destination',
  'timezone',
] as const;
export type TravelLocationField = (typeof TRAVEL_LOCATION_FIELDS)[number];

export interface TravelLocationFormValues {
  name: string;
  address: string;
  latitude: string;
  longitude: string;
  origin: boolean;
  destination: boolean;
  /** A supported zone, or '' for none. */
  timezone: string;
}

export const EMPTY_TRAVEL_LOCATION_FORM: TravelLocationFormValues = {
  name: '',
  address: '',
  latitude: '',
  longitude: '',
  origin: false,
  destination: false,
  timezone: '',
};

/** The form filled from a stored location. */
export function travelLocationFormFrom(
  location: TNameAndAddressLocation,
): TravelLocationFormValues {
  return {
    name: location.name ?? '',
    address: location.address ?? '',
    latitude: location.latitude == null ? '' : String(location.latitude),
    longitude: location.longitude == null ? '' : String(location.longitude),
    origin: location.origin ?? false,
    destination: location.destination ?? false,
    timezone: canonicalTimeZone(location.timezone) ?? '',
  };
}

function checkText(text: string, max: number, missing: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return missing;
  if (trimmed.length > max) return `Use at most ${max} characters`;
  return undefined;
}

function checkCoordinate(text: string, limit: number, what: string): string | undefined {
  const value = parseNumberInput(text);
  const range = `from -${limit} to ${limit}`;
  if (value === undefined) return `Enter the ${what} (decimal degrees ${range})`;
  if (value === null) return `Enter a number in decimal degrees ${range}, e.g. 52.52`;
  if (value < -limit || value > limit) return `Enter a ${what} ${range}`;
  return undefined;
}

/** Every problem of the form; an empty object when it may be sent. */
export function validateTravelLocationForm(
  values: TravelLocationFormValues,
): FormErrors<TravelLocationField> {
  const errors: FormErrors<TravelLocationField> = {
    name: checkText(values.name, CONFIG_NAME_MAX_LENGTH, 'Enter a name'),
    address: checkText(values.address, CONFIG_ADDRESS_MAX_LENGTH, 'Enter the address'),
    latitude: checkCoordinate(values.latitude, 90, 'latitude'),
    longitude: checkCoordinate(values.longitude, 180, 'longitude'),
    timezone:
      values.timezone !== '' && canonicalTimeZone(values.timezone) === null
        ? 'Choose a time zone from the list'
        : undefined,
  };
  for (const key of TRAVEL_LOCATION_FIELDS) if (errors[key] === undefined) delete errors[key];
  return errors;
}

function fieldValue(
  field: TravelLocationField,
  values: TravelLocationFormValues,
): string | number | boolean | null {
  switch (field) {
    case 'name':
      return values.name.trim();
    case 'address':
      return values.address.trim();
    case 'latitude':
      return parseNumberInput(values.latitude) ?? null;
    case 'longitude':
      return parseNumberInput(values.longitude) ?? null;
    case 'origin':
      return values.origin;
    case 'destination':
      return values.destination;
    default:
      return values.timezone === '' ? null : values.timezone;
  }
}

/** Body of the creation call (call only with a valid form). */
export function travelLocationCreateBody(values: TravelLocationFormValues): TTravelLocationCreate {
  const body: Record<string, unknown> = {};
  for (const field of TRAVEL_LOCATION_FIELDS) body[field] = fieldValue(field, values);
  return body as TTravelLocationCreate;
}

/** Body of the edit call: only the fields the user changed. */
export function travelLocationUpdateBody(
  values: TravelLocationFormValues,
  initial: TravelLocationFormValues,
): TTravelLocationUpdate {
  const body: Record<string, unknown> = {};
  for (const field of TRAVEL_LOCATION_FIELDS) {
    const now = values[field];
    const before = initial[field];
    const same =
      typeof now === 'string' && typeof before === 'string'
        ? now.trim() === before.trim()
        : now === before;
    if (!same) body[field] = fieldValue(field, values);
  }
  return body as TTravelLocationUpdate;
}

/** A latitude or longitude for the table: up to 6 decimals (about 0.1 m), `—` when missing. */
export function formatCoordinate(value: number | null | undefined): string {
  if (value == null || !Number.isFinite(value)) return '—';
  return value.toLocaleString('en-US', { maximumFractionDigits: 6, useGrouping: false });
}
