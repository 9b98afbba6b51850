import {
  MAX_POINTS_PER_RECORD,
  type TNanotagConfigureUpload,
  type TNanotagFirstSampleUpload,
  type TNanotagHealthUpload,
  type TNanotagPacketUpload,
  type TNanotagSettingsUpload,
  type TNanotagStatusUpload,
  type TNanotagTransmitIntervalUpload,
  type TRecordReference,
} from '@coldtrace/contract';
import { isKnownPosition } from '@coldtrace/domain';
import type { RecordRow } from '../../db/schema-shipments';
import { AppError, invalidField } from '../../kernel/errors';
import type { DecodedUpload } from './decoded';
import { runPipeline } from './pipeline';
import { recordInterval } from './record-series';
import { noConfiguration } from './runs';
import { configuresPending, rtSettings } from './rt';
import { defined, type IngestContext, isoSeconds, uploadKey } from './upload';

/**
 * The nanotag protocol: the tag's settings and periods, its first sample
 * (the run starts), health and status reports, transmit interval, and
 * packets of points (with the position of the frame, when known), each
 * decoded into the common upload shape (`decoded.ts`) that the one pipeline
 * runs (`pipeline.ts`).
 */

/** nanotag generalized data: the tag's settings, on its active record too (a pending one takes them all). */
export function decodeNanotagSettings(body: TNanotagSettingsUpload): DecodedUpload {
  const settings = rtSettings(body);
  return {
    upload: 'nanotag.settings',
    prologue: {},
    tag: { ident: body, defaultType: 'NanoTag', create: true },
    configure: { settings },
    settings,
    record: { by: 'active', orNone: true },
    patch: { fill: true, pendingTakes: 'configuration' },
  };
}

/** nanotag configure-action: record period (measurement interval) and report period (transmit interval). */
export function decodeNanotagConfigure(body: TNanotagConfigureUpload): DecodedUpload {
  // The message carries no time or id: applied again, the same periods change nothing.
  return {
    upload: 'nanotag.CONFIGURE',
    prologue: {},
    tag: { ident: body, defaultType: 'NanoTag', create: true },
    configure: {
      settings: defined({
        measurementInterval: body.record_period_seconds,
        transmitInterval: body.report_period_seconds,
      }),
    },
    ...configuresPending,
  };
}

/** nanotag first-sample-action: the run starts so that point 0 is the first sample. */
export function decodeNanotagFirstSample(body: TNanotagFirstSampleUpload): DecodedUpload {
  const firstSample = isoSeconds(body.first_sample_timestamp);
  return {
    upload: 'nanotag.FIRST_SAMPLE',
    prologue: {
      notFuture: [['first_sample_timestamp', firstSample]],
      key: { kind: 'nanotag.FIRST_SAMPLE', body },
    },
    tag: { ident: body, defaultType: 'NanoTag', create: false },
    settings: 'configuration',
    record: {
      by: 'run',
      // The start lies the tag's start delay before the first sample.
      start: (settings) => {
        if (settings.measurementInterval == null) throw noConfiguration();
        return Math.round(firstSample - (settings.startDelay ?? 0));
      },
      create: true,
      startOverwrites: true,
    },
    checks: { startAllowed: true },
    row: { kind: 'action', type: 'FIRST_SAMPLE', at: new Date(firstSample * 1000) },
  };
}

/**
 * nanotag health-action (battery report, no timestamp): sets the battery
 * health of the tag's active (else latest) record; a change is written as a
 * HEALTH action, the same report again changes nothing.
 */
export function decodeNanotagHealth(body: TNanotagHealthUpload): DecodedUpload {
  return {
    upload: 'nanotag.HEALTH',
    prologue: {},
    tag: { ident: body, defaultType: 'NanoTag', create: false },
    record: { by: 'latest', orNone: false },
    patch: { health: { battery: body.battery_health, when: 'changed' } },
    row: {
      kind: 'action',
      type: 'HEALTH',
      key: (now) => uploadKey('nanotag.HEALTH', { ...body, received: now.toISOString() }),
      unlessUnchanged: 'record',
    },
  };
}

