import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { haversineMetres, type GeoPoint } from './distance-units';
import {
  detectTrip,
  geoFenceRadiiMetres,
  isUsableSample,
  requiredPoints,
  tripStatusFromTimes,
  type GeoFenceSettings,
  type LocationSample,
} from './trips';

/*
 * Along a meridian, 0.001° of latitude is 6_371_008.8 m x π / 180 x 0.001
 * = 111.195 m (haversine on the mean earth radius). So with a 1 km departure
 * radius, +0.005° (556 m) is inside and +0.01° (1112 m) outside; with a 500 m
 * arrival radius, +0.004° (445 m) is inside and +0.005° (556 m) outside.
 */
const ORIGIN: GeoPoint = { latitude: 47.5596, longitude: 7.5886 }; // Basel
const DESTINATION: GeoPoint = { latitude: 50.1109, longitude: 8.6821 }; // Frankfurt
const route = { origin: ORIGIN, destination: DESTINATION };
const north = (p: GeoPoint, degrees: number): GeoPoint => ({
  latitude: p.latitude + degrees,
  longitude: p.longitude,
});
const at = (p: GeoPoint, timestamp: number): LocationSample => ({ ...p, timestamp });
const UNKNOWN = { latitude: -91, longitude: -181 };

const fence: GeoFenceSettings = {
  departure_radius_meters: 1,
  departure_radius_units: 'km',
  arrival_radius_meters: 500,
  arrival_radius_units: 'm',
  num_points_to_depart: 2,
  num_points_to_arrive: 2,
};

describe('tripStatusFromTimes [RULE-TRIP-1, RULE-TRIP-3]', () => {
  it('follows the times', () => {
    expect(tripStatusFromTimes(null, null)).toBe('NOT_DEPARTED');
    expect(tripStatusFromTimes(undefined, undefined)).toBe('NOT_DEPARTED');
    expect(tripStatusFromTimes(100, null)).toBe('IN_TRANSIT');
    expect(tripStatusFromTimes(100, 200)).toBe('ARRIVED');
    expect(tripStatusFromTimes(null, 200)).toBe('ARRIVED');
    // 0 is a time (1970-01-01T00:00:00Z), not an absent one.
    expect(tripStatusFromTimes(0, null)).toBe('IN_TRANSIT');
  });
});

