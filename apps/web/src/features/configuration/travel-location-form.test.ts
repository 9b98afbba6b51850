import { describe, expect, it } from 'vitest';
import {
  EMPTY_TRAVEL_LOCATION_FORM,
  formatCoordinate,
  travelLocationCreateBody,
  travelLocationFormFrom,
  travelLocationUpdateBody,
  validateTravelLocationForm,
  type TravelLocationFormValues,
} from './travel-location-form';

const valid: TravelLocationFormValues = {
  ...EMPTY_TRAVEL_LOCATION_FORM,
  name: 'Depot',
  address: '1 Cold Store Road',
  latitude: '51.9225',
  longitude: '4.47917',
};

describe('travel location checks [SPEC-7.7]', () => {
  it('accepts a complete location', () => {
    expect(validateTravelLocationForm(valid)).toEqual({});
  });

  it('needs name, address, latitude and longitude', () => {
    expect(validateTravelLocationForm(EMPTY_TRAVEL_LOCATION_FORM)).toEqual({
      name: 'Enter a name',
      address: 'Enter the address',
      latitude: 'Enter the latitude (decimal degrees from -90 to 90)',
      longitude: 'Enter the longitude (decimal degrees from -180 to 180)',
    });
  });

  it('keeps latitude in -90..90 and longitude in -180..180 (the -91 / -181 sentinels too)', () => {
    expect(validateTravelLocationForm({ ...valid, latitude: '-91' }).latitude).toBe(
      'Enter a latitude from -90 to 90',
    );
    expect(validateTravelLocationForm({ ...valid, longitude: '-181' }).longitude).toBe(
      'Enter a longitude from -180 to 180',
    );
    expect(validateTravelLocationForm({ ...valid, latitude: '90', longitude: '-180' })).toEqual({});
    expect(validateTravelLocationForm({ ...valid, latitude: 'north' }).latitude).toMatch(
      /^Enter a number/,
    );
  });

  it('takes a supported time zone or none', () => {
    expect(validateTravelLocationForm({ ...valid, timezone: 'Europe/Amsterdam' })).toEqual({});
    expect(validateTravelLocationForm({ ...valid, timezone: 'Mars/Olympus' }).timezone).toBe(
      'Choose a time zone from the list',
    );
  });
});

describe('travel location bodies [SPEC-7.7]', () => {
  it('sends numbers, booleans and null for no time zone', () => {
    expect(travelLocationCreateBody({ ...valid, name: ' Depot ', origin: true })).toEqual({
      name: 'Depot',
      address: '1 Cold Store Road',
      latitude: 51.9225,
      longitude: 4.47917,
      origin: true,
      destination: false,
      timezone: null,
    });
  });

  it('fills the form from a location (an alias zone as its supported name) and sends changes only', () => {
    const initial = travelLocationFormFrom({
      id: '7',
      name: 'Depot',
      address: 'Somewhere',
      latitude: 12.5,
      longitude: -3,
      origin: true,
      destination: false,
      timezone: 'Asia/Kolkata',
    });
    expect(initial).toEqual({
      name: 'Depot',
      address: 'Somewhere',
      latitude: '12.5',
      longitude: '-3',
      origin: true,
      destination: false,
      timezone: 'Asia/Calcutta',
    });
    expect(travelLocationUpdateBody(initial, initial)).toEqual({});
    expect(
      travelLocationUpdateBody({ ...initial, destination: true, timezone: '' }, initial),
    ).toEqual({ destination: true, timezone: null });
  });

  it('shows coordinates with up to 6 decimals', () => {
    expect(formatCoordinate(51.92250001)).toBe('51.9225');
    expect(formatCoordinate(-87.6597)).toBe('-87.6597');
    expect(formatCoordinate(null)).toBe('—');
  });
});
