import type {
  TRequestResult,
  TRtConfigureUpload,
  TRtPacketUpload,
  TRtRequest,
  TRtStartUpload,
  TRtStopUpload,
} from '@coldtrace/contract';
import type { TagRow } from '../../db/schema-shipments';
import { AppError, invalidField } from '../../kernel/errors';
import type { DecodedUpload } from './decoded';
import { runPipeline } from './pipeline';
import * as repo from './repository';
import { resolveTag, type RecordSettings } from './runs';
import { defined, type IngestContext, runUpload } from './upload';

/**
 * The rt protocol (tags that report over the network): configure, start and
 * stop actions and packets of points, each decoded into the common upload
 * shape (`decoded.ts`) that the one pipeline runs (`pipeline.ts`); and the
 * requests a person makes of a tag (kept as its pending command until the
 * tag confirms).
 */

export function rtSettings(body: {
  high_threshold?: number | null | undefined;
  low_threshold?: number | null | undefined;
  measurement_interval?: number | undefined;
  start_delay?: number | undefined;
  num_consecutive_excursions?: number | undefined;
}): RecordSettings {
  return defined({
    highThreshold: body.high_threshold,
    lowThreshold: body.low_threshold,
    measurementInterval: body.measurement_interval,
    startDelay: body.start_delay,
    numConsecutiveExcursions: body.num_consecutive_excursions,
  });
}

/** rt configure-action: the tag's configuration; a pending record takes it, else one is created. */
export function decodeRtConfigure(body: TRtConfigureUpload): DecodedUpload {
  return {
    upload: 'rt.CONFIGURE',
    prologue: {
      timestamp: (now: Date) => (body.timestamp ? new Date(body.timestamp) : now),
      key: {
        kind: 'rt.CONFIGURE',
        body,
        identified: body.timestamp !== undefined || body.request_id !== undefined,
      },
    },
    tag: { ident: body, defaultType: 'XT1_RT', create: true },
    configure: {
      settings: {
        ...rtSettings(body),
        ...defined({ transmitInterval: body.max_transmit_interval }),
      },
      confirms: 'configure',
    },
    ...configuresPending,
  };
}

/**
 * A configuration reaching the tag's active record, else a new pending one:
 * a record not started takes the tag's configuration. Without a time or
 * request id, a configuration that changes nothing is a repeat: no new row.
 */
export const configuresPending = {
  settings: 'configuration',
  record: { by: 'run', create: true },
  patch: { pendingTakes: 'configuration' },
  row: { kind: 'action', type: 'CONFIGURE', unlessUnchanged: 'tag-or-record' },
} as const satisfies Partial<DecodedUpload>;

/** rt start-action: the tag confirms it started at start_time_seconds. */
export function decodeRtStart(body: TRtStartUpload): DecodedUpload {
  return {
    upload: 'rt.START',
    prologue: {
      timestamp: () =>
        body.timestamp ? new Date(body.timestamp) : new Date(body.start_time_seconds * 1000),
      notFuture: [['start_time_seconds', body.start_time_seconds]],
      key: { kind: 'rt.START', body },
    },
    tag: { ident: body, defaultType: 'XT1_RT', create: true },
    configure: { settings: rtSettings(body), confirms: 'start' },
    settings: 'configuration',
    record: {
      by: 'run',
      start: body.start_time_seconds,
      create: true,
      startOverwrites: true,
      missing: () =>
        invalidField(
          'measurement_interval',
          `Field 'measurement_interval': required to start a tag that was not configured`,
        ),
    },
    checks: { startAllowed: true },
    patch: { fill: true },
    row: { kind: 'action', type: 'START' },
  };
}