describe('detectTrip (worked example) [RULE-TRIP-1, RULE-TRIP-3]', () => {
  const samples: LocationSample[] = [
    at(ORIGIN, 100), // 0 m
    at(north(ORIGIN, 0.02), 200), // 2224 m: out, but alone
    at(north(ORIGIN, 0.005), 300), // 556 m: back inside, breaks the run
    at(north(ORIGIN, 0.02), 400), // out: first of the departure run
    at(UNKNOWN, 500), // unknown position: ignored, does not break the run
    at(north(ORIGIN, 0.05), 600), // out: second -> departed at 400
    at(north(DESTINATION, 0.001), 700), // 111 m from the destination: inside, alone
    at(north(DESTINATION, 0.1), 800), // 11 km: breaks the run
    at(DESTINATION, 900), // inside: first of the arrival run
    at(UNKNOWN, 1000),
    at(north(DESTINATION, 0.004), 1100), // 445 m: inside -> arrived at 900
  ];

  it('departs at the first of num_points_to_depart samples outside the origin fence', () => {
    expect(detectTrip(samples.slice(0, 6), route, fence)).toEqual({
      begin_time: 400,
      end_time: null,
      trip_status: 'IN_TRANSIT',
      source: 'geo-fence',
    });
  });

  it('arrives at the first of num_points_to_arrive samples inside the destination fence', () => {
    expect(detectTrip(samples, route, fence)).toEqual({
      begin_time: 400,
      end_time: 900,
      trip_status: 'ARRIVED',
      source: 'geo-fence',
    });
  });

  it('has not departed before enough samples are outside', () => {
    expect(detectTrip(samples.slice(0, 5), route, fence)).toEqual({
      begin_time: null,
      end_time: null,
      trip_status: 'NOT_DEPARTED',
      source: 'geo-fence',
    });
  });

  it('with one point each, departs and arrives at the first sample beyond each fence', () => {
    const once = { ...fence, num_points_to_depart: 1, num_points_to_arrive: 1 };
    expect(detectTrip(samples, route, once)).toMatchObject({ begin_time: 200, end_time: 700 });
  });

  it('takes samples in timestamp order', () => {
    expect(detectTrip([...samples].reverse(), route, fence)).toMatchObject({
      begin_time: 400,
      end_time: 900,
    });
  });

  it('compares radii in metres whatever their unit', () => {
    // 556 m is outside a 0.5 km fence but inside a 0.5 mi (804.672 m) one.
    const s = [at(north(ORIGIN, 0.005), 10)];
    const one = { num_points_to_depart: 1 };
    expect(
      detectTrip(s, route, { ...one, departure_radius_meters: 0.5, departure_radius_units: 'km' }),
    ).toMatchObject({ begin_time: 10 });
    expect(
      detectTrip(s, route, { ...one, departure_radius_meters: 0.5, departure_radius_units: 'mi' }),
    ).toMatchObject({ begin_time: null });
    // No unit: metres.
    expect(detectTrip(s, route, { ...one, departure_radius_meters: 500 })).toMatchObject({
      begin_time: 10,
    });
  });

  it('cannot depart without an origin or a departure radius, nor arrive without a destination', () => {
    expect(detectTrip(samples, { destination: DESTINATION }, fence).trip_status).toBe(
      'NOT_DEPARTED',
    );
    expect(
      detectTrip(samples, { origin: UNKNOWN, destination: DESTINATION }, fence).trip_status,
    ).toBe('NOT_DEPARTED');
    expect(
      detectTrip(samples, route, { ...fence, departure_radius_meters: null }).trip_status,
    ).toBe('NOT_DEPARTED');
    expect(detectTrip(samples, { origin: ORIGIN }, fence)).toMatchObject({
      begin_time: 400,
      trip_status: 'IN_TRANSIT',
    });
    expect(detectTrip(samples, route, { ...fence, arrival_radius_meters: -1 }).trip_status).toBe(
      'IN_TRANSIT',
    );
  });

  it('leaves a manual trip alone', () => {
    expect(detectTrip(samples, route, fence, { begin_time: 50, end_time: null })).toEqual({
      begin_time: 50,
      end_time: null,
      trip_status: 'IN_TRANSIT',
      source: 'manual',
    });
    expect(detectTrip(samples, route, fence, {})).toEqual({
      begin_time: null,
      end_time: null,
      trip_status: 'NOT_DEPARTED',
      source: 'manual',
    });
    expect(detectTrip([], route, fence, { begin_time: 50, end_time: 60 }).trip_status).toBe(
      'ARRIVED',
    );
  });
});

