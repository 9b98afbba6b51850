import type { TRecordReference, TXt1Upload } from '@coldtrace/contract';
import {
  detectExcursions,
  temperatureSummary,
  timeBeyond,
  type SeriesValue,
} from '@coldtrace/domain';
import type { Db } from '../../db/client';
import type { RecordRow, TagRow } from '../../db/schema-shipments';
import { checkStartAllowed } from '../calibration';
import { mergeUpToStop, withSetAside } from './after-stop';
import { recomputeRecord, seriesOf, thresholdsOf } from './reevaluate';
import * as repo from './repository';
import {
  applyPatch,
  checkTravelLocations,
  configureTag,
  fillSettings,
  resolveRecord,
  resolveUploadTag,
  shipmentPatch,
  stopPatch,
  type RecordSettings,
} from './runs';
import {
  type Caller,
  defined,
  type IngestContext,
  reference,
  runUpload,
  storedReply,
} from './upload';
import { addLocationSample, writeAction } from './upload-writes';

/**
 * The xt1 protocol (the phone app reading an NFC tag): a scan (the tag's
 * report with its points) or an action (start, stop, configure, create
 * shipment). A person's edits of an xt1 record are in `edits.ts`.
 */

export type Xt1UploadKind = 'SCAN' | 'START' | 'STOP' | 'CONFIGURE' | 'CREATE_SHIPMENT';

function xt1Settings(body: TXt1Upload): RecordSettings {
  return defined({
    highThreshold: body.high_threshold,
    lowThreshold: body.low_threshold,
    numConsecutiveExcursions: body.num_consecutive_excursions,
    cumulativeHighThreshold: body.cumulative_high_threshold,
    cumulativeLowThreshold: body.cumulative_low_threshold,
    cumulativeDurationHigh: body.cumulative_duration_high,
    cumulativeDurationLow: body.cumulative_duration_low,
    measurementInterval: body.measurement_interval,
    calculatedMeasurementInterval: body.calculated_measurement_interval,
    startDelay: body.start_delay,
  });
}

/**
 * num_consecutive_excursions an upload left out: the tag's configuration,
 * else the organization's product of this name; undefined: neither (a new
 * record gets the spec's default, 1; an existing one keeps its value).
 */
async function consecutiveFallback(
  tx: Db,
  caller: Caller,
  tag: TagRow,
  productName: string | null | undefined,
): Promise<number | undefined> {
  const configured = tag.configuration.num_consecutive_excursions;
  if (configured !== undefined) return configured;
  if (!productName) return undefined;
  return repo.productConsecutive(tx, caller.organizationId, productName);
}

function healthPatch(
  record: RecordRow,
  health: { battery?: string | undefined; memory?: string | undefined },
  at: Date,
): Partial<RecordRow> {
  if (health.battery === undefined && health.memory === undefined) return {};
  if (record.healthReportedAt !== null && record.healthReportedAt > at) return {};
  return {
    ...(health.battery !== undefined ? { batteryHealth: health.battery } : {}),
    ...(health.memory !== undefined ? { memoryHealth: health.memory } : {}),
    healthReportedAt: at,
  };
}

/**
 * An xt1 upload: scan (tag report) or action. Finds or creates the tag and
 * the record, applies what the upload says, merges its points, stores its
 * position, writes the scan or action row, and recomputes the record.
 */
