import { detectTrip, type GeoFenceSettings } from '@coldtrace/domain';
import type { Db } from '../../db/client';
import type { RecordRow, TripInputs } from '../../db/schema-shipments';
import { toSeconds } from './record-series';
import * as repo from './repository';

/** Geo-fence defaults of an organization without settings (the table's defaults). */
export const DEFAULT_GEO_FENCE: TripInputs['geo_fence'] = {
  arrival_radius_meters: 1000,
  departure_radius_meters: 1000,
  num_points_to_arrive: 2,
  num_points_to_depart: 2,
};

/** The trip of a record as the recomputation finds it (times in seconds), with the inputs it was detected from. */
export interface EvaluatedTrip {
  begin: number | null;
  end: number | null;
  status: RecordRow['tripStatus'];
  inputs: TripInputs | null;
}

/** The trip detection inputs kept with a record still name its current origin and destination. */
function tripInputsCurrent(record: RecordRow): record is RecordRow & { tripInputs: TripInputs } {
  const inputs = record.tripInputs;
  return (
    inputs != null &&
    (inputs.origin?.id ?? null) === record.shipperLocationId &&
    (inputs.destination?.id ?? null) === record.receiverLocationId
  );
}

/** The inputs as the organization's settings and travel locations are now (one round trip, none without an origin or destination). */
async function currentTripInputs(db: Db, record: RecordRow): Promise<TripInputs> {
  const ids = [record.shipperLocationId, record.receiverLocationId].filter(
    (id): id is number => id !== null,
  );
  const inputs =
    ids.length > 0
      ? await repo.findTripInputs(db, record.organizationId, ids)
      : { locations: [], settings: undefined };
  const byId = new Map(inputs.locations.map((l) => [l.id, l]));
  const place = (id: number | null) => {
    const l = id === null ? undefined : byId.get(id);
    return l ? { id: l.id, latitude: l.latitude, longitude: l.longitude } : null;
  };
  const settings = inputs.settings;
  return {
    origin: place(record.shipperLocationId),
    destination: place(record.receiverLocationId),
    // Radii are stored in metres (the unit column is only how they are shown).
    geo_fence: settings
      ? {
          arrival_radius_meters: settings.arrivalRadiusMeters,
          departure_radius_meters: settings.departureRadiusMeters,
          num_points_to_arrive: settings.numPointsToArrive,
          num_points_to_depart: settings.numPointsToDepart,
        }
      : DEFAULT_GEO_FENCE,
  };
}

/**
 * Step "trip" of the recomputation: a manual edit stays; otherwise geo-fence
 * detection over the location samples, from the inputs kept with the record
 * (taken from the settings as they are now on the first evaluation, or when
 * the record's origin or destination changed).
 */
export async function evaluateTrip(
  db: Db,
  record: RecordRow,
  samples: readonly repo.SamplePoint[],
): Promise<EvaluatedTrip> {
  const kept: EvaluatedTrip = {
    begin: toSeconds(record.tripBeginTime),
    end: toSeconds(record.tripEndTime),
    status: record.tripStatus,
    inputs: record.tripInputs,
  };
  if (record.tripManual) return kept;
  const tripInputs = tripInputsCurrent(record)
    ? record.tripInputs
    : await currentTripInputs(db, record);
  const { origin, destination } = tripInputs;
  // Without an origin or a destination nothing can be detected: the geo-fence does not matter.
  const geoFence: GeoFenceSettings = {
    ...(origin || destination ? tripInputs.geo_fence : DEFAULT_GEO_FENCE),
    arrival_radius_units: 'm',
    departure_radius_units: 'm',
  };
  const detected = detectTrip(
    samples.map((s) => ({
      latitude: s.latitude,
      longitude: s.longitude,
      timestamp: s.timestamp.getTime() / 1000,
    })),
    {
      origin: origin ? { latitude: origin.latitude, longitude: origin.longitude } : null,
      destination: destination
        ? { latitude: destination.latitude, longitude: destination.longitude }
        : null,
    },
    geoFence,
  );
  return {
    begin: detected.begin_time,
    end: detected.end_time,
    status: detected.trip_status,
    inputs: tripInputs,
  };
}