describe('helpers [RULE-TRIP-1, RULE-TRIP-3]', () => {
  it('geoFenceRadiiMetres converts each radius with its unit', () => {
    expect(
      geoFenceRadiiMetres({
        arrival_radius_meters: 2,
        arrival_radius_units: 'km',
        departure_radius_meters: 1,
        departure_radius_units: 'mi',
      }),
    ).toEqual({ arrival: 2000, departure: 1609.344 });
    expect(geoFenceRadiiMetres({})).toEqual({ arrival: null, departure: null });
    expect(geoFenceRadiiMetres({ arrival_radius_meters: Number.NaN })).toEqual({
      arrival: null,
      departure: null,
    });
  });

  it('requiredPoints defaults to 1', () => {
    expect(requiredPoints(undefined)).toBe(1);
    expect(requiredPoints(null)).toBe(1);
    expect(requiredPoints(0)).toBe(1);
    expect(requiredPoints(3)).toBe(3);
    expect(requiredPoints(2.5)).toBe(3);
  });

  it('isUsableSample drops the sentinels and impossible positions', () => {
    expect(isUsableSample(at(ORIGIN, 1))).toBe(true);
    expect(isUsableSample(at(UNKNOWN, 1))).toBe(false);
    expect(isUsableSample({ latitude: -91, longitude: 7, timestamp: 1 })).toBe(false);
    expect(isUsableSample({ latitude: 47, longitude: -181, timestamp: 1 })).toBe(false);
    expect(isUsableSample({ latitude: 95, longitude: 7, timestamp: 1 })).toBe(false);
    expect(isUsableSample({ latitude: Number.NaN, longitude: 7, timestamp: 1 })).toBe(false);
    expect(isUsableSample({ ...ORIGIN, timestamp: Number.NaN })).toBe(false);
  });
});

// ---------------------------------------------------------------------------
// Properties

/** Positions near the origin, near the destination, or in between. */
const position: fc.Arbitrary<GeoPoint> = fc.oneof(
  fc.double({ min: -0.02, max: 0.02, noNaN: true }).map((d) => north(ORIGIN, d)),
  fc.double({ min: -0.01, max: 0.01, noNaN: true }).map((d) => north(DESTINATION, d)),
  fc.double({ min: 0, max: 1, noNaN: true }).map((f) => ({
    latitude: ORIGIN.latitude + f * (DESTINATION.latitude - ORIGIN.latitude),
    longitude: ORIGIN.longitude + f * (DESTINATION.longitude - ORIGIN.longitude),
  })),
);
/** Samples with distinct timestamps, in time order. */
const samplesArb: fc.Arbitrary<LocationSample[]> = fc
  .uniqueArray(fc.integer({ min: 1_600_000_000, max: 1_600_100_000 }), { maxLength: 30 })
  .chain((times) =>
    fc.tuple(...[...times].sort((a, b) => a - b).map((t) => position.map((p) => at(p, t)))),
  );
const fenceArb: fc.Arbitrary<GeoFenceSettings> = fc.record({
  departure_radius_meters: fc.integer({ min: 0, max: 3000 }),
  departure_radius_units: fc.constant('m' as const),
  arrival_radius_meters: fc.integer({ min: 0, max: 3000 }),
  arrival_radius_units: fc.constant('m' as const),
  num_points_to_depart: fc.integer({ min: 1, max: 4 }),
  num_points_to_arrive: fc.integer({ min: 1, max: 4 }),
});
const invalidPosition: fc.Arbitrary<GeoPoint> = fc.oneof(
  fc.constant(UNKNOWN),
  fc.constant({ latitude: -91, longitude: 8.2 }),
  fc.constant({ latitude: 48.1, longitude: -181 }),
  fc.record({
    latitude: fc.double({ min: 90.0001, max: 1000, noNaN: true }),
    longitude: fc.constant(7),
  }),
);