export async function xt1Upload(
  ctx: IngestContext,
  kind: Xt1UploadKind,
  body: TXt1Upload,
): Promise<TRecordReference> {
  const prologue = {
    timestamp: () => new Date(body.timestamp),
    notFuture: [
      ['start_time_seconds', body.start_time_seconds],
      ['stop_time_seconds', body.stop_time_seconds],
    ],
    key: { kind: `xt1.${kind}`, body },
    lookupInWork: true,
  } as const;
  return runUpload(ctx, prologue, async (upload, tx) => {
    const { caller, now, timestamp } = upload;
    const key = upload.key!;
    // The stored upload (a replay) is looked up with the tag's lock, and
    // again with the record's (a twin that committed while this waited).
    const found = await resolveUploadTag(
      tx,
      caller,
      body,
      { create: kind !== 'STOP', defaultType: 'XT1_NFC_MU' },
      key,
    );
    if (found.stored) return storedReply(found.stored);
    const { tag } = found;
    let candidates: repo.RunCandidates | undefined;
    if (body.record_id === undefined && body.start_time_seconds != null) {
      candidates = await repo.lockRunCandidates(
        tx,
        caller.organizationId,
        tag.id,
        body.start_time_seconds,
        key,
      );
      if (candidates.stored) return storedReply(candidates.stored);
    } else {
      const stored = await repo.findUpload(tx, caller.organizationId, key);
      if (stored) return storedReply(stored);
    }

    const sent = xt1Settings(body);
    if (kind === 'CONFIGURE' || kind === 'START') {
      await configureTag(tx, caller, tag, sent);
    }
    // Left out of the upload: the tag's configured value, else the named product's.
    const fallback =
      sent.numConsecutiveExcursions === undefined
        ? await consecutiveFallback(tx, caller, tag, body.product_designation)
        : undefined;
    const settings: RecordSettings = {
      ...defined({ numConsecutiveExcursions: fallback }),
      ...sent,
    };
    const resolved = await resolveRecord(tx, caller, tag, {
      recordId: body.record_id,
      start: body.start_time_seconds,
      settings,
      create: kind !== 'STOP',
      startOverwrites: kind === 'START',
      orLatest: kind === 'STOP',
      candidates,
      now,
    });
    let record = resolved.record;
    if (kind === 'START') await checkStartAllowed(tx, { ...ctx, ...caller, tag, record });
    await checkTravelLocations(tx, caller, body);

    const next: Partial<RecordRow> = {
      ...fillSettings(record, settings),
      ...(kind === 'CONFIGURE' && record.startTimeSeconds === null ? settings : {}),
      ...shipmentPatch(record, body, kind === 'CREATE_SHIPMENT'),
      // A product chosen for a record whose tag has no configured value brings its own.
      ...(kind === 'CREATE_SHIPMENT' &&
      fallback !== undefined &&
      tag.configuration.num_consecutive_excursions === undefined &&
      body.product_designation != null &&
      body.product_designation !== record.productDesignation
        ? { numConsecutiveExcursions: fallback }
        : {}),
      ...healthPatch(
        record,
        { battery: body.battery_health, memory: body.memory_health },
        timestamp,
      ),
    };
    if (kind === 'STOP' || body.stop_time_seconds != null) {
      const stopAt =
        body.stop_time_seconds != null ? new Date(body.stop_time_seconds * 1000) : timestamp;
      Object.assign(next, stopPatch(record, stopAt));
    }
    record = await applyPatch(tx, record, next, now);

    // From here on every write is queued and goes with the recomputation's.
    // Points timed after the record's stop (this upload's or an earlier one) are set aside.
    const {
      writes,
      added,
      kept: temps,
      setAside,
    } = await mergeUpToStop(tx, ctx, record, resolved.created, {
      upload: `xt1.${kind}`,
      offset: body.temperatures_offset_index,
      temps: body.temps ?? [],
    });
    addLocationSample(writes, record, body.latitude, body.longitude, timestamp, {
      temperature: temps.at(-1) ?? null,
    });

    const reply = withSetAside(reference(record, tag), setAside);
    if (kind === 'SCAN') {
      writes.addScan({
        ...scanSummary(record, body, temps),
        organizationId: caller.organizationId,
        recordId: record.id,
        tagId: tag.id,
        tagSerialNumber: tag.serialNumber,
        timestamp,
        createdByUserId: caller.userId,
        latitude: body.latitude,
        longitude: body.longitude,
        tagStatus: body.tag_status ?? null,
        measurementInterval: body.measurement_interval,
        startDelay: body.start_delay,
        highThreshold: body.high_threshold,
        lowThreshold: body.low_threshold,
        primaryReference: body.primary_reference ?? '',
        secondaryReference: body.secondary_reference ?? '',
        shippingReference: body.shipping_reference ?? '',
        mobileDeviceType: body.mobile_device_type ?? null,
        mobileAppVersion: body.mobile_app_version ?? null,
        startTimeSeconds: body.start_time_seconds ?? null,
        stopTime: body.stop_time_seconds != null ? new Date(body.stop_time_seconds * 1000) : null,
        tempsOffsetIndex: body.temperatures_offset_index,
        tempsLength: temps.length,
        uploadKey: key,
      });
    } else {
      await writeAction(
        tx,
        caller,
        record,
        tag,
        {
          type: kind,
          key,
          timestamp,
          reply,
          latitude: body.latitude,
          longitude: body.longitude,
          mobileDeviceType: body.mobile_device_type,
          mobileAppVersion: body.mobile_app_version,
        },
        writes,
      );
    }
    await recomputeRecord(tx, record, {
      seriesChanged: added > 0,
      now,
      writes,
      jobs: caller.jobs,
    });
    return reply;
  });
}

/**
 * The summary of the points a scan carried (not of the whole record):
 * highest, lowest, mean kinetic and latest temperature, time beyond the
 * scan's thresholds, and its alarm status (as the tag reported it, else
 * whether the record's alarm rules find an excursion in these points).
 * `temps`: the points of the scan that belong to the record (none after its stop).
 */
function scanSummary(record: RecordRow, body: TXt1Upload, temps: readonly SeriesValue[]) {
  const series = seriesOf(record, temps);
  const shifted = {
    ...series,
    startTimeSeconds:
      series.startTimeSeconds + body.temperatures_offset_index * series.intervalSeconds,
  };
  const summary = temperatureSummary(shifted);
  const detected = detectExcursions(shifted, {
    ...thresholdsOf(record),
    high_threshold: body.high_threshold,
    low_threshold: body.low_threshold,
  });
  return {
    highestRecordedTemp: summary.highest_recorded_temperature,
    lowestRecordedTemp: summary.lowest_recorded_temperature,
    meanKineticTemp: summary.mean_kinetic_temp,
    latestTemp: temps.at(-1) ?? null,
    excursionDurationAbove: timeBeyond(shifted, body.high_threshold, 'ABOVE'),
    excursionDurationBelow: timeBeyond(shifted, body.low_threshold, 'BELOW'),
    numberOfPoints: summary.number_of_points,
    status: body.status ?? (detected.length > 0 ? 'Alarm' : 'OK'),
  };
}
