import { z } from 'zod';
import {
  DEFAULT_NUM_CONSECUTIVE_EXCURSIONS,
  DEFAULT_TEMPERATURES_OFFSET_INDEX,
} from '../constants';
import { ZBatteryHealth, ZCommandResult, ZRejectReason } from '../enums';
import { ZCoordinates } from './series';

/**
 * Real-time (rt) and nanotag messages of spec section 3 ("Tag messages and
 * uploads"): start and stop commands, temperature packets, the request result
 * and the other telemetry items. No field is listed as required. Times are ISO
 * 8601 strings, `*_seconds` Unix seconds.
 */

/**
 * "Start command to a tag: tag_id, request_id, timestamp, high_threshold,
 * low_threshold, measurement_interval, start_delay, num_consecutive_excursions
 * (default 1), max_transmit_interval."
 */
export const ZStartCommand = z
  .object({
    tag_id: z.string().optional(),
    request_id: z.string().optional(),
    timestamp: z.string().optional(),
    high_threshold: z.number().optional(),
    low_threshold: z.number().optional(),
    measurement_interval: z.number().optional(),
    start_delay: z.number().optional(),
    num_consecutive_excursions: z.number().int().default(DEFAULT_NUM_CONSECUTIVE_EXCURSIONS),
    max_transmit_interval: z.number().optional(),
  })
  .meta({ id: 'StartCommand' });
export type TStartCommand = z.infer<typeof ZStartCommand>;

/** "The start-confirmation variant adds start_time_seconds and has no max_transmit_interval." */
export const ZStartConfirmation = ZStartCommand.omit({ max_transmit_interval: true })
  .extend({ start_time_seconds: z.number().optional() })
  .meta({ id: 'StartConfirmation' });
export type TStartConfirmation = z.infer<typeof ZStartConfirmation>;

/** "Stop command: tag_id, request_id, timestamp, start_time_seconds, stop_time_seconds." */
export const ZStopCommand = z
  .object({
    tag_id: z.string().optional(),
    request_id: z.string().optional(),
    timestamp: z.string().optional(),
    start_time_seconds: z.number().optional(),
    stop_time_seconds: z.number().optional(),
  })
  .meta({ id: 'StopCommand' });
export type TStopCommand = z.infer<typeof ZStopCommand>;

/**
 * "Temperature packet: tag_id, temps, start_time_seconds,
 * packet_end_time_seconds, temperatures_offset_index." temps begin at point
 * temperatures_offset_index, which defaults to 0 (spec section 9).
 */
export const ZTemperaturePacket = z
  .object({
    tag_id: z.string().optional(),
    temps: z.array(z.number()).optional(),
    start_time_seconds: z.number().optional(),
    packet_end_time_seconds: z.number().optional(),
    temperatures_offset_index: z.number().int().min(0).default(DEFAULT_TEMPERATURES_OFFSET_INDEX),
  })
  .meta({ id: 'TemperaturePacket' });
export type TTemperaturePacket = z.infer<typeof ZTemperaturePacket>;

/** "The nanotag form has tag_id, location, temps, packet_end_time_seconds, frame_id." */
export const ZNanotagTemperaturePacket = z
  .object({
    tag_id: z.string().optional(),
    location: ZCoordinates.optional(),
    temps: z.array(z.number()).optional(),
    packet_end_time_seconds: z.number().optional(),
    frame_id: z.string().optional(),
  })
  .meta({ id: 'NanotagTemperaturePacket' });
export type TNanotagTemperaturePacket = z.infer<typeof ZNanotagTemperaturePacket>;

/** "Request result: status (accepted or rejected) and reject_reason (empty-data, record-missing, or NA)." */
export const ZRequestResult = z
  .object({
    status: ZCommandResult.optional(),
    reject_reason: ZRejectReason.optional(),
  })
  .meta({ id: 'RequestResult' });
export type TRequestResult = z.infer<typeof ZRequestResult>;

/** Other tag telemetry items, "Record and report periods: tag_id, record_period_seconds, report_period_seconds." */
export const ZRecordReportPeriods = z
  .object({
    tag_id: z.string().optional(),
    record_period_seconds: z.number().optional(),
    report_period_seconds: z.number().optional(),
  })
  .meta({ id: 'RecordReportPeriods' });
export type TRecordReportPeriods = z.infer<typeof ZRecordReportPeriods>;

/** Other tag telemetry items, "First sample: tag_id, first_sample_timestamp." */
export const ZFirstSample = z
  .object({
    tag_id: z.string().optional(),
    first_sample_timestamp: z.string().optional(),
  })
  .meta({ id: 'FirstSample' });
export type TFirstSample = z.infer<typeof ZFirstSample>;

/** Other tag telemetry items, "Battery report: tag_id, battery_health." */
export const ZBatteryReport = z
  .object({
    tag_id: z.string().optional(),
    battery_health: ZBatteryHealth.optional(),
  })
  .meta({ id: 'BatteryReport' });
export type TBatteryReport = z.infer<typeof ZBatteryReport>;

/** Other tag telemetry items, "Last sample: tag_id, last_sample_number, last_sample_timestamp." */
export const ZLastSample = z
  .object({
    tag_id: z.string().optional(),
    last_sample_number: z.number().int().optional(),
    last_sample_timestamp: z.string().optional(),
  })
  .meta({ id: 'LastSample' });
export type TLastSample = z.infer<typeof ZLastSample>;

/** Other tag telemetry items, "Transmit interval: tag_id, transmit_interval." */
export const ZTransmitInterval = z
  .object({
    tag_id: z.string().optional(),
    transmit_interval: z.number().optional(),
  })
  .meta({ id: 'TransmitInterval' });
export type TTransmitInterval = z.infer<typeof ZTransmitInterval>;