/** rt stop-action: the tag confirms it stopped. */
export function decodeRtStop(body: TRtStopUpload): DecodedUpload {
  return {
    upload: 'rt.STOP',
    prologue: {
      timestamp: (now: Date) =>
        body.timestamp
          ? new Date(body.timestamp)
          : body.stop_time_seconds
            ? new Date(body.stop_time_seconds * 1000)
            : now,
      notFuture: [['stop_time_seconds', body.stop_time_seconds]],
      key: {
        kind: 'rt.STOP',
        body,
        identified: [
          body.timestamp,
          body.request_id,
          body.start_time_seconds,
          body.stop_time_seconds,
        ].some((v) => v !== undefined),
      },
    },
    tag: { ident: body, defaultType: 'XT1_RT', create: false },
    configure: { settings: {}, confirms: 'stop' },
    record: { by: 'run', start: body.start_time_seconds, create: false, orLatest: true },
    patch: {
      stop: body.stop_time_seconds ? { at: new Date(body.stop_time_seconds * 1000) } : {},
    },
    row: { kind: 'action', type: 'STOP', unlessUnchanged: 'record' },
  };
}

/**
 * rt packets: points at temperatures_offset_index of the run that started at
 * start_time_seconds (created from the tag's configuration when new), or of
 * the run covering packet_end_time_seconds, or of the active run. Replays are
 * idempotent by merge-by-index (no upload key). Points timed after a stopped
 * run's stop are set aside (`after-stop.ts`).
 */
export function decodeRtPacket(body: TRtPacketUpload): DecodedUpload {
  return {
    upload: 'rt.packet',
    prologue: {
      notFuture: [
        ['start_time_seconds', body.start_time_seconds],
        ['packet_end_time_seconds', body.packet_end_time_seconds],
      ],
    },
    tag: { ident: body, defaultType: 'XT1_RT', create: false },
    ...(body.start_time_seconds !== undefined
      ? {
          settings: 'configuration',
          record: { by: 'run', start: body.start_time_seconds, create: true },
        }
      : { record: { by: 'covering', at: body.packet_end_time_seconds, orActive: true } }),
    points: { offset: body.temperatures_offset_index, temps: body.temps },
  };
}

export const rtConfigure = (ctx: IngestContext, body: TRtConfigureUpload) =>
  runPipeline(ctx, decodeRtConfigure(body));
export const rtStart = (ctx: IngestContext, body: TRtStartUpload) =>
  runPipeline(ctx, decodeRtStart(body));
export const rtStop = (ctx: IngestContext, body: TRtStopUpload) =>
  runPipeline(ctx, decodeRtStop(body));
export const rtPacket = (ctx: IngestContext, body: TRtPacketUpload) =>
  runPipeline(ctx, decodeRtPacket(body));

/**
 * rt configure-, start- and stop-request: not an upload of the tag's data
 * (no record, no writes but the tag's pending command), so not a decoder:
 * this small path of its own. Accepted (reject_reason NA) and
 * kept on the tag as its pending command until the tag confirms; rejected
 * with record-missing (unknown tag, or nothing running to stop) or
 * empty-data (no configuration to configure or start with).
 */
export async function rtRequest(
  ctx: IngestContext,
  type: 'configure' | 'start' | 'stop',
  body: TRtRequest,
): Promise<TRequestResult> {
  // No upload key: a request only sets the pending command (the same one again changes nothing).
  return runUpload<TRequestResult>(ctx, {}, async ({ caller }, tx) => {
    let tag: TagRow;
    try {
      tag = await resolveTag(tx, caller, body, { create: false, defaultType: 'XT1_RT' });
    } catch (err) {
      if (err instanceof AppError && err.code === 'NOT_FOUND') {
        return { status: 'rejected', reject_reason: 'record-missing' };
      }
      throw err;
    }
    if (type === 'stop') {
      const active = await repo.lockActiveRecord(tx, caller.organizationId, tag.id);
      if (!active || active.startTimeSeconds === null) {
        return { status: 'rejected', reject_reason: 'record-missing' };
      }
    } else if (tag.configuration.measurement_interval === undefined) {
      return { status: 'rejected', reject_reason: 'empty-data' };
    }
    if (tag.pendingCommand?.type !== type) {
      await repo.updateTag(tx, caller.organizationId, tag.id, {
        pendingCommand: {
          type,
          requested_at: new Date().toISOString(),
          requested_by: caller.userId,
        },
      });
    }
    return { status: 'accepted', reject_reason: 'NA' };
  });
}
