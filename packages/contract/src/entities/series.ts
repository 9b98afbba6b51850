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

/**
 * The compact series of one record for the chart (issue 13,
 * docs/decisions/compact-series.md): the timing once, the temperatures as a
 * plain number array (°C at the store's precision, null for a gap). Point
 * `i` is taken at `first_point_time + i x interval_seconds` (domain rules
 * section 1). A full-resolution reply holds every point from `from_index` to
 * `to_index`; a reduced one (long series, `width` given) holds per pixel
 * column the lowest and highest value and a gap where the column has one,
 * plus every point in excursion exactly, each at the index `indices` gives.
 * One reply of GET /api/devices/aggregate/record-series/.
 */
export const ZRecordSeries = z
  .object({
    record_id: z.string(),
    /** The record's start time (ISO 8601), null before it started. */
    start_time: z.string().nullable(),
    /** Time of point 0 (start time plus start delay), null when the points cannot be placed in time. */
    first_point_time: z.string().nullable(),
    /** Seconds between points (the calculated interval when present), null when unknown. */
    interval_seconds: z.number().nullable(),
    /** Points in the record's series (its last index + 1, gaps included). */
    length: z.number().int(),
    /** Points with a value (not gaps) from from_index to to_index. */
    point_count: z.number().int(),
    /** First and last index the reply covers (the window; the whole series without from/to). */
    from_index: z.number().int(),
    to_index: z.number().int(),
    /** Whether points were left out (min/max per column, excursions kept). */
    reduced: z.boolean(),
    /** Consecutive points per pixel column (1: full resolution). */
    bucket_size: z.number().int(),
    /** Reduced only: the index of each temperature, ascending. */
    indices: z.array(z.number().int()).optional(),
    /** °C, null for a gap: from_index onwards one per index, or one per entry of indices. */
    temperatures: z.array(z.number().nullable()),
    high_threshold: z.number().nullable(),
    low_threshold: z.number().nullable(),
    cumulative_high_threshold: z.number().nullable(),
    cumulative_low_threshold: z.number().nullable(),
    trip_begin_time: z.string().nullable(),
    trip_end_time: z.string().nullable(),
  })
  .meta({ id: 'RecordSeries' });
export type TRecordSeries = z.infer<typeof ZRecordSeries>;
