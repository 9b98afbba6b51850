import type { TRecordReference } from '@coldtrace/contract';
import type { Db, Transaction } from '../../db/client';
import type { RecordRow, TagRow } from '../../db/schema-shipments';
import { checkStartAllowed } from '../calibration';
import { mergeUpToStop, withSetAside } from './after-stop';
import type { DecodedAction, DecodedUpload, RecordPatch } from './decoded';
import { recomputeRecord } from './reevaluate';
import * as repo from './repository';
import {
  applyPatch,
  checkTravelLocations,
  configurationSettings,
  configureTag,
  fillSettings,
  noRecord,
  resolveRecord,
  resolveTag,
  resolveUploadTag,
  shipmentPatch,
  stopPatch,
  type RecordSettings,
} from './runs';
import {
  type Caller,
  defined,
  freshKey,
  type IngestContext,
  reference,
  runUpload,
  storedReply,
  type Upload,
} from './upload';
import { addLocationSample, scanRow, writeAction } from './upload-writes';

/**
 * The one ordered pipeline every device upload runs, once its family's
 * decoder made it a {@link DecodedUpload} (`decoded.ts`). The steps, in order:
 *
 * 1. prologue (`upload.ts`): the caller, the device times, the upload key, a
 *    replay answered before the transaction;
 * 2. tag: found or created, locked; the replay looked up again with its lock
 *    (and, for `tag-and-record`, with the run's candidates);
 * 3. configure: the tag's configuration (and its pending command confirmed);
 * 4. run: the upload's settings, the record found, started or created, locked;
 * 5. checks: the calibration at a start, the travel locations;
 * 6. patch: one update of what the upload changes on the record;
 * 7. write: points merged up to the stop (the rest set aside), the location
 *    sample, the scan or action row;
 * 8. recompute (`reevaluate.ts`): summary, trip, alarms, status, and the
 *    events announcing them, in the same transaction.
 *
 * The tag is always locked before the record, so concurrent uploads of one
 * tag serialize without deadlocks.
 */
export async function runPipeline(
  ctx: IngestContext,
  decoded: DecodedUpload,
): Promise<TRecordReference> {
  const prologue =
    decoded.replay === 'tag-and-record'
      ? { ...decoded.prologue, lookupInWork: true }
      : decoded.prologue;
  return runUpload<TRecordReference>(ctx, prologue, async (upload, tx, replay) => {
    const tagged = await tagStep(tx, upload, decoded, replay);
    if (tagged.stored !== undefined) return tagged.stored;
    const tag = decoded.configure
      ? await configureTag(
          tx,
          upload.caller,
          tagged.tag,
          decoded.configure.settings,
          decoded.configure.confirms,
        )
      : tagged.tag;
    const run: Run = { tx, upload, decoded, tag, tagChanged: tag !== tagged.tag };
    const settings = await settingsStep(run);
    const found = await recordStep(run, settings, tagged.candidates);
    if (!found) return reference(null, tag);
    const { record, created } = found;
    if (decoded.checks?.startAllowed) {
      await checkStartAllowed(tx, { ...ctx, ...upload.caller, tag, record });
    }
    if (decoded.checks?.travelLocations) {
      await checkTravelLocations(tx, upload.caller, decoded.checks.travelLocations);
    }
    const next = patchOf(run, record, settings);
    const patched = await applyPatch(tx, record, next, upload.now);
    const changes = { created, patched: patched !== record };
    return decoded.points
      ? writeWithPoints(run, patched, changes)
      : writeAlone(run, patched, changes);
  });
}

/** What the steps of one upload share. */
interface Run {
  tx: Transaction;
  upload: Upload;
  decoded: DecodedUpload;
  /** The tag, locked, as configured by the upload. */
  tag: TagRow;
  /** The upload changed the tag (its configuration or its pending command). */
  tagChanged: boolean;
}

/** The upload's settings: with the num_consecutive_excursions it left out filled in. */
interface Settings {
  settings: RecordSettings | undefined;
  /** The value that filled num_consecutive_excursions in (the tag's, else the product's). */
  fallback: number | undefined;
}

/** Step "tag": the tag locked, and the replay checks that go with its lock. */
async function tagStep(
  tx: Transaction,
  upload: Upload,
  decoded: DecodedUpload,
  replay: () => Promise<TRecordReference | undefined>,
): Promise<
  | { tag: TagRow; candidates?: repo.RunCandidates; stored?: undefined }
  | { stored: TRecordReference }
