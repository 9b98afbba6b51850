/**
 * The shapes of the JSON columns of the shipment tables (no tables here:
 * drizzle-kit reads this file with the schema and finds none).
 */

/** Trip detection's inputs kept with a record (`records.trip_inputs`). */
export interface TripInputs {
  origin: { id: number; latitude: number; longitude: number } | null;
  destination: { id: number; latitude: number; longitude: number } | null;
  geo_fence: {
    arrival_radius_meters: number;
    departure_radius_meters: number;
    num_points_to_arrive: number;
    num_points_to_depart: number;
  };
}

/** Settings a tag was configured with (`tags.configuration`); every field optional. */
export interface TagConfiguration {
  high_threshold?: number | null;
  low_threshold?: number | null;
  num_consecutive_excursions?: number;
  cumulative_high_threshold?: number | null;
  cumulative_low_threshold?: number | null;
  cumulative_duration_high?: string | null;
  cumulative_duration_low?: string | null;
  measurement_interval?: number;
  start_delay?: number;
  transmit_interval?: number;
}

/** An accepted rt request waiting for the tag's confirmation (`tags.pending_command`). */
export interface PendingCommand {
  type: 'configure' | 'start' | 'stop';
  requested_at: string;
  requested_by: string;
}
