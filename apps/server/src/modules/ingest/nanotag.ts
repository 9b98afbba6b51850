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
import { checkStartAllowed } from '../calibration';
import { mergeUpToStop, withSetAside } from './after-stop';
import { recomputeRecord, recordInterval } from './reevaluate';
import * as repo from './repository';
import {
  applyPatch,
  configurationSettings,
  configureRecord,
  configureTag,
  fillSettings,
  finishAction,
  noConfiguration,
  noRecord,
  resolveRecord,
  resolveTag,
} from './runs';
import { rtSettings } from './rt';
import { defined, type IngestContext, isoSeconds, reference, runUpload } from './upload';
import { addLocationSample, type UploadWrites } from './upload-writes';
import { uploadKey } from './upload-key';

/**
 * The nanotag protocol: the tag's settings and periods, its first sample
 * (the run starts), health and status reports, transmit interval, and
 * packets of points (with the position of the frame, when known).
 */

export async function nanotagSettings(
  ctx: IngestContext,
  body: TNanotagSettingsUpload,
): Promise<TRecordReference> {
  return runUpload(ctx, {}, async ({ caller, now }, tx) => {
    let tag = await resolveTag(tx, caller, body, { create: true, defaultType: 'NanoTag' });
    const settings = rtSettings(body);
    tag = await configureTag(tx, caller, tag, settings);
    const active = await repo.lockActiveRecord(tx, caller.organizationId, tag.id);
    if (!active) return reference(null, tag);
    const next =
      active.startTimeSeconds === null
        ? configurationSettings(tag.configuration)
        : fillSettings(active, settings);
    const updated = await applyPatch(tx, active, next, now);
    if (updated !== active) await recomputeRecord(tx, updated, { now, jobs: caller.jobs });
    return reference(updated, tag);
  });
}

/** nanotag configure-action: record period (measurement interval) and report period (transmit interval). */
export async function nanotagConfigure(
  ctx: IngestContext,
  body: TNanotagConfigureUpload,
): Promise<TRecordReference> {
  // The message carries no time or id: applied again, the same periods change nothing.
  return runUpload(ctx, {}, async ({ caller, now }, tx) => {
    const tag = await resolveTag(tx, caller, body, { create: true, defaultType: 'NanoTag' });
    const configured = await configureTag(
      tx,
      caller,
      tag,
      defined({
        measurementInterval: body.record_period_seconds,
        transmitInterval: body.report_period_seconds,
      }),
    );
    return configureRecord(
      tx,
      caller,
      configured,
      { type: 'CONFIGURE', key: null, timestamp: now },
      now,
      configured !== tag,
    );
  });
}

/** nanotag first-sample-action: the run starts so that point 0 is the first sample. */
export async function nanotagFirstSample(
  ctx: IngestContext,
  body: TNanotagFirstSampleUpload,
): Promise<TRecordReference> {
  const firstSample = isoSeconds(body.first_sample_timestamp);
  const prologue = {
    notFuture: [['first_sample_timestamp', firstSample]],
    key: { kind: 'nanotag.FIRST_SAMPLE', body },
  } as const;
  return runUpload(ctx, prologue, async ({ caller, now, key }, tx, replay) => {
    const tag = await resolveTag(tx, caller, body, { create: false, defaultType: 'NanoTag' });
    const again = await replay();
    if (again) return again;
    const settings = configurationSettings(tag.configuration);
    if (settings.measurementInterval == null) throw noConfiguration();
    const start = Math.round(firstSample - (settings.startDelay ?? 0));
    const { record } = await resolveRecord(tx, caller, tag, {
      start,
      settings,
      create: true,
      startOverwrites: true,
      now,
    });
    await checkStartAllowed(tx, { ...ctx, ...caller, tag, record });
    return finishAction(
      tx,
      caller,
      tag,
      record,
      { type: 'FIRST_SAMPLE', key, timestamp: new Date(firstSample * 1000) },
      now,
    );
  });
}

/**
 * nanotag health-action (battery report, no timestamp): sets the battery
 * health of the tag's active (else latest) record; a change is written as a
 * HEALTH action, the same report again changes nothing.
 */