/** nanotag status-action: the last sample taken, written as a STATUS action of its run. */
export function decodeNanotagStatus(body: TNanotagStatusUpload): DecodedUpload {
  const at = isoSeconds(body.last_sample_timestamp);
  return {
    upload: 'nanotag.STATUS',
    prologue: {
      notFuture: [['last_sample_timestamp', at]],
      key: { kind: 'nanotag.STATUS', body },
    },
    tag: { ident: body, defaultType: 'NanoTag', create: false },
    record: { by: 'covering', at, orActive: true },
    row: { kind: 'action', type: 'STATUS', at: new Date(at * 1000) },
  };
}

/** nanotag transmit-interval: kept in the tag's configuration and on its active record. */
export function decodeNanotagTransmitInterval(body: TNanotagTransmitIntervalUpload): DecodedUpload {
  return {
    upload: 'nanotag.transmit-interval',
    prologue: {},
    tag: { ident: body, defaultType: 'NanoTag', create: false },
    configure: { settings: { transmitInterval: body.transmit_interval } },
    record: { by: 'active', orNone: true },
    patch: { transmitInterval: body.transmit_interval },
    // Nothing derived follows from the transmit interval.
    recompute: false,
  };
}

/**
 * nanotag packets: the frame's last point is at packet_end_time_seconds, so
 * its index is round((packet_end - start - start_delay) / interval) in the
 * run covering that time; a known location becomes a location sample. Points
 * timed after a stopped run's stop are set aside (`after-stop.ts`).
 */
export function decodeNanotagPacket(body: TNanotagPacketUpload): DecodedUpload {
  const end = body.packet_end_time_seconds;
  return {
    upload: 'nanotag.packet',
    prologue: { notFuture: [['packet_end_time_seconds', end]] },
    tag: { ident: body, defaultType: 'NanoTag', create: false },
    record: {
      by: 'covering',
      at: end,
      orActive: false,
      notStarted: () =>
        new AppError('CONFLICT', 'The record has not started (no first sample yet)', {
          packet_end_time_seconds: 'Before the first sample of the tag',
        }),
    },
    points: { offset: (record) => frameOffset(record, body), temps: body.temps },
    ...(body.location && isKnownPosition(body.location)
      ? {
          location: {
            latitude: body.location.latitude,
            longitude: body.location.longitude,
            at: new Date(end * 1000),
            ...(body.frame_id !== undefined ? { frameId: body.frame_id } : {}),
            // The frame's last point is at its position's time.
            temperature: 'last-sent' as const,
          },
        }
      : {}),
  };
}

/** The index of the frame's first point in its (started) run; refused when it would not fit. */
function frameOffset(record: RecordRow, body: TNanotagPacketUpload): number {
  const interval = recordInterval(record);
  const lastIndex = Math.round(
    (body.packet_end_time_seconds - record.startTimeSeconds! - record.startDelay) / interval,
  );
  const offset = lastIndex - (body.temps.length - 1);
  if (offset < 0) {
    throw invalidField(
      'packet_end_time_seconds',
      `Field 'packet_end_time_seconds': the frame would begin before the record's first point`,
    );
  }
  if (lastIndex >= MAX_POINTS_PER_RECORD) {
    throw invalidField(
      'temps',
      `Field 'temps': points up to ${lastIndex} reach beyond the ${MAX_POINTS_PER_RECORD} points a record may hold`,
    );
  }
  return offset;
}

const run =
  <B>(decode: (body: B) => DecodedUpload) =>
  (ctx: IngestContext, body: B): Promise<TRecordReference> =>
    runPipeline(ctx, decode(body));

export const nanotagSettings = run(decodeNanotagSettings);
export const nanotagConfigure = run(decodeNanotagConfigure);
export const nanotagFirstSample = run(decodeNanotagFirstSample);
export const nanotagHealth = run(decodeNanotagHealth);
export const nanotagStatus = run(decodeNanotagStatus);
export const nanotagTransmitInterval = run(decodeNanotagTransmitInterval);
export const nanotagPacket = run(decodeNanotagPacket);
