import { DISTANCE_UNITS, type TGeoFenceSettings } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import {
  changeRadiusUnit,
  distanceUnitLabel,
  distanceUnitOptions,
  formatRadius,
  geoFenceFormFrom,
  geoFenceUpdateBody,
  metresHint,
  validateGeoFenceForm,
} from './geo-fence-form';

const saved: TGeoFenceSettings = {
  id: '1',
  arrival_radius_meters: 1000,
  arrival_radius_units: 'm',
  departure_radius_meters: 1609.344,
  departure_radius_units: 'mi',
  num_points_to_arrive: 2,
  num_points_to_depart: 3,
};

describe('distance units [RULE-TRIP-2, RULE-ALARM-2]', () => {
  it('labels the common units and leaves the rare ones by code', () => {
    expect(distanceUnitLabel('m')).toBe('m — metres');
    expect(distanceUnitLabel('km')).toBe('km — kilometres');
    expect(distanceUnitLabel('mi')).toBe('mi — miles');
    expect(distanceUnitLabel('ft')).toBe('ft — feet');
    expect(distanceUnitLabel('nm')).toBe('nm — nautical miles');
    expect(distanceUnitLabel('british_chain_benoit')).toBe('british_chain_benoit');
  });

  it('offers every unit of the contract exactly once, the common ones first', () => {
    const { common, rest } = distanceUnitOptions();
    expect(common.slice(0, 3)).toEqual(['m', 'km', 'mi']);
    expect([...common, ...rest].sort()).toEqual([...DISTANCE_UNITS].sort());
  });

  it('rounds a radius to six significant digits without exponent or grouping', () => {
    expect(formatRadius(1000, 'm')).toBe('1000');
    expect(formatRadius(2000, 'km')).toBe('2');
    expect(formatRadius(1000, 'mi')).toBe('0.621371');
    expect(formatRadius(1609.344, 'mi')).toBe('1');
    expect(formatRadius(1000, 'ft')).toBe('3280.84');
    expect(formatRadius(1_000_000, 'um')).toBe('1000000000000');
  });

  it('tells the metres of a radius in another unit', () => {
    expect(metresHint('2', 'km')).toBe('= 2,000 m');
    expect(metresHint('2', 'm')).toBe('');
    expect(metresHint('x', 'km')).toBe('');
  });
});

describe('geo-fence form [RULE-TRIP-2, RULE-ALARM-2]', () => {
  it('shows each radius in its unit, and the defaults without settings', () => {
    expect(geoFenceFormFrom(saved)).toEqual({
      arrival_radius: '1000',
      arrival_radius_units: 'm',
      departure_radius: '1',
      departure_radius_units: 'mi',
      num_points_to_arrive: '2',
      num_points_to_depart: '3',
    });
    expect(geoFenceFormFrom(undefined).arrival_radius).toBe('1000');
  });

  it('converts a stored radius to a new unit, but keeps a typed number', () => {
    const form = geoFenceFormFrom(saved);
    expect(changeRadiusUnit(form, 'arrival', 'km', saved)).toMatchObject({
      arrival_radius: '1',
      arrival_radius_units: 'km',
    });
    const typed = { ...form, arrival_radius: '2' };
    expect(changeRadiusUnit(typed, 'arrival', 'km', saved)).toMatchObject({
      arrival_radius: '2',
      arrival_radius_units: 'km',
    });
  });

  it('sends a typed radius with its unit, a unit alone, changed points, or nothing', () => {
    const form = geoFenceFormFrom(saved);
    expect(geoFenceUpdateBody(form, saved)).toEqual({});
    const inKm = changeRadiusUnit(form, 'arrival', 'km', saved);
    // Only the unit changed: the radius keeps its exact metres.
    expect(geoFenceUpdateBody(inKm, saved)).toEqual({ arrival_radius_units: 'km' });
    expect(geoFenceUpdateBody({ ...inKm, arrival_radius: '2' }, saved)).toEqual({
      arrival_radius: 2,
      arrival_radius_units: 'km',
    });
    expect(geoFenceUpdateBody({ ...form, num_points_to_depart: '5' }, saved)).toEqual({
      num_points_to_depart: 5,
    });
  });

  it('checks radius and points like the server', () => {
    const form = geoFenceFormFrom(saved);
    expect(validateGeoFenceForm(form)).toEqual({});
    expect(
      validateGeoFenceForm({
        ...form,
        arrival_radius: '0',
        departure_radius: '',
        num_points_to_arrive: '101',
        num_points_to_depart: '1.5',
      }),
    ).toEqual({
      arrival_radius: 'Enter a radius above 0',
      departure_radius: 'Enter the departure radius',
      num_points_to_arrive: 'Enter a whole number from 1 to 100',
      num_points_to_depart: 'Enter a whole number from 1 to 100',
    });
    expect(
      validateGeoFenceForm({ ...form, arrival_radius: '1001', arrival_radius_units: 'km' })
        .arrival_radius,
    ).toBe('Use at most 1,000 km (1000 km)');
    expect(
      validateGeoFenceForm({ ...form, arrival_radius: '1000', arrival_radius_units: 'km' }),
    ).toEqual({});
  });
});