export async function nanotagHealth(
  ctx: IngestContext,
  body: TNanotagHealthUpload,
): Promise<TRecordReference> {
  return runUpload(ctx, {}, async ({ caller, now }, tx) => {
    const tag = await resolveTag(tx, caller, body, { create: false, defaultType: 'NanoTag' });
    const record = await repo.lockLatestRecord(tx, caller.organizationId, tag.id);
    if (!record) throw noRecord();
    if (record.batteryHealth === body.battery_health) return reference(record, tag);
    const updated = await applyPatch(
      tx,
      record,
      { batteryHealth: body.battery_health, healthReportedAt: now },
      now,
    );
    const key = uploadKey('nanotag.HEALTH', { ...body, received: now.toISOString() });
    return finishAction(tx, caller, tag, updated, { type: 'HEALTH', key, timestamp: now }, now);
  });
}

/** nanotag status-action: the last sample taken, written as a STATUS action of its run. */
export async function nanotagStatus(
  ctx: IngestContext,
  body: TNanotagStatusUpload,
): Promise<TRecordReference> {
  const at = isoSeconds(body.last_sample_timestamp);
  const prologue = {
    notFuture: [['last_sample_timestamp', at]],
    key: { kind: 'nanotag.STATUS', body },
  } as const;
  return runUpload(ctx, prologue, async ({ caller, now, key }, tx, replay) => {
    const tag = await resolveTag(tx, caller, body, { create: false, defaultType: 'NanoTag' });
    const again = await replay();
    if (again) return again;
    const record =
      (await repo.lockRecordCovering(tx, caller.organizationId, tag.id, at)) ??
      (await repo.lockActiveRecord(tx, caller.organizationId, tag.id));
    if (!record) throw noRecord();
    return finishAction(
      tx,
      caller,
      tag,
      record,
      { type: 'STATUS', key, timestamp: new Date(at * 1000) },
      now,
    );
  });
}

/** nanotag transmit-interval: kept in the tag's configuration and on its active record. */
export async function nanotagTransmitInterval(
  ctx: IngestContext,
  body: TNanotagTransmitIntervalUpload,
): Promise<TRecordReference> {
  return runUpload(ctx, {}, async ({ caller, now }, tx) => {
    let tag = await resolveTag(tx, caller, body, { create: false, defaultType: 'NanoTag' });
    tag = await configureTag(tx, caller, tag, { transmitInterval: body.transmit_interval });
    const active = await repo.lockActiveRecord(tx, caller.organizationId, tag.id);
    if (!active) return reference(null, tag);
    const updated = await applyPatch(tx, active, { transmitInterval: body.transmit_interval }, now);
    return reference(updated, tag);
  });
}

/**
 * nanotag packets: the frame's last point is at packet_end_time_seconds, so
 * its index is round((packet_end - start - start_delay) / interval) in the
 * run covering that time; a known location becomes a location sample. Points
 * timed after a stopped run's stop are set aside (`after-stop.ts`).
 */
export async function nanotagPacket(
  ctx: IngestContext,
  body: TNanotagPacketUpload,
): Promise<TRecordReference> {
  const prologue = {
    notFuture: [['packet_end_time_seconds', body.packet_end_time_seconds]],
  } as const;
  return runUpload(ctx, prologue, async ({ caller, now }, tx) => {
    const tag = await resolveTag(tx, caller, body, { create: false, defaultType: 'NanoTag' });
    const record = await repo.lockRecordCovering(
      tx,
      caller.organizationId,
      tag.id,
      body.packet_end_time_seconds,
    );
    if (!record || record.startTimeSeconds === null) {
      const pending = await repo.lockPendingRecord(tx, caller.organizationId, tag.id);
      if (pending) {
        throw new AppError('CONFLICT', 'The record has not started (no first sample yet)', {
          packet_end_time_seconds: 'Before the first sample of the tag',
        });
      }
      throw noRecord();
    }
    const interval = recordInterval(record);
    const lastIndex = Math.round(
      (body.packet_end_time_seconds - record.startTimeSeconds - record.startDelay) / interval,
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
    const { writes, added, setAside } = await mergeUpToStop(tx, ctx, record, false, {
      upload: 'nanotag.packet',
      offset,
      temps: body.temps,
    });
    // The frame's last point is at its position's time: no temperature there when it was set aside.
    const sampled = addSample(writes, record, body, setAside ? null : (body.temps.at(-1) ?? null));
    if (added > 0 || sampled) {
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

/** The frame's known position as a location sample (queued); false: the frame has none. */
function addSample(
  writes: UploadWrites,
  record: RecordRow,
  body: TNanotagPacketUpload,
  temperature: number | null,
): boolean {
  const location = body.location;
  if (!location || !isKnownPosition(location)) return false;
  addLocationSample(
    writes,
    record,
    location.latitude,
    location.longitude,
    new Date(body.packet_end_time_seconds * 1000),
    { frameId: body.frame_id, temperature },
  );
  return true;
}