describe('detectTrip (properties) [RULE-TRIP-1, RULE-TRIP-3]', () => {
  it('ignores samples at the sentinels or at impossible positions, wherever they fall', () => {
    fc.assert(
      fc.property(
        samplesArb,
        fenceArb,
        fc.array(fc.tuple(invalidPosition, fc.integer({ min: 1_599_999_000, max: 1_600_101_000 }))),
        (samples, geoFence, junk) => {
          const noisy = [...samples, ...junk.map(([p, t]) => at(p, t))];
          expect(detectTrip(noisy, route, geoFence)).toEqual(detectTrip(samples, route, geoFence));
        },
      ),
    );
  });

  it('never departs while every sample is inside the departure fence', () => {
    fc.assert(
      fc.property(
        samplesArb,
        fenceArb,
        fc.double({ min: 0, max: 1, noNaN: true }),
        (samples, geoFence, share) => {
          // Pull every sample towards the origin until it lies inside the fence (at the origin for 0 m).
          const radius = geoFence.departure_radius_meters ?? 0;
          const degrees = (share * radius) / 111_195.08 / 1.01;
          const near = samples.map((s, i) =>
            at(north(ORIGIN, i % 2 === 0 ? degrees : -degrees), s.timestamp),
          );
          expect(detectTrip(near, route, geoFence).trip_status).toBe('NOT_DEPARTED');
        },
      ),
    );
  });

  it('departs at the first run of enough samples outside the fence, and arrives after', () => {
    fc.assert(
      fc.property(samplesArb, fenceArb, (samples, geoFence) => {
        const trip = detectTrip(samples, route, geoFence);
        expect(trip.trip_status).toBe(tripStatusFromTimes(trip.begin_time, trip.end_time));
        if (trip.begin_time === null) {
          expect(trip.end_time).toBeNull();
          return;
        }
        const n = geoFence.num_points_to_depart ?? 1;
        const k = samples.findIndex((s) => s.timestamp === trip.begin_time);
        const radius = geoFence.departure_radius_meters ?? 0;
        const outside = (s: LocationSample | undefined): boolean =>
          s !== undefined && haversineMetres(ORIGIN, s) > radius;
        for (let i = k; i < k + n; i++) expect(outside(samples[i])).toBe(true);
        // No earlier run of n samples outside.
        for (let start = 0; start < k; start++) {
          const run = samples.slice(start, start + n);
          expect(run.length === n && run.every(outside)).toBe(false);
        }
        if (trip.end_time !== null) expect(trip.end_time).toBeGreaterThanOrEqual(trip.begin_time);
      }),
    );
  });

  it('more samples never undo a departure or an arrival', () => {
    fc.assert(
      fc.property(samplesArb, fenceArb, fc.nat(), (samples, geoFence, cut) => {
        const prefix = samples.slice(0, cut % (samples.length + 1));
        const early = detectTrip(prefix, route, geoFence);
        const late = detectTrip(samples, route, geoFence);
        if (early.begin_time !== null) expect(late.begin_time).toBe(early.begin_time);
        if (early.end_time !== null) expect(late.end_time).toBe(early.end_time);
      }),
    );
  });

  it('does not depend on the order samples arrive in', () => {
    fc.assert(
      fc.property(
        samplesArb.chain((s) =>
          fc.tuple(fc.constant(s), fc.shuffledSubarray(s, { minLength: s.length })),
        ),
        fenceArb,
        ([samples, shuffled], geoFence) => {
          expect(detectTrip(shuffled, route, geoFence)).toEqual(
            detectTrip(samples, route, geoFence),
          );
        },
      ),
    );
  });

  it('requiring more points never departs earlier', () => {
    fc.assert(
      fc.property(samplesArb, fenceArb, (samples, geoFence) => {
        const n = geoFence.num_points_to_depart ?? 1;
        const loose = detectTrip(samples, route, geoFence).begin_time;
        const strict = detectTrip(samples, route, {
          ...geoFence,
          num_points_to_depart: n + 1,
        }).begin_time;
        if (strict !== null) {
          expect(loose).not.toBeNull();
          expect(strict).toBeGreaterThanOrEqual(loose ?? Infinity);
        }
      }),
    );
  });

  it('a manual edit always wins', () => {
    const time = fc.option(fc.integer({ min: 0, max: 2_000_000_000 }), { nil: null });
    fc.assert(
      fc.property(samplesArb, fenceArb, time, time, (samples, geoFence, begin, end) => {
        expect(detectTrip(samples, route, geoFence, { begin_time: begin, end_time: end })).toEqual({
          begin_time: begin,
          end_time: end,
          trip_status: tripStatusFromTimes(begin, end),
          source: 'manual',
        });
      }),
    );
  });
});
