import type { TRecordReference, TXt1Upload } from '@coldtrace/contract';
import type { DecodedUpload } from './decoded';
import { runPipeline } from './pipeline';
import type { RecordSettings } from './runs';
import { defined, type IngestContext } from './upload';

/**
 * The xt1 protocol (the phone app reading an NFC tag): a scan (the tag's
 * report with its points) or an action (start, stop, configure, create
 * shipment), decoded into the common upload shape (`decoded.ts`) that the
 * one pipeline runs (`pipeline.ts`). A person's edits of an xt1 record are
 * in `edits.ts`.
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
 * An xt1 upload as the pipeline runs it: the tag (created unless a stop),
 * the replay looked up with the tag's lock and again with the run's, the
 * tag configured by a configure or start, the record by id or by start
 * (settings left out filled from the tag or the product), what the upload
 * sets on it, its points, its position, and the scan or action row.
 */
export function decodeXt1(kind: Xt1UploadKind, body: TXt1Upload): DecodedUpload {
  const stops = kind === 'STOP' || body.stop_time_seconds != null;
  const sent = xt1Settings(body);
  return {
    upload: `xt1.${kind}`,
    prologue: {
      timestamp: () => new Date(body.timestamp),
      notFuture: [
        ['start_time_seconds', body.start_time_seconds],
        ['stop_time_seconds', body.stop_time_seconds],
      ],
      key: { kind: `xt1.${kind}`, body },
    },
    tag: { ident: body, defaultType: 'XT1_NFC_MU', create: kind !== 'STOP' },
    replay: 'tag-and-record',
    ...(kind === 'CONFIGURE' || kind === 'START' ? { configure: { settings: sent } } : {}),
    settings: sent,
    consecutiveFallback: { product: body.product_designation },
    record: {
      by: 'run',
      recordId: body.record_id,
      start: body.start_time_seconds,
      create: kind !== 'STOP',
      startOverwrites: kind === 'START',
      orLatest: kind === 'STOP',
    },
    checks: { startAllowed: kind === 'START', travelLocations: body },
    patch: {
      fill: true,
      ...(kind === 'CONFIGURE' ? { pendingTakes: 'settings' as const } : {}),
      shipment: { fields: body, overwrite: kind === 'CREATE_SHIPMENT' },
      productConsecutive: kind === 'CREATE_SHIPMENT',
      health: { battery: body.battery_health, memory: body.memory_health, when: 'newer' },
      ...(stops ? { stop: stopOf(body) } : {}),
    },
    points: { offset: body.temperatures_offset_index, temps: body.temps ?? [] },
    location: { latitude: body.latitude, longitude: body.longitude, temperature: 'last-kept' },
    row: kind === 'SCAN' ? scanOf(body) : actionOf(kind, body),
  };
}

/** The stop an upload brings: at its stop time, else at its own time. */
function stopOf(body: TXt1Upload): { at?: Date } {
  return body.stop_time_seconds != null ? { at: new Date(body.stop_time_seconds * 1000) } : {};
}

function scanOf(body: TXt1Upload): NonNullable<DecodedUpload['row']> {
  return {
    kind: 'scan',
    status: body.status,
    reported: {
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
    },
  };
}

function actionOf(
  kind: Exclude<Xt1UploadKind, 'SCAN'>,
  body: TXt1Upload,
): NonNullable<DecodedUpload['row']> {
  return {
    kind: 'action',
    type: kind,
    latitude: body.latitude,
    longitude: body.longitude,
    mobileDeviceType: body.mobile_device_type,
    mobileAppVersion: body.mobile_app_version,
  };
}

/** An xt1 upload: scan (tag report) or action, decoded and run. */
export async function xt1Upload(
  ctx: IngestContext,
  kind: Xt1UploadKind,
  body: TXt1Upload,
): Promise<TRecordReference> {
  return runPipeline(ctx, decodeXt1(kind, body));
}
