import { DISTANCE_UNITS, type TDistanceUnit } from '@coldtrace/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  EARTH_RADIUS_METRES,
  fromMetres,
  haversineMetres,
  isKnownPosition,
  METRES_PER_UNIT,
  toMetres,
  type GeoPoint,
} from './distance-units';

describe('METRES_PER_UNIT [RULE-TRIP-2]', () => {
  it('has a positive factor for every distance unit of the contract, and no other', () => {
    expect(Object.keys(METRES_PER_UNIT).sort()).toEqual([...DISTANCE_UNITS].sort());
    for (const unit of DISTANCE_UNITS) expect(METRES_PER_UNIT[unit]).toBeGreaterThan(0);
  });

  it('uses the GIS table factors', () => {
    const expected: Record<TDistanceUnit, number> = {
      cm: 0.01,
      ft: 0.3048,
      inch: 0.0254,
      km: 1000,
      m: 1,
      um: 1e-6,
      mm: 0.001,
      mi: 1609.344,
      yd: 0.9144,
      nm: 1852,
      nm_uk: 1853.184,
      furlong: 201.168,
      survey_ft: 0.304800609601,
      sears_yd: 0.91439841,
      german_m: 1.0000135965,
      indian_yd: 0.914398530744,
      gold_coast_ft: 0.304799710181508,
      british_chain_benoit: 20.1167824944,
      british_chain_sears: 20.1167651216,
      british_chain_sears_truncated: 20.116756,
      british_ft: 0.304799471539,
      british_yd: 0.914398414616,
      chain: 20.1168,
      chain_benoit: 20.116782,
      chain_sears: 20.1167645,
      clarke_ft: 0.3047972654,
      clarke_link: 0.201166195164,
      link: 0.201168,
      link_benoit: 0.20116782,
      link_sears: 0.20116765,
      fathom: 1.8288,
      rod: 5.0292,
    };
    for (const unit of DISTANCE_UNITS) {
      // GeoDjango's literals, to 12 significant digits (ours are the exact EPSG ratios).
      expect(Math.abs(METRES_PER_UNIT[unit] / expected[unit] - 1), unit).toBeLessThan(1e-11);
    }
    expect(METRES_PER_UNIT.survey_ft).toBe(1200 / 3937);
    expect(METRES_PER_UNIT.ft).toBe(0.3048);
  });

  it('keeps the usual relations between units', () => {
    expect(METRES_PER_UNIT.mi).toBeCloseTo(5280 * METRES_PER_UNIT.ft, 9);
    expect(METRES_PER_UNIT.yd).toBeCloseTo(3 * METRES_PER_UNIT.ft, 12);
    expect(METRES_PER_UNIT.chain).toBeCloseTo(22 * METRES_PER_UNIT.yd, 9);
    expect(METRES_PER_UNIT.chain).toBeCloseTo(100 * METRES_PER_UNIT.link, 9);
    expect(METRES_PER_UNIT.furlong).toBeCloseTo(10 * METRES_PER_UNIT.chain, 9);
    expect(METRES_PER_UNIT.rod).toBeCloseTo(METRES_PER_UNIT.chain / 4, 12);
    expect(METRES_PER_UNIT.british_yd).toBeCloseTo(3 * METRES_PER_UNIT.british_ft, 11);
    expect(METRES_PER_UNIT.british_chain_sears).toBeCloseTo(22 * METRES_PER_UNIT.british_yd, 9);
  });
});

