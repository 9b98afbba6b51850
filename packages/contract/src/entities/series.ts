import { z } from 'zod';

/**
 * Temperature and location series of spec section 3 ("Records, scans, alarms
 * and tags"): points, the per-record temperature aggregate, coordinates and
 * location samples.
 */

/** "Temperature point: temperature, timestamp, index." */
export const ZTemperaturePoint = z
  .object({
    temperature: z.number().optional(),
    timestamp: z.string().optional(),
    index: z.number().int().optional(),
  })
  .meta({ id: 'TemperaturePoint' });
export type TTemperaturePoint = z.infer<typeof ZTemperaturePoint>;

/**
 * "Trip temperature series / aggregate per record: record_id, high and low
 * thresholds, cumulative thresholds, trip_begin_time, trip_end_time, start_time,
 * temperatures (list, each with a temperature field)." One item of
 * GET /api/devices/aggregate/record-temperatures/.
 */
export const ZTripTemperatures = z
  .object({
    record_id: z.string().optional(),
    high_threshold: z.number().nullable().optional(),
    low_threshold: z.number().nullable().optional(),
    cumulative_high_threshold: z.number().nullable().optional(),
    cumulative_low_threshold: z.number().nullable().optional(),
    trip_begin_time: z.string().nullable().optional(),
    trip_end_time: z.string().nullable().optional(),
    start_time: z.string().nullable().optional(),
    temperatures: z.array(ZTemperaturePoint).optional(),
  })
  .meta({ id: 'TripTemperatures' });
export type TTripTemperatures = z.infer<typeof ZTripTemperatures>;

/** "Coordinates: latitude, longitude." */
export const ZCoordinates = z
  .object({
    latitude: z.number().optional(),
    longitude: z.number().optional(),
  })
  .meta({ id: 'Coordinates' });
export type TCoordinates = z.infer<typeof ZCoordinates>;

/** "Location sample: tag_id, location, frame_id, temperature, timestamp." */
export const ZLocationSample = z
  .object({
    tag_id: z.string().optional(),
    location: ZCoordinates.optional(),
    /** Nanotag frame id (a string, like every id the spec does not type). */
    frame_id: z.string().optional(),
    temperature: z.number().nullable().optional(),
    timestamp: z.string().optional(),
  })
  .meta({ id: 'LocationSample' });
export type TLocationSample = z.infer<typeof ZLocationSample>;

/** Record locations, "locations (each with latitude, longitude, timestamp)". */
export const ZRecordLocation = z
  .object({
    latitude: z.number().optional(),
    longitude: z.number().optional(),
    timestamp: z.string().optional(),
  })
  .meta({ id: 'RecordLocation' });
export type TRecordLocation = z.infer<typeof ZRecordLocation>;

/**
 * "Record locations: record_id, locations (each with latitude, longitude,
 * timestamp). Both record_id and locations are required." One item of
 * GET /api/devices/aggregate/locations/.
 */
export const ZRecordLocations = z
  .object({
    record_id: z.string(),
    locations: z.array(ZRecordLocation),
  })
  .meta({ id: 'RecordLocations' });
export type TRecordLocations = z.infer<typeof ZRecordLocations>;
