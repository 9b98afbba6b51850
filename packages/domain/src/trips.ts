import type { TDistanceUnit, TTripStatus } from '@coldtrace/contract';
import { haversineMetres, isKnownPosition, toMetres, type GeoPoint } from './distance-units';
import type { TripTimes } from './evaluation-window';

/**
 * Trips and geo-fences (domain rules §4).
 *
 * - Departure: `num_points_to_depart` consecutive location samples farther
 *   (strictly) than the departure radius from the origin (shipper location):
 *   IN_TRANSIT, `begin_time` = the first of those samples.
 * - Arrival, after departure: `num_points_to_arrive` consecutive samples within
 *   (at most) the arrival radius of the destination (receiver location):
 *   ARRIVED, `end_time` = the first of those samples. The search starts at the
 *   first departure sample, so `begin_time <= end_time`.
 * - Samples with an unknown position (the sentinels -91 / -181, anything out of
 *   range or not finite) or a non-finite timestamp are dropped before counting:
 *   they neither count towards nor break a run of consecutive samples.
 * - Samples are taken in timestamp order (a stable sort, so equal timestamps
 *   keep their given order).
 * - Detection is a pure function of all samples: once a trip departed (or
 *   arrived), more samples never undo it.
 * - A manual trip edit wins: {@link detectTrip} returns it as it is.
 *
 * Times are UTC epoch seconds.
 */

export interface LocationSample extends GeoPoint {
  /** UTC epoch seconds. */
  readonly timestamp: number;
}

/** Origin (shipper location) and destination (receiver location) coordinates. */
export interface TripRoute {
  readonly origin?: GeoPoint | null;
  readonly destination?: GeoPoint | null;
}

/**
 * Geo-fence settings of an organization, as the contract's GeoFenceSettings:
 * each radius is expressed in its `_units` unit despite the `_meters` suffix
 * (a missing unit means metres).
 */
export interface GeoFenceSettings {
  readonly arrival_radius_meters?: number | null;
  readonly arrival_radius_units?: TDistanceUnit | null;
  readonly departure_radius_meters?: number | null;
  readonly departure_radius_units?: TDistanceUnit | null;
  readonly num_points_to_arrive?: number | null;
  readonly num_points_to_depart?: number | null;
}

export interface DetectedTrip {
  readonly begin_time: number | null;
  readonly end_time: number | null;
  readonly trip_status: TTripStatus;
  /** `manual` when a manual edit decided the trip, else `geo-fence`. */
  readonly source: 'manual' | 'geo-fence';
}

/** Trip status from its times: no begin NOT_DEPARTED, begin without end IN_TRANSIT, end ARRIVED. */
export function tripStatusFromTimes(
  beginTime: number | null | undefined,
  endTime: number | null | undefined,
): TTripStatus {
  if (endTime != null) return 'ARRIVED';
  if (beginTime != null) return 'IN_TRANSIT';
  return 'NOT_DEPARTED';
}

function radiusMetres(
  value: number | null | undefined,
  unit: TDistanceUnit | null | undefined,
): number | null {
  if (value == null || !Number.isFinite(value) || value < 0) return null;
  const metres = toMetres(value, unit ?? 'm');
  return Number.isFinite(metres) ? metres : null;
}

/**
 * The geo-fence radii in metres; `null` for a radius that is missing, negative
 * or not finite (that fence is then not detected at all).
 */
export function geoFenceRadiiMetres(settings: GeoFenceSettings): {
  arrival: number | null;
  departure: number | null;
} {
  return {
    arrival: radiusMetres(settings.arrival_radius_meters, settings.arrival_radius_units),
    departure: radiusMetres(settings.departure_radius_meters, settings.departure_radius_units),
  };
}

/** A point count setting: absent means 1; below 1 counts as 1; fractions round up. */
export function requiredPoints(value: number | null | undefined): number {
  if (value == null || !Number.isFinite(value)) return 1;
  return Math.max(1, Math.ceil(value));
}

/** Whether a sample can move a trip: a known position and a finite timestamp. */
export function isUsableSample(sample: LocationSample): boolean {
  return Number.isFinite(sample.timestamp) && isKnownPosition(sample);
}

function knownPoint(point: GeoPoint | null | undefined): GeoPoint | null {
  return point != null && isKnownPosition(point) ? point : null;
}

/** Index of the first sample of the first run of `count` consecutive samples matching `test`, from `from`. */
function firstRun(
  samples: readonly LocationSample[],
  from: number,
  count: number,
  test: (sample: LocationSample) => boolean,
): number {
  let runStart = -1;
  for (let i = from; i < samples.length; i++) {
    const sample = samples[i];
    if (sample !== undefined && test(sample)) {
      if (runStart < 0) runStart = i;
      if (i - runStart + 1 >= count) return runStart;
    } else {
      runStart = -1;
    }
  }
  return -1;
}

/**
 * The trip of a record from its location samples and the geo-fences, or the
 * manual edit when there is one (`manual` not null/undefined): a manual edit is
 * never overwritten by automatic detection.
 *
 * Without a known origin or a departure radius the trip cannot depart; without
 * a known destination or an arrival radius it cannot arrive.
 */
export function detectTrip(
  samples: readonly LocationSample[],
  route: TripRoute,
  geoFence: GeoFenceSettings,
  manual?: TripTimes | null,
): DetectedTrip {
  if (manual != null) {
    const begin = manual.begin_time ?? null;
    const end = manual.end_time ?? null;
    return {
      begin_time: begin,
      end_time: end,
      trip_status: tripStatusFromTimes(begin, end),
      source: 'manual',
    };
  }

  const notDeparted: DetectedTrip = {
    begin_time: null,
    end_time: null,
    trip_status: 'NOT_DEPARTED',
    source: 'geo-fence',
  };
  const origin = knownPoint(route.origin);
  const destination = knownPoint(route.destination);
  const radii = geoFenceRadiiMetres(geoFence);
  if (origin === null || radii.departure === null) return notDeparted;
  const departureRadius = radii.departure;

  const usable = samples
    .filter(isUsableSample)
    .map((sample, order) => ({ sample, order }))
    .sort((a, b) => a.sample.timestamp - b.sample.timestamp || a.order - b.order)
    .map(({ sample }) => sample);

  const departed = firstRun(
    usable,
    0,
    requiredPoints(geoFence.num_points_to_depart),
    (sample) => haversineMetres(origin, sample) > departureRadius,
  );
  const departure = usable[departed];
  if (departure === undefined) return notDeparted;
  const inTransit: DetectedTrip = {
    begin_time: departure.timestamp,
    end_time: null,
    trip_status: 'IN_TRANSIT',
    source: 'geo-fence',
  };
  if (destination === null || radii.arrival === null) return inTransit;
  const arrivalRadius = radii.arrival;

  const arrived = firstRun(
    usable,
    departed,
    requiredPoints(geoFence.num_points_to_arrive),
    (sample) => haversineMetres(destination, sample) <= arrivalRadius,
  );
  const arrival = usable[arrived];
  if (arrival === undefined) return inTransit;
  return { ...inTransit, end_time: arrival.timestamp, trip_status: 'ARRIVED' };
}