describe('toMetres and fromMetres [RULE-TRIP-2]', () => {
  it('convert known values', () => {
    expect(toMetres(1, 'km')).toBe(1000);
    expect(toMetres(2, 'mi')).toBe(3218.688);
    expect(toMetres(100, 'ft')).toBeCloseTo(30.48, 12);
    expect(toMetres(1, 'nm')).toBe(1852);
    expect(fromMetres(1852, 'nm')).toBe(1);
    expect(fromMetres(1609.344, 'mi')).toBe(1);
    expect(fromMetres(1, 'cm')).toBe(100);
    expect(fromMetres(1200, 'survey_ft')).toBeCloseTo(3937, 9);
  });

  it('round-trip within floating-point precision', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e9, max: 1e9, noNaN: true }),
        fc.constantFrom(...DISTANCE_UNITS),
        (value, unit) => {
          expect(fromMetres(toMetres(value, unit), unit)).toBeCloseTo(value, 6);
          expect(Math.abs(fromMetres(toMetres(value, unit), unit) - value)).toBeLessThanOrEqual(
            Math.abs(value) * 1e-15 + 1e-300,
          );
        },
      ),
    );
  });

  it('are monotonic in the value', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1e9, noNaN: true }),
        fc.double({ min: 0, max: 1e9, noNaN: true }),
        fc.constantFrom(...DISTANCE_UNITS),
        (a, b, unit) => {
          if (a <= b) expect(toMetres(a, unit)).toBeLessThanOrEqual(toMetres(b, unit));
          else expect(toMetres(a, unit)).toBeGreaterThanOrEqual(toMetres(b, unit));
        },
      ),
    );
  });
});

const LONDON: GeoPoint = { latitude: 51.5074, longitude: -0.1278 };
const PARIS: GeoPoint = { latitude: 48.8566, longitude: 2.3522 };

describe('haversineMetres [RULE-TRIP-2]', () => {
  it('measures known distances', () => {
    expect(haversineMetres(LONDON, PARIS)).toBeCloseTo(343_556.5, 0);
    // A quarter of a meridian, and half the equator.
    expect(
      haversineMetres({ latitude: 0, longitude: 0 }, { latitude: 90, longitude: 0 }),
    ).toBeCloseTo((Math.PI / 2) * EARTH_RADIUS_METRES, 3);
    expect(
      haversineMetres({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 180 }),
    ).toBeCloseTo(Math.PI * EARTH_RADIUS_METRES, 3);
    // One degree of longitude at the equator, and across the antimeridian.
    expect(
      haversineMetres({ latitude: 0, longitude: 0 }, { latitude: 0, longitude: 1 }),
    ).toBeCloseTo(111_195.08, 1);
    expect(
      haversineMetres({ latitude: 0, longitude: 179.5 }, { latitude: 0, longitude: -179.5 }),
    ).toBeCloseTo(111_195.08, 1);
  });

  const pointArbitrary: fc.Arbitrary<GeoPoint> = fc.record({
    latitude: fc.double({ min: -90, max: 90, noNaN: true }),
    longitude: fc.double({ min: -180, max: 180, noNaN: true }),
  });

  it('is zero from a point to itself, symmetric and at most half the circumference', () => {
    fc.assert(
      fc.property(pointArbitrary, pointArbitrary, (a, b) => {
        expect(haversineMetres(a, a)).toBe(0);
        expect(haversineMetres(a, b)).toBe(haversineMetres(b, a));
        expect(haversineMetres(a, b)).toBeGreaterThanOrEqual(0);
        expect(haversineMetres(a, b)).toBeLessThanOrEqual(Math.PI * EARTH_RADIUS_METRES + 1e-6);
      }),
    );
  });

  // asin is ill-conditioned near antipodes, where results can be off by a few centimetres.
  it('satisfies the triangle inequality, to a metre', () => {
    fc.assert(
      fc.property(pointArbitrary, pointArbitrary, pointArbitrary, (a, b, c) => {
        expect(haversineMetres(a, c)).toBeLessThanOrEqual(
          haversineMetres(a, b) + haversineMetres(b, c) + 1,
        );
      }),
    );
  });
});

describe('isKnownPosition [RULE-TRIP-4, SPEC-9.3]', () => {
  it('rejects the unknown sentinels and impossible positions', () => {
    expect(isKnownPosition(LONDON)).toBe(true);
    expect(isKnownPosition({ latitude: 90, longitude: 180 })).toBe(true);
    expect(isKnownPosition({ latitude: -91, longitude: -181 })).toBe(false);
    expect(isKnownPosition({ latitude: -91, longitude: 10 })).toBe(false);
    expect(isKnownPosition({ latitude: 10, longitude: -181 })).toBe(false);
    expect(isKnownPosition({ latitude: 95, longitude: 0 })).toBe(false);
    expect(isKnownPosition({ latitude: Number.NaN, longitude: 0 })).toBe(false);
  });
});
