import type {
  TRecordReference,
  TRequestResult,
  TRtConfigureUpload,
  TRtPacketUpload,
  TRtRequest,
  TRtStartUpload,
  TRtStopUpload,
} from '@coldtrace/contract';
import type { RecordRow, TagRow } from '../../db/schema-shipments';
import { AppError, invalidField } from '../../kernel/errors';
import { checkStartAllowed } from '../calibration';
import { mergeUpToStop, withSetAside } from './after-stop';
import { recomputeRecord } from './reevaluate';
import * as repo from './repository';
import {
  applyPatch,
  configurationSettings,
  configureRecord,
  configureTag,
  fillSettings,
  finishAction,
  noRecord,
  resolveRecord,
  resolveTag,
  stopPatch,
  type RecordSettings,
} from './runs';
import { defined, type IngestContext, reference, runUpload } from './upload';

/**
 * The rt protocol (tags that report over the network): configure, start and
 * stop actions, packets of points, and the requests a person makes of a tag
 * (kept as its pending command until the tag confirms).
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
export async function rtConfigure(
  ctx: IngestContext,
  body: TRtConfigureUpload,
): Promise<TRecordReference> {
  const prologue = {
    timestamp: (now: Date) => (body.timestamp ? new Date(body.timestamp) : now),
    key: {
      kind: 'rt.CONFIGURE',
      body,
      identified: body.timestamp !== undefined || body.request_id !== undefined,
    },
  };
  return runUpload(ctx, prologue, async ({ caller, now, timestamp, key }, tx, replay) => {
    const tag = await resolveTag(tx, caller, body, { create: true, defaultType: 'XT1_RT' });
    const again = await replay();
    if (again) return again;
    const settings = {
      ...rtSettings(body),
      ...defined({ transmitInterval: body.max_transmit_interval }),
    };
    const configured = await configureTag(tx, caller, tag, settings, 'configure');
    return configureRecord(
      tx,
      caller,
      configured,
      { type: 'CONFIGURE', key, timestamp },
      now,
      configured !== tag,
    );
  });
}

/** rt start-action: the tag confirms it started at start_time_seconds. */
export async function rtStart(ctx: IngestContext, body: TRtStartUpload): Promise<TRecordReference> {
  const prologue = {
    timestamp: () =>
      body.timestamp ? new Date(body.timestamp) : new Date(body.start_time_seconds * 1000),
    notFuture: [['start_time_seconds', body.start_time_seconds]],
    key: { kind: 'rt.START', body },
  } as const;
  return runUpload(ctx, prologue, async ({ caller, now, timestamp, key }, tx, replay) => {
    let tag = await resolveTag(tx, caller, body, { create: true, defaultType: 'XT1_RT' });
    const again = await replay();
    if (again) return again;
    tag = await configureTag(tx, caller, tag, rtSettings(body), 'start');
    const settings = configurationSettings(tag.configuration);
    const { record } = await resolveRecord(tx, caller, tag, {
      start: body.start_time_seconds,
      settings,
      create: true,
      startOverwrites: true,
      missing: () =>
        invalidField(
          'measurement_interval',
          `Field 'measurement_interval': required to start a tag that was not configured`,
        ),
      now,
    });
    await checkStartAllowed(tx, { ...ctx, ...caller, tag, record });
    const filled = await applyPatch(tx, record, fillSettings(record, settings), now);
    return finishAction(tx, caller, tag, filled, { type: 'START', key, timestamp }, now);
  });
}

/** rt stop-action: the tag confirms it stopped. */
export async function rtStop(ctx: IngestContext, body: TRtStopUpload): Promise<TRecordReference> {
  const prologue = {
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
  } as const;
  return runUpload(ctx, prologue, async ({ caller, now, timestamp, key }, tx, replay) => {
    let tag = await resolveTag(tx, caller, body, { create: false, defaultType: 'XT1_RT' });
    const again = await replay();
    if (again) return again;
    tag = await configureTag(tx, caller, tag, {}, 'stop');
    const { record } = await resolveRecord(tx, caller, tag, {
      start: body.start_time_seconds,
      create: false,
      orLatest: true,
      now,
    });
    const stopAt = body.stop_time_seconds ? new Date(body.stop_time_seconds * 1000) : timestamp;
    const stopped = await applyPatch(tx, record, stopPatch(record, stopAt), now);
    if (key === null && stopped === record) return reference(record, tag);
    return finishAction(tx, caller, tag, stopped, { type: 'STOP', key, timestamp }, now);
  });
}

/**
 * rt packets: points at temperatures_offset_index of the run that started at
 * start_time_seconds (created from the tag's configuration when new), or of
 * the run covering packet_end_time_seconds, or of the active run. Replays are
 * idempotent by merge-by-index (no upload key). Points timed after a stopped
 * run's stop are set aside (`after-stop.ts`).
 */
export async function rtPacket(
  ctx: IngestContext,
  body: TRtPacketUpload,
): Promise<TRecordReference> {
  const prologue = {
    notFuture: [
      ['start_time_seconds', body.start_time_seconds],
      ['packet_end_time_seconds', body.packet_end_time_seconds],
    ],
  } as const;
  return runUpload(ctx, prologue, async ({ caller, now }, tx) => {
    const tag = await resolveTag(tx, caller, body, { create: false, defaultType: 'XT1_RT' });
    let record: RecordRow | undefined;
    let created = false;
    if (body.start_time_seconds !== undefined) {
      ({ record, created } = await resolveRecord(tx, caller, tag, {
        start: body.start_time_seconds,
        settings: configurationSettings(tag.configuration),
        create: true,
        now,
      }));
    } else if (body.packet_end_time_seconds !== undefined) {
      record = await repo.lockRecordCovering(
        tx,
        caller.organizationId,
        tag.id,
        body.packet_end_time_seconds,
      );
    }
    record ??= await repo.lockActiveRecord(tx, caller.organizationId, tag.id);
    if (!record) throw noRecord();
    const { writes, added, setAside } = await mergeUpToStop(tx, ctx, record, created, {
      upload: 'rt.packet',
      offset: body.temperatures_offset_index,
      temps: body.temps,
    });
    if (added > 0 || created) {
      await recomputeRecord(tx, record, {
        now,
        seriesChanged: added > 0,
        writes,
        jobs: caller.jobs,
      });
    } else {
      await writes.flush();
    }
    return withSetAside(reference(record, tag), setAside);
  });
}

/**
 * rt configure-, start- and stop-request: accepted (reject_reason NA) and
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