> {
  const { caller, key } = upload;
  const { ident, defaultType, create } = decoded.tag;
  if (decoded.replay !== 'tag-and-record' || key === null) {
    const tag = await resolveTag(tx, caller, ident, { create, defaultType });
    const again = await replay();
    return again ? { stored: again } : { tag };
  }
  // The stored upload is looked up with the tag's lock, and again with the
  // record's (a twin that committed while this waited).
  const found = await resolveUploadTag(tx, caller, ident, { create, defaultType }, key);
  if (found.stored) return { stored: storedReply<TRecordReference>(found.stored) };
  const rule = decoded.record;
  if (rule.by === 'run' && rule.recordId === undefined && typeof rule.start === 'number') {
    const candidates = await repo.lockRunCandidates(
      tx,
      caller.organizationId,
      found.tag.id,
      rule.start,
      key,
    );
    if (candidates.stored) return { stored: storedReply<TRecordReference>(candidates.stored) };
    return { tag: found.tag, candidates };
  }
  const stored = await repo.findUpload(tx, caller.organizationId, key);
  if (stored) return { stored: storedReply<TRecordReference>(stored) };
  return { tag: found.tag };
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

/** Step "run", first half: the settings the upload brings. */
async function settingsStep({ tx, upload, decoded, tag }: Run): Promise<Settings> {
  const declared = decoded.settings;
  if (declared === undefined) return { settings: undefined, fallback: undefined };
  if (declared === 'configuration') {
    return { settings: configurationSettings(tag.configuration), fallback: undefined };
  }
  const wanted = decoded.consecutiveFallback;
  const fallback =
    wanted && declared.numConsecutiveExcursions === undefined
      ? await consecutiveFallback(tx, upload.caller, tag, wanted.product)
      : undefined;
  return {
    settings: { ...defined({ numConsecutiveExcursions: fallback }), ...declared },
    fallback,
  };
}

/** Step "run": the record the upload belongs to, locked; null: none, and the reply says so. */
async function recordStep(
  { tx, upload, decoded, tag }: Run,
  { settings }: Settings,
  candidates: repo.RunCandidates | undefined,
): Promise<{ record: RecordRow; created: boolean } | null> {
  const rule = decoded.record;
  const org = upload.caller.organizationId;
  if (rule.by === 'run') {
    const start = typeof rule.start === 'function' ? rule.start(settings ?? {}) : rule.start;
    return resolveRecord(tx, upload.caller, tag, {
      recordId: rule.recordId,
      start,
      settings,
      create: rule.create,
      startOverwrites: rule.startOverwrites,
      orLatest: rule.orLatest,
      missing: rule.missing,
      candidates,
      now: upload.now,
    });
  }
  let record: RecordRow | undefined;
  if (rule.by === 'covering') {
    if (rule.at !== undefined) record = await repo.lockRecordCovering(tx, org, tag.id, rule.at);
    if (rule.orActive) record ??= await repo.lockActiveRecord(tx, org, tag.id);
    if (rule.notStarted && (!record || record.startTimeSeconds === null)) {
      if (await repo.lockPendingRecord(tx, org, tag.id)) throw rule.notStarted();
      throw noRecord();
    }
  } else {
    const lock = rule.by === 'active' ? repo.lockActiveRecord : repo.lockLatestRecord;
    record = await lock(tx, org, tag.id);
    if (!record && rule.orNone) return null;
  }
  if (!record) throw noRecord();
  return { record, created: false };
}

/** Step "patch": what the upload changes on the record, in the order {@link RecordPatch} gives. */
function patchOf(
  { upload, decoded, tag }: Run,
  record: RecordRow,
  { settings, fallback }: Settings,
): Partial<RecordRow> {
  const patch: RecordPatch = decoded.patch ?? {};
  const next: Partial<RecordRow> = {};
  if (patch.pendingTakes && record.startTimeSeconds === null) {
    const taken =
      patch.pendingTakes === 'settings' ? settings : configurationSettings(tag.configuration);
    Object.assign(next, taken);
  } else if (patch.fill && settings) {
    Object.assign(next, fillSettings(record, settings));
  }
  if (patch.shipment) {
    Object.assign(next, shipmentPatch(record, patch.shipment.fields, patch.shipment.overwrite));
  }
  const product = patch.shipment?.fields.product_designation;
  if (
    patch.productConsecutive &&
    fallback !== undefined &&
    tag.configuration.num_consecutive_excursions === undefined &&
    product != null &&
    product !== record.productDesignation
  ) {
    next.numConsecutiveExcursions = fallback;
  }
  if (patch.health) Object.assign(next, healthPatch(record, patch.health, upload.timestamp));
  if (patch.stop) Object.assign(next, stopPatch(record, patch.stop.at ?? upload.timestamp));
  if (patch.transmitInterval !== undefined) next.transmitInterval = patch.transmitInterval;
  return next;
}

function healthPatch(
  record: RecordRow,
  health: NonNullable<RecordPatch['health']>,
  at: Date,
): Partial<RecordRow> {
  const { battery, memory } = health;
  if (battery === undefined && memory === undefined) return {};
  if (health.when === 'newer') {
    if (record.healthReportedAt !== null && record.healthReportedAt > at) return {};
  } else if (
    (battery === undefined || battery === record.batteryHealth) &&
    (memory === undefined || memory === record.memoryHealth)
  ) {
    return {};
  }
  return {
    ...(battery !== undefined ? { batteryHealth: battery } : {}),
    ...(memory !== undefined ? { memoryHealth: memory } : {}),
    healthReportedAt: at,
  };
}

/** What the steps before the writes changed. */
interface Changes {
  created: boolean;
  patched: boolean;
}

/**
 * Step "write" of an upload with points, then "recompute": every write is
 * queued in the unit of work and goes with the recomputation's, in one
 * statement. Points timed after the record's stop (this upload's or an
 * earlier one) are set aside. Nothing changed: the queue is only flushed.
 */
async function writeWithPoints(
  { tx, upload, decoded, tag }: Run,
  record: RecordRow,
  { created, patched }: Changes,
): Promise<TRecordReference> {
  const { ctx, caller, now, timestamp } = upload;
  const points = decoded.points!;
  const offset = typeof points.offset === 'function' ? points.offset(record) : points.offset;
  const merged = await mergeUpToStop(tx, ctx, record, created, {
    upload: decoded.upload,
    offset,
    temps: points.temps,
  });
  const { writes, added, kept, setAside } = merged;
  const { location, row } = decoded;
  const sampled =
    location !== undefined &&
    addLocationSample(
      writes,
      record,
      location.latitude,
      location.longitude,
      location.at ?? timestamp,
      {
        ...(location.frameId !== undefined ? { frameId: location.frameId } : {}),
        temperature:
          location.temperature === 'last-kept'
            ? (kept.at(-1) ?? null)
            : setAside
              ? null
              : (points.temps.at(-1) ?? null),
      },
    );
  const reply = withSetAside(reference(record, tag), setAside);
  if (row?.kind === 'scan') {
    // A scan always comes with its key (a scan without one would be a fresh one).
    const key = upload.key ?? freshKey(decoded.upload);
    writes.addScan(scanRow({ ...upload, key }, record, tag, row, { offset, temps: kept }));
  } else if (row) {
    await writeAction(tx, caller, record, tag, actionOf(upload, row, reply), writes);
  }
  if (decoded.recompute !== false && (row || added > 0 || created || sampled || patched)) {
    await recomputeRecord(tx, record, {
      seriesChanged: added > 0,
      now,
      writes,
      jobs: caller.jobs,
    });
  } else {
    await writes.flush();
  }
  return reply;
}

/**
 * Step "write" of an upload without points, then "recompute": the action row
 * written now, the record recomputed from its stored state. An upload without
 * a key that changed nothing writes no row (see {@link DecodedAction.unlessUnchanged}).
 */
async function writeAlone(
  { tx, upload, decoded, tag, tagChanged }: Run,
  record: RecordRow,
  { created, patched }: Changes,
): Promise<TRecordReference> {
  const { caller, now } = upload;
  const reply = reference(record, tag);
  const row = decoded.row;
  if (row?.kind === 'action') {
    const unchanged =
      row.unlessUnchanged !== undefined &&
      !created &&
      !patched &&
      (row.unlessUnchanged === 'record' || !tagChanged);
    if (upload.key === null && unchanged) return reply;
    await writeAction(tx, caller, record, tag, actionOf(upload, row, reply));
    await recomputeRecord(tx, record, { now, seriesChanged: false, jobs: caller.jobs });
  } else if (decoded.recompute !== false && patched) {
    await recomputeRecord(tx, record, { now, jobs: caller.jobs });
  }
  return reply;
}

/** The action row's values: its key is the upload's, else its own, else a fresh one. */
function actionOf(upload: Upload, row: DecodedAction, reply: TRecordReference) {
  return {
    type: row.type,
    key: upload.key ?? row.key?.(upload.now) ?? freshKey(row.type),
    timestamp: row.at ?? upload.timestamp,
    reply,
    latitude: row.latitude,
    longitude: row.longitude,
    mobileDeviceType: row.mobileDeviceType,
    mobileAppVersion: row.mobileAppVersion,
  };
}
