import {
  MAX_POINTS_PER_RECORD,
  RECORD_ACTION_TYPES,
  UNKNOWN_LATITUDE,
  UNKNOWN_LONGITUDE,
  type TNanotagConfigureUpload,
  type TNanotagFirstSampleUpload,
  type TNanotagHealthUpload,
  type TNanotagPacketUpload,
  type TNanotagSettingsUpload,
  type TNanotagStatusUpload,
  type TNanotagTransmitIntervalUpload,
  type TRecordActionType,
  type TRecordReference,
  type TRequestResult,
  type TRtConfigureUpload,
  type TRtPacketUpload,
  type TRtRequest,
  type TRtStartUpload,
  type TRtStopUpload,
  type TTagType,
  type TTripEditResult,
  type TXt1TripEditUpload,
  type TXt1Upload,
  type TXt1UpdateShipmentUpload,
} from '@coldtrace/contract';
import {
  detectExcursions,
  isKnownPosition,
  temperatureSummary,
  timeBeyond,
  tripStatusFromTimes,
  type SeriesValue,
} from '@coldtrace/domain';
import type { Database, Db, Transaction } from '../../db/client';
import type { RecordRow, TagConfiguration, TagRow, records } from '../../db/schema-shipments';
import { AppError, invalidField } from '../../http/errors';
import type { Principal } from '../auth/principal';
import { actorOf, recordAudit } from '../audit/audit';
import type { AlarmEventSender } from '../notifications/events';
import type { ChangeSignature } from '../notifications/signature';
import { planMerge, type SeriesConflict } from '../series/series-store';
import {
  changedFields,
  type AlarmChange,
  recomputeRecord,
  recordInterval,
  seriesOf,
  thresholdsOf,
} from './reevaluate';
import * as repo from './repository';
import { uploadKey } from './upload-key';
import { WriteBatch } from './write-batch';
import { randomUUID } from 'node:crypto';

/**
 * The ingest service: every upload of the phone app, rt tags and nanotags
 * becomes scans, record actions, series points and location samples of a
 * record, then the record is recomputed (`reevaluate.ts`). Decisions:
 * docs/decisions/shipment-ingest.md.
 *
 * - One transaction per upload; the tag row, then the record row, are locked
 *   (`SELECT ... FOR UPDATE`), so concurrent uploads of one tag serialize.
 * - Idempotency: uploads with an upload key (scans and actions) are looked up
 *   by it first, and again under the lock; a replay changes nothing and gets
 *   the stored reply. Packets are idempotent by merge-by-index.
 * - A record is one run of one tag, identified by its start_time_seconds; a
 *   record not started yet (configured, shipment created) is "pending".
 */

type RecordInsert = typeof records.$inferInsert;

export interface IngestLogger {
  warn(obj: object, msg: string): void;
}

export interface IngestContext {
  db: Database;
  log: IngestLogger;
  principal: Principal;
  /** Newly raised alarms are announced here (`alarm.raised`); null: nobody is notified (demo seed). */
  jobs: AlarmEventSender | null;
  /** The request's id, written with audit entries. */
  requestId?: string;
  /** The verified signature sent with a person's change (reason for change), if any. */
  signature?: ChangeSignature | null;
}

/**
 * The audit entries of a person's edit (shipment details, thresholds, trip
 * times): one per changed field, old and new value as the action row has them.
 */
async function auditEdit(
  tx: Db,
  ctx: IngestContext,
  record: RecordRow,
  action: 'record.shipment.update' | 'record.trip.update',
  changes: Record<string, { old: unknown; new: unknown }>,
  clientType?: string,
  reason?: string | null,
): Promise<void> {
  await recordAudit(
    tx,
    {
      organizationId: record.organizationId,
      actor: actorOf(ctx.principal, clientType),
      requestId: ctx.requestId ?? null,
    },
    Object.entries(changes).map(([field, change]) => ({
      action,
      entityType: 'record',
      entityId: record.id,
      recordId: record.id,
      field,
      oldValue: change.old,
      newValue: change.new,
      reason: reason ?? null,
    })),
  );
}

/** Fields of update-shipment whose change re-evaluates the alarms (regulated: reason for change). */
const THRESHOLD_FIELDS = new Set([
  'high_threshold',
  'low_threshold',
  'num_consecutive_excursions',
  'cumulative_high_threshold',
  'cumulative_low_threshold',
  'cumulative_duration_high',
  'cumulative_duration_low',
]);
const LOCATION_FIELDS = new Set(['shipper_name_address_id', 'receiver_name_address_id']);

/**
 * A person's regulated change of a record (thresholds, product, trip times,
 * origin or destination; domain rules §2): when the record has any alarm, a
 * reason for change is required (400 REASON_REQUIRED naming `reason`). The
 * change closes alarms only when signed (recomputeRecord checks).
 */
async function regulatedChange(
  tx: Db,
  ctx: IngestContext,
  record: RecordRow,
  cause: AlarmChange['cause'],
  reason: string | undefined,
  clientType: string | undefined,
): Promise<AlarmChange> {
  if (reason === undefined && (await repo.recordHasAlarms(tx, record.organizationId, record.id))) {
    const message = 'A reason for change is required: this record has alarms';
    throw new AppError('REASON_REQUIRED', message, { reason: message });
  }
  const actor = actorOf(ctx.principal, clientType);
  return {
    cause,
    actor: { ...actor, userId: ctx.principal.user.id },
    reason: reason ?? null,
    requestId: ctx.requestId ?? null,
    signature: ctx.signature ?? null,
  };
}

interface Caller {
  organizationId: string;
  userId: string;
  jobs: AlarmEventSender | null;
}

/** Record settings an upload (or a tag's configuration) can carry. */
type RecordSettings = Partial<
  Pick<
    RecordInsert,
    | 'highThreshold'
    | 'lowThreshold'
    | 'numConsecutiveExcursions'
    | 'cumulativeHighThreshold'
    | 'cumulativeLowThreshold'
    | 'cumulativeDurationHigh'
    | 'cumulativeDurationLow'
    | 'measurementInterval'
    | 'calculatedMeasurementInterval'
    | 'startDelay'
    | 'transmitInterval'
  >
>;

const TIMING_KEYS = ['measurementInterval', 'calculatedMeasurementInterval', 'startDelay'] as const;
/** An upload may be at most this far in the future (device clocks drift; a day is plenty). */
const MAX_FUTURE_SECONDS = 86_400;
const UPLOAD_KEY_CONSTRAINTS = new Set(['scans_upload_key', 'record_actions_upload_key']);

// ---------------------------------------------------------------- helpers

function callerOf({ principal, jobs }: IngestContext): Caller {
  if (principal.organizationId === null) {
    throw new AppError('FORBIDDEN', 'You belong to no organization to upload into.');
  }
  return { organizationId: principal.organizationId, userId: principal.user.id, jobs };
}

const notFoundField = (what: string, field: string, reason = `${what} not found`) =>
  new AppError('NOT_FOUND', `${what} not found`, { [field]: reason });

/** Drop undefined members (so spreading never overwrites with undefined). */
function defined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

const isoSeconds = (iso: string): number => Date.parse(iso) / 1000;

function checkNotFuture(field: string, seconds: number | null | undefined, now: Date): void {
  if (seconds != null && seconds > now.getTime() / 1000 + MAX_FUTURE_SECONDS) {
    throw invalidField(field, `Field '${field}': lies more than a day in the future`);
  }
}

/** What an action row and a reply need of a tag. */
type TagRef = Pick<TagRow, 'id' | 'serialNumber' | 'tagType'>;

/** The tag of a record as the record knows it (its tag may have moved to another organization since). */
const recordTag = (record: RecordRow): TagRef => ({
  id: record.tagId,
  serialNumber: record.tagSerialNumber,
  tagType: record.tagType,
});

function reference(record: RecordRow | null, tag: Pick<TagRow, 'id' | 'serialNumber'>) {
  const ref: TRecordReference = { tag_id: String(tag.id), tag_serial_number: tag.serialNumber };
  if (record) ref.record_id = String(record.id);
  return ref;
}

function storedReply<T>(stored: repo.StoredUpload): T {
  if (stored.kind === 'action' && stored.reply != null) return stored.reply as T;
  const ref: TRecordReference = {
    tag_id: String(stored.tagId),
    tag_serial_number: stored.tagSerialNumber,
  };
  if (stored.recordId !== null) ref.record_id = String(stored.recordId);
  return ref as T;
}

function isUploadKeyViolation(err: unknown): boolean {
  for (let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined; e;) {
    if (e.code === '23505' && e.constraint && UPLOAD_KEY_CONSTRAINTS.has(e.constraint)) return true;
    e = e.cause as typeof e;
  }
  return false;
}

/**
 * Run one upload: a replay (same upload key) answers the stored reply without
 * a transaction; otherwise `work` runs in a transaction and calls `replay()`
 * once it holds the tag's lock (a twin that committed meanwhile is found
 * there). A twin that slipped past both checks hits the unique key and is
 * answered the same way.
 */
async function runUpload<T>(
  db: Database,
  caller: Caller,
  key: string | null,
  work: (tx: Transaction, replay: () => Promise<T | undefined>) => Promise<T>,
  /** `work` looks the key up in its first statement (no lookup before the transaction). */
  opts: { lookupInWork?: boolean } = {},
): Promise<T> {
  if (key !== null && !opts.lookupInWork) {
    const stored = await repo.findUpload(db, caller.organizationId, key);
    if (stored) return storedReply<T>(stored);
  }
  try {
    return await db.transaction((tx) =>
      work(tx, async () => {
        if (key === null) return undefined;
        const stored = await repo.findUpload(tx, caller.organizationId, key);
        return stored ? storedReply<T>(stored) : undefined;
      }),
    );
  } catch (err) {
    if (key !== null && isUploadKeyViolation(err)) {
      const stored = await repo.findUpload(db, caller.organizationId, key);
      if (stored) return storedReply<T>(stored);
    }
    throw err;
  }
}

/**
 * The upload key of an upload that identifies itself (by a device time or a
 * request id): sending it again is a replay. One that does not (no timestamp,
 * no request id) gets none: it is applied again, and since it only sets
 * values, the same values again change nothing (and write no action row).
 */
function replayKey(kind: string, body: object, identified: boolean): string | null {
  return identified ? uploadKey(kind, body) : null;
}

/** The key of an action row whose upload has none: unique, never a replay. */
const freshKey = (kind: string): string => uploadKey(kind, randomUUID());

// ---------------------------------------------------------------- tags

interface TagIdent {
  tag_id: string;
  tag_serial_number?: string | undefined;
  tag_type?: TTagType | undefined;
}

const DECIMAL_ID = /^\d{1,15}$/;

/**
 * The tag an upload names, locked, looked up in the caller's organization
 * only. `tag_id` is the Tag's number as decimal text; a tag_id that is no Tag
 * number of the organization is read as a serial number (devices know their
 * serial number). `tag_serial_number`, when sent, must name the same tag. A
 * serial number names a tag within an organization: another organization's
 * tag of that serial (or with that number) is not seen at all, so it answers
 * 404 like an unknown tag, and with `create` the serial number is created in
 * the caller's organization (type: tag_type, else the device family's).
 */
async function resolveTag(
  tx: Db,
  caller: Caller,
  ident: TagIdent,
  opts: { create: boolean; defaultType: TTagType },
  /** The lookup by serial number already made ({@link resolveUploadTag}). */
  first?: { tag: TagRow | undefined; inserted: boolean },
): Promise<TagRow> {
  const numericId = DECIMAL_ID.test(ident.tag_id) ? Number(ident.tag_id) : null;
  const serial = ident.tag_serial_number;
  let tag: TagRow | undefined;
  // A tag the first lookup inserted is new: what follows judges it as not found.
  const inserted = first?.inserted === true;
  const org = caller.organizationId;
  if (serial !== undefined) {
    tag = first ? first.tag : await repo.lockTagBySerial(tx, org, serial);
    if ((!tag || inserted) && numericId !== null) {
      const byId = await repo.lockTagById(tx, org, numericId);
      if (byId && byId.id !== tag?.id) {
        throw invalidField(
          'tag_serial_number',
          `Field 'tag_serial_number': tag ${numericId} has another serial number`,
        );
      }
    }
    if (tag && !inserted && ident.tag_id !== serial && ident.tag_id !== String(tag.id)) {
      throw invalidField('tag_id', `Field 'tag_id': does not match tag_serial_number`);
    }
  } else if (first) {
    tag = first.tag;
  } else {
    if (numericId !== null) tag = await repo.lockTagById(tx, org, numericId);
    tag ??= await repo.lockTagBySerial(tx, org, ident.tag_id);
  }
  if (!tag && opts.create) {
    const serialNumber = serial ?? ident.tag_id;
    tag =
      (await repo.insertTag(tx, {
        organizationId: org,
        serialNumber,
        tagType: ident.tag_type ?? opts.defaultType,
      })) ?? (await repo.lockTagBySerial(tx, org, serialNumber));
  }
  // Looked up in the organization: this holds by construction (and stays checked).
  if (!tag || tag.organizationId !== caller.organizationId) throw notFoundField('Tag', 'tag_id');
  return tag;
}

/**
 * {@link resolveTag} for an upload with a key, which is looked up first (a
 * replay answers the stored reply before anything else is judged): when the
 * tag is named by serial number, in the same round trip as the tag's lock
 * (and its creation, with `create`).
 */
async function resolveUploadTag(
  tx: Db,
  caller: Caller,
  ident: TagIdent,
  opts: { create: boolean; defaultType: TTagType },
  key: string,
): Promise<{ tag: TagRow; stored?: undefined } | { stored: repo.StoredUpload }> {
  const serial =
    ident.tag_serial_number ?? (DECIMAL_ID.test(ident.tag_id) ? undefined : ident.tag_id);
  if (serial === undefined) {
    const stored = await repo.findUpload(tx, caller.organizationId, key);
    if (stored) return { stored };
    return { tag: await resolveTag(tx, caller, ident, opts) };
  }
  const first = await repo.lockTagForUpload(tx, caller.organizationId, serial, {
    create: opts.create ? { tagType: ident.tag_type ?? opts.defaultType } : null,
    uploadKey: key,
  });
  if (first.stored) return { stored: first.stored };
  return { tag: await resolveTag(tx, caller, ident, opts, first) };
}

function configurationSettings(config: TagConfiguration): RecordSettings {
  return defined({
    highThreshold: config.high_threshold,
    lowThreshold: config.low_threshold,
    numConsecutiveExcursions: config.num_consecutive_excursions,
    cumulativeHighThreshold: config.cumulative_high_threshold,
    cumulativeLowThreshold: config.cumulative_low_threshold,
    cumulativeDurationHigh: config.cumulative_duration_high,
    cumulativeDurationLow: config.cumulative_duration_low,
    measurementInterval: config.measurement_interval,
    startDelay: config.start_delay,
    transmitInterval: config.transmit_interval,
  });
}

function settingsConfiguration(settings: RecordSettings): TagConfiguration {
  return defined({
    high_threshold: settings.highThreshold,
    low_threshold: settings.lowThreshold,
    num_consecutive_excursions: settings.numConsecutiveExcursions,
    cumulative_high_threshold: settings.cumulativeHighThreshold,
    cumulative_low_threshold: settings.cumulativeLowThreshold,
    cumulative_duration_high: settings.cumulativeDurationHigh,
    cumulative_duration_low: settings.cumulativeDurationLow,
    measurement_interval: settings.measurementInterval ?? undefined,
    start_delay: settings.startDelay ?? undefined,
    transmit_interval: settings.transmitInterval ?? undefined,
  });
}

/** Merge settings into the tag's configuration (field by field); writes only a change. */
async function configureTag(
  tx: Db,
  caller: Caller,
  tag: TagRow,
  settings: RecordSettings,
  confirms?: 'configure' | 'start' | 'stop',
): Promise<TagRow> {
  const configuration = { ...tag.configuration, ...settingsConfiguration(settings) };
  const patch: Partial<TagRow> = {};
  if (JSON.stringify(configuration) !== JSON.stringify(tag.configuration)) {
    patch.configuration = configuration;
  }
  if (confirms && tag.pendingCommand?.type === confirms) patch.pendingCommand = null;
  if (Object.keys(patch).length === 0) return tag;
  await repo.updateTag(tx, caller.organizationId, tag.id, patch);
  return { ...tag, ...patch };
}

// ---------------------------------------------------------------- records

interface RecordLookup {
  /** An explicit record id (the upload's record_id). */
  recordId?: string | undefined;
  /** The run's start (start_time_seconds); null or absent: the active record. */
  start?: number | null | undefined;
  /** Settings for a record this upload creates or starts; without them nothing is created. */
  settings?: RecordSettings | undefined;
  /** May this upload create a record? */
  create: boolean;
  /** When this upload starts a pending record, its timing and thresholds replace the pending ones. */
  startOverwrites?: boolean;
  /** Without a start time and an active record: the tag's latest record (a stop sent again). */
  orLatest?: boolean;
  /** The error when a record would be needed but nothing can be created. */
  missing?: () => AppError;
  /** With a start time: the lookups by start already made ({@link repo.lockRunCandidates}). */
  candidates?: {
    byStart: RecordRow | undefined;
    pending: RecordRow | undefined;
    laterRun: boolean;
  };
  now: Date;
}

const noRecord = () =>
  new AppError('NOT_FOUND', 'The tag has no record this upload belongs to', {
    tag_id: 'No matching record of this tag',
  });

const noConfiguration = () =>
  new AppError(
    'CONFLICT',
    'The tag has no measurement interval to start a record with: send its configuration first',
    { tag_id: 'Tag not configured (no measurement interval)' },
  );

function fillSettings(record: RecordRow, settings: RecordSettings): Partial<RecordRow> {
  const patch: Partial<RecordRow> = {};
  for (const [key, value] of Object.entries(settings) as [keyof RecordSettings, unknown][]) {
    if (value !== undefined && record[key] === null) {
      (patch as Record<string, unknown>)[key] = value;
    }
  }
  return patch;
}

/**
 * The record an upload belongs to, locked (the tag is already locked), always
 * one of the caller's organization (a tag's records in another organization,
 * which it left, are never found here):
 * 1. `recordId`: that record of the organization and the tag;
 * 2. a start time: the tag's run with that start, else its pending record
 *    (which starts now), else a new record (ending the earlier active runs,
 *    unless a later run exists);
 * 3. no start time: the tag's active record, else a new pending record.
 */
async function resolveRecord(
  tx: Db,
  caller: Caller,
  tag: TagRow,
  lookup: RecordLookup,
): Promise<{ record: RecordRow; created: boolean }> {
  const start = lookup.start ?? null;
  if (lookup.recordId !== undefined) {
    const record = await repo.lockRecord(tx, caller.organizationId, Number(lookup.recordId));
    if (!record) throw notFoundField('Record', 'record_id');
    if (record.tagId !== tag.id) {
      throw invalidField('record_id', `Field 'record_id': the record belongs to another tag`);
    }
    if (start !== null && record.startTimeSeconds !== null && record.startTimeSeconds !== start) {
      throw invalidField(
        'start_time_seconds',
        `Field 'start_time_seconds': the record started at ${record.startTimeSeconds}`,
      );
    }
    if (start !== null && record.startTimeSeconds === null) {
      return { record: await startPending(tx, tag, record, start, lookup), created: false };
    }
    return { record, created: false };
  }

  const org = caller.organizationId;
  const known = start !== null ? lookup.candidates : undefined;
  if (start !== null) {
    const existing = known ? known.byStart : await repo.lockRecordByStart(tx, org, tag.id, start);
    if (existing) return { record: existing, created: false };
    if (lookup.create || lookup.settings) {
      const pending = known ? known.pending : await repo.lockPendingRecord(tx, org, tag.id);
      if (pending) {
        return { record: await startPending(tx, tag, pending, start, lookup), created: false };
      }
    }
  } else {
    const active = await repo.lockActiveRecord(tx, org, tag.id);
    if (active) return { record: active, created: false };
    const latest = lookup.orLatest ? await repo.lockLatestRecord(tx, org, tag.id) : undefined;
    if (latest) return { record: latest, created: false };
  }
  if (!lookup.create) throw (lookup.missing ?? noRecord)();

  const settings = lookup.settings ?? {};
  if (settings.measurementInterval == null) throw (lookup.missing ?? noConfiguration)();
  const active =
    start === null || !(known ? known.laterRun : await repo.hasLaterRun(tx, org, tag.id, start));
  const record = await repo.insertRun(
    tx,
    {
      ...settings,
      measurementInterval: settings.measurementInterval,
      organizationId: caller.organizationId,
      tagId: tag.id,
      tagSerialNumber: tag.serialNumber,
      tagType: tag.tagType,
      tagStatus: start === null ? 'XT1_PENDING' : 'XT1_ACTIVE',
      startTimeSeconds: start,
      active,
      created: lookup.now,
      lastModified: lookup.now,
    },
    // A new active run ends the tag's earlier active runs (they were never stopped).
    start !== null && active ? { tagId: tag.id, startTimeSeconds: start, now: lookup.now } : null,
  );
  return { record, created: true };
}

/** A pending record starts: it takes the start time (and, for a start, the upload's settings). */
async function startPending(
  tx: Db,
  tag: TagRow,
  record: RecordRow,
  start: number,
  lookup: RecordLookup,
): Promise<RecordRow> {
  const settings = lookup.settings ?? {};
  const patch: Partial<RecordRow> = lookup.startOverwrites
    ? defined(settings)
    : { ...fillSettings(record, settings), ...defined(pick(settings, TIMING_KEYS)) };
  const updated = await repo.updateRecord(tx, record.id, {
    ...patch,
    startTimeSeconds: start,
    lastModified: lookup.now,
  });
  await repo.endEarlierRuns(tx, record.organizationId, tag.id, start, record.id, lookup.now);
  return updated;
}

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out;
}

async function applyPatch(
  tx: Db,
  record: RecordRow,
  next: Partial<RecordRow>,
  now: Date,
): Promise<RecordRow> {
  const patch = changedFields(record, next);
  if (Object.keys(patch).length === 0) return record;
  return repo.updateRecord(tx, record.id, { ...patch, lastModified: now });
}

/** Shipper and receiver must be travel locations of the organization (else 404 naming the field). */
async function checkTravelLocations(
  tx: Db,
  caller: Caller,
  ids: { shipper_name_address_id?: string | null; receiver_name_address_id?: string | null },
): Promise<void> {
  const wanted = [
    ['shipper_name_address_id', ids.shipper_name_address_id],
    ['receiver_name_address_id', ids.receiver_name_address_id],
  ] as const;
  const numbers = wanted.flatMap(([, id]) => (id == null ? [] : [Number(id)]));
  if (numbers.length === 0) return;
  const found = new Set(
    (await repo.findTravelLocations(tx, caller.organizationId, numbers)).map((l) => l.id),
  );
  for (const [field, id] of wanted) {
    if (id != null && !found.has(Number(id))) {
      throw notFoundField('Travel location', field, `Travel location ${id} not found`);
    }
  }
}

const locationId = (id: string | null | undefined): number | null | undefined =>
  id === undefined ? undefined : id === null ? null : Number(id);

function logConflicts(ctx: IngestContext, record: RecordRow, conflicts: SeriesConflict[]): void {
  ctx.log.warn(
    {
      recordId: record.id,
      tagId: record.tagId,
      conflicts: conflicts.length,
      first: conflicts.slice(0, 10),
    },
    'upload offered temperatures that differ from stored points; the stored values were kept',
  );
}

/**
 * Writes an upload queues (sent with the recomputation's own, in one
 * statement) and the record's state with them: the recomputation reads
 * nothing back.
 */
interface UploadWrites {
  batch: WriteBatch;
  state: repo.RecordState;
}

/** The record's state, read once (nothing to read for a record created in this transaction). */
async function uploadWrites(tx: Db, record: RecordRow, created: boolean): Promise<UploadWrites> {
  return {
    batch: new WriteBatch(),
    state: created ? repo.emptyRecordState() : await repo.loadRecordState(tx, record.id),
  };
}

/** Merge points into the queued writes' state (a merge by index in memory, its write queued). */
function queueMerge(
  ctx: IngestContext,
  writes: UploadWrites,
  record: RecordRow,
  offset: number,
  temps: readonly SeriesValue[],
): number {
  const plan = planMerge(record.organizationId, record.id, writes.state.chunks, offset, temps);
  if (plan.conflicts.length > 0) logConflicts(ctx, record, plan.conflicts);
  for (const [chunkNo, values] of plan.chunks) writes.state.chunks.set(chunkNo, values);
  if (plan.write) writes.batch.add(plan.write);
  return plan.added;
}

/** A sample as the table keeps it: once per (time, position), ordered by time, then insertion. */
function noteSample(state: repo.RecordState, sample: repo.SamplePoint): void {
  const time = sample.timestamp.getTime();
  let at = state.samples.length;
  while (at > 0 && state.samples[at - 1]!.timestamp.getTime() > time) at--;
  for (let i = at - 1; i >= 0 && state.samples[i]!.timestamp.getTime() === time; i--) {
    const s = state.samples[i]!;
    if (s.latitude === sample.latitude && s.longitude === sample.longitude) return;
  }
  state.samples.splice(at, 0, sample);
}

async function addLocationSample(
  tx: Db,
  record: RecordRow,
  latitude: number | undefined,
  longitude: number | undefined,
  timestamp: Date,
  extra: { frameId?: string | undefined; temperature?: number | null } = {},
  writes?: UploadWrites,
): Promise<void> {
  if (latitude === undefined || longitude === undefined) return;
  if (!Number.isFinite(timestamp.getTime()) || !isKnownPosition({ latitude, longitude })) return;
  const values = {
    organizationId: record.organizationId,
    recordId: record.id,
    tagId: record.tagId,
    latitude,
    longitude,
    timestamp,
    frameId: extra.frameId ?? null,
    temperature: extra.temperature ?? null,
  };
  if (writes) {
    writes.batch.add(repo.insertLocationSampleSql(tx, values));
    noteSample(writes.state, { latitude, longitude, timestamp });
  } else {
    await repo.insertLocationSample(tx, values);
  }
}

async function writeAction(
  tx: Db,
  caller: Caller,
  record: RecordRow,
  tag: TagRef,
  action: {
    type: TRecordActionType;
    key: string;
    timestamp: Date;
    reply: unknown;
    latitude?: number;
    longitude?: number;
    mobileDeviceType?: string | undefined;
    mobileAppVersion?: string | undefined;
    changes?: Record<string, { old: unknown; new: unknown }>;
  },
  writes?: UploadWrites,
): Promise<void> {
  const values = {
    organizationId: caller.organizationId,
    recordId: record.id,
    tagId: tag.id,
    tagSerialNumber: tag.serialNumber,
    actionType: action.type,
    latitude: action.latitude ?? UNKNOWN_LATITUDE,
    longitude: action.longitude ?? UNKNOWN_LONGITUDE,
    timestamp: action.timestamp,
    createdByUserId: caller.userId,
    tagType: tag.tagType,
    mobileDeviceType: action.mobileDeviceType ?? null,
    mobileAppVersion: action.mobileAppVersion ?? null,
    uploadKey: action.key,
    reply: action.reply,
    changes: action.changes ?? null,
  };
  if (writes) {
    writes.batch.add(repo.insertActionSql(tx, values));
    const last = writes.state.lastActionAt;
    if (last === null || action.timestamp > last) writes.state.lastActionAt = action.timestamp;
  } else {
    await repo.insertAction(tx, values);
  }
}

// ---------------------------------------------------------------- xt1

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

const SHIPMENT_TEXT = [
  ['primary_reference', 'primaryReference'],
  ['secondary_reference', 'secondaryReference'],
  ['shipping_reference', 'shippingReference'],
  ['program_name', 'programName'],
  ['po_number', 'poNumber'],
  ['carrier', 'carrier'],
  ['product_designation', 'productDesignation'],
] as const;

type ShipmentFields = Partial<
  Record<(typeof SHIPMENT_TEXT)[number][0], string | null> & {
    shipper_name_address_id: string | null;
    receiver_name_address_id: string | null;
  }
>;

/** Shipment details of an upload: `overwrite` sets every field sent; otherwise only empty ones are filled. */
function shipmentPatch(
  record: RecordRow,
  fields: ShipmentFields,
  overwrite: boolean,
): Partial<RecordRow> {
  const patch: Partial<RecordRow> = {};
  for (const [field, column] of SHIPMENT_TEXT) {
    const value = fields[field];
    if (value === undefined) continue;
    if (overwrite) patch[column] = value ?? '';
    else if (record[column] === '' && value) patch[column] = value;
  }
  const parties = [
    ['shipper_name_address_id', 'shipperLocationId'],
    ['receiver_name_address_id', 'receiverLocationId'],
  ] as const;
  for (const [field, column] of parties) {
    const value = locationId(fields[field]);
    if (value === undefined) continue;
    if (overwrite) patch[column] = value;
    else if (record[column] === null && value !== null) patch[column] = value;
  }
  return patch;
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

function stopPatch(record: RecordRow, stopAt: Date): Partial<RecordRow> {
  const stopTime =
    record.stopTime !== null && record.stopTime.getTime() <= stopAt.getTime()
      ? record.stopTime
      : stopAt;
  return { active: false, stopTime };
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
  const caller = callerOf(ctx);
  const now = new Date();
  const timestamp = new Date(body.timestamp);
  checkNotFuture('timestamp', timestamp.getTime() / 1000, now);
  checkNotFuture('start_time_seconds', body.start_time_seconds, now);
  checkNotFuture('stop_time_seconds', body.stop_time_seconds, now);
  const key = uploadKey(`xt1.${kind}`, body);

  const upload = async (tx: Transaction): Promise<TRecordReference> => {
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
    const writes = await uploadWrites(tx, record, resolved.created);
    const temps = body.temps ?? [];
    const added = queueMerge(ctx, writes, record, body.temperatures_offset_index, temps);
    await addLocationSample(
      tx,
      record,
      body.latitude,
      body.longitude,
      timestamp,
      { temperature: temps.at(-1) ?? null },
      writes,
    );

    const reply = reference(record, tag);
    if (kind === 'SCAN') {
      writes.batch.add(
        repo.insertScanSql(tx, {
          ...scanSummary(record, body),
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
        }),
      );
      // The latest scan (by device time, then id: this one is the newest row).
      const last = writes.state.lastScan;
      if (last === undefined || timestamp >= last.timestamp) {
        writes.state.lastScan = { timestamp, userId: caller.userId };
      }
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
      state: writes.state,
      batch: writes.batch,
      jobs: caller.jobs,
    });
    return reply;
  };
  return runUpload(ctx.db, caller, key, (tx) => upload(tx), { lookupInWork: true });
}

/**
 * The summary of the points a scan carried (not of the whole record):
 * highest, lowest, mean kinetic and latest temperature, time beyond the
 * scan's thresholds, and its alarm status (as the tag reported it, else
 * whether the record's alarm rules find an excursion in these points).
 */
function scanSummary(record: RecordRow, body: TXt1Upload) {
  const temps = body.temps ?? [];
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

/** The record an edit names: by record_id (of the organization), or by tag (and start). */
async function recordForEdit(
  tx: Db,
  caller: Caller,
  ident: {
    record_id?: string | undefined;
    tag_id?: string | undefined;
    start?: number | undefined;
  },
  now: Date,
): Promise<{ tag: TagRef; record: RecordRow }> {
  if (ident.record_id !== undefined) {
    const found = await repo.findRecord(tx, caller.organizationId, Number(ident.record_id));
    if (!found) throw notFoundField('Record', 'record_id');
    // The record's tag may belong to another organization by now: its lock
    // only (lock order), and the tag as the record knows it (id, serial, type).
    await repo.lockTagForRecord(tx, found.tagId);
    const record = await repo.lockRecord(tx, caller.organizationId, found.id);
    if (!record) throw notFoundField('Record', 'record_id');
    if (
      ident.tag_id !== undefined &&
      ident.tag_id !== String(record.tagId) &&
      ident.tag_id !== record.tagSerialNumber
    ) {
      throw invalidField('tag_id', `Field 'tag_id': the record belongs to another tag`);
    }
    return { tag: recordTag(record), record };
  }
  const tag = await resolveTag(
    tx,
    caller,
    { tag_id: ident.tag_id! },
    {
      create: false,
      defaultType: 'XT1_NFC_MU',
    },
  );
  const { record } = await resolveRecord(tx, caller, tag, {
    start: ident.start,
    create: false,
    now,
  });
  return { tag, record };
}

const EDIT_PERMISSIONS: Record<string, string> = {
  primary_reference: 'readerEditRef1',
  program_name: 'readerEditRef1',
  po_number: 'readerEditRef1',
  carrier: 'readerEditRef1',
  product_designation: 'readerEditRef1',
  shipper_name_address_id: 'readerEditRef1',
  receiver_name_address_id: 'readerEditRef1',
  secondary_reference: 'readerEditRef2',
  shipping_reference: 'readerEditRefShip',
  high_threshold: 'readerConfig',
  low_threshold: 'readerConfig',
  num_consecutive_excursions: 'readerConfig',
  cumulative_high_threshold: 'readerConfig',
  cumulative_low_threshold: 'readerConfig',
  cumulative_duration_high: 'readerConfig',
  cumulative_duration_low: 'readerConfig',
};

const EDIT_COLUMNS: Record<string, keyof RecordRow> = {
  ...Object.fromEntries(SHIPMENT_TEXT),
  shipper_name_address_id: 'shipperLocationId',
  receiver_name_address_id: 'receiverLocationId',
  high_threshold: 'highThreshold',
  low_threshold: 'lowThreshold',
  num_consecutive_excursions: 'numConsecutiveExcursions',
  cumulative_high_threshold: 'cumulativeHighThreshold',
  cumulative_low_threshold: 'cumulativeLowThreshold',
  cumulative_duration_high: 'cumulativeDurationHigh',
  cumulative_duration_low: 'cumulativeDurationLow',
};

/**
 * update-shipment-action: a person edits the shipment details, thresholds or
 * cumulative limits. Each field sent replaces the stored one (null clears);
 * each field needs its permission. The old and new values go to the action
 * row; a threshold change re-evaluates the alarms.
 */
export async function xt1UpdateShipment(
  ctx: IngestContext,
  body: TXt1UpdateShipmentUpload,
): Promise<TRecordReference> {
  const caller = callerOf(ctx);
  const now = new Date();
  const timestamp = body.timestamp ? new Date(body.timestamp) : now;
  checkNotFuture('timestamp', timestamp.getTime() / 1000, now);
  const key = replayKey('xt1.UPDATE_SHIPMENT', body, body.timestamp !== undefined);

  return runUpload(ctx.db, caller, key, async (tx, replay) => {
    const { tag, record } = await recordForEdit(
      tx,
      caller,
      { record_id: body.record_id, tag_id: body.tag_id, start: body.start_time_seconds },
      now,
    );
    const again = await replay();
    if (again) return again;

    const sent = Object.keys(EDIT_COLUMNS).filter(
      (field) => (body as Record<string, unknown>)[field] !== undefined,
    );
    const denied = sent.filter(
      (field) => !ctx.principal.permissions.includes(EDIT_PERMISSIONS[field]!),
    );
    if (denied.length > 0) {
      throw new AppError(
        'FORBIDDEN',
        `You do not have permission to change ${denied.join(', ')}`,
        Object.fromEntries(denied.map((f) => [f, `Needs ${EDIT_PERMISSIONS[f]}`])),
      );
    }
    await checkTravelLocations(tx, caller, body);

    const next: Partial<RecordRow> = shipmentPatch(record, body, true);
    Object.assign(
      next,
      defined({
        highThreshold: body.high_threshold,
        lowThreshold: body.low_threshold,
        numConsecutiveExcursions: body.num_consecutive_excursions,
        cumulativeHighThreshold: body.cumulative_high_threshold,
        cumulativeLowThreshold: body.cumulative_low_threshold,
        cumulativeDurationHigh: body.cumulative_duration_high,
        cumulativeDurationLow: body.cumulative_duration_low,
      }),
    );
    const high = next.highThreshold !== undefined ? next.highThreshold : record.highThreshold;
    const low = next.lowThreshold !== undefined ? next.lowThreshold : record.lowThreshold;
    if (high !== null && low !== null && low > high) {
      throw invalidField(
        'low_threshold',
        `Field 'low_threshold': must not be above high_threshold`,
      );
    }
    const patch = changedFields(record, next);
    const changes: Record<string, { old: unknown; new: unknown }> = {};
    for (const [field, column] of Object.entries(EDIT_COLUMNS)) {
      if (column in patch) {
        changes[field] = { old: record[column] ?? null, new: patch[column] ?? null };
      }
    }
    const updated = await applyPatch(tx, record, patch, now);
    const reply = reference(updated, tag);
    if (key === null && updated === record) return reply;
    await writeAction(tx, caller, updated, tag, {
      type: 'UPDATE_SHIPMENT',
      key: key ?? freshKey('xt1.UPDATE_SHIPMENT'),
      timestamp,
      reply,
      latitude: body.latitude,
      longitude: body.longitude,
      mobileDeviceType: body.mobile_device_type,
      mobileAppVersion: body.mobile_app_version,
      changes,
    });
    const fields = Object.keys(changes);
    const cause: AlarmChange['cause'] | null = fields.includes('product_designation')
      ? 'PRODUCT_CHANGE'
      : fields.some((f) => THRESHOLD_FIELDS.has(f))
        ? 'THRESHOLD_CHANGE'
        : fields.some((f) => LOCATION_FIELDS.has(f))
          ? 'LOCATION_CHANGE'
          : null;
    const change =
      cause === null
        ? undefined
        : await regulatedChange(tx, ctx, updated, cause, body.reason, body.mobile_device_type);
    await auditEdit(
      tx,
      ctx,
      updated,
      'record.shipment.update',
      changes,
      body.mobile_device_type,
      change?.reason,
    );
    await recomputeRecord(tx, updated, {
      now,
      jobs: caller.jobs,
      requestId: ctx.requestId ?? null,
      ...(change ? { change } : {}),
    });
    return reply;
  });
}

/**
 * records/trips/: a person sets the trip times. Left out keeps a time, null
 * clears it; the status follows from the times. The trip becomes manual
 * (never overwritten by detection) and the alarms are re-evaluated.
 */
export async function xt1TripEdit(
  ctx: IngestContext,
  body: TXt1TripEditUpload,
): Promise<TTripEditResult> {
  const caller = callerOf(ctx);
  const now = new Date();
  const timestamp = body.timestamp ? new Date(body.timestamp) : now;
  checkNotFuture('timestamp', timestamp.getTime() / 1000, now);
  const key = replayKey('xt1.TRIP_EDIT', body, body.timestamp !== undefined);

  return runUpload(ctx.db, caller, key, async (tx, replay) => {
    const { tag, record } = await recordForEdit(
      tx,
      caller,
      { record_id: body.record_id, tag_id: body.tag_id },
      now,
    );
    const again = await replay();
    if (again) return again;

    const timeOf = (value: string | null | undefined, current: Date | null) =>
      value === undefined ? current : value === null ? null : new Date(value);
    const begin = timeOf(body.begin_time, record.tripBeginTime);
    const end = timeOf(body.end_time, record.tripEndTime);
    if (begin !== null && end !== null && end < begin) {
      throw invalidField('end_time', `Field 'end_time': must not be before begin_time`);
    }
    const tripStatus = tripStatusFromTimes(begin?.getTime() ?? null, end?.getTime() ?? null);
    const patch = changedFields(record, {
      tripBeginTime: begin,
      tripEndTime: end,
      tripStatus,
      tripManual: true,
    });
    const changes: Record<string, { old: unknown; new: unknown }> = {};
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    if ('tripBeginTime' in patch)
      changes.begin_time = { old: iso(record.tripBeginTime), new: iso(begin) };
    if ('tripEndTime' in patch) changes.end_time = { old: iso(record.tripEndTime), new: iso(end) };
    if ('tripStatus' in patch) changes.trip_status = { old: record.tripStatus, new: tripStatus };
    const updated = await applyPatch(tx, record, patch, now);
    const reply: TTripEditResult = {
      record_id: String(record.id),
      begin_time: iso(begin),
      end_time: iso(end),
      trip_status: tripStatus,
    };
    if (key === null && updated === record) return reply;
    await writeAction(tx, caller, updated, tag, {
      type: 'TRIP_EDIT',
      key: key ?? freshKey('xt1.TRIP_EDIT'),
      timestamp,
      reply,
      changes,
    });
    const change = await regulatedChange(tx, ctx, updated, 'TRIP_EDIT', body.reason, undefined);
    await auditEdit(tx, ctx, updated, 'record.trip.update', changes, undefined, change.reason);
    await recomputeRecord(tx, updated, {
      now,
      jobs: caller.jobs,
      requestId: ctx.requestId ?? null,
      change,
    });
    return reply;
  });
}

// ---------------------------------------------------------------- rt

function rtSettings(body: {
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

/** An action of a device without a record of its own to create (stop, status): a plain action row. */
async function finishAction(
  tx: Db,
  caller: Caller,
  tag: TagRow,
  record: RecordRow,
  action: { type: TRecordActionType; key: string | null; timestamp: Date },
  now: Date,
  seriesChanged = false,
): Promise<TRecordReference> {
  const reply = reference(record, tag);
  const key = action.key ?? freshKey(action.type);
  await writeAction(tx, caller, record, tag, { ...action, key, reply });
  await recomputeRecord(tx, record, { now, seriesChanged, jobs: caller.jobs });
  return reply;
}

/** rt configure-action: the tag's configuration; a pending record takes it, else one is created. */
export async function rtConfigure(
  ctx: IngestContext,
  body: TRtConfigureUpload,
): Promise<TRecordReference> {
  const caller = callerOf(ctx);
  const now = new Date();
  const timestamp = body.timestamp ? new Date(body.timestamp) : now;
  checkNotFuture('timestamp', timestamp.getTime() / 1000, now);
  const key = replayKey(
    'rt.CONFIGURE',
    body,
    body.timestamp !== undefined || body.request_id !== undefined,
  );
  return runUpload(ctx.db, caller, key, async (tx, replay) => {
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

/** A configuration reaches the tag's pending record (created when there is no active one). */
async function configureRecord(
  tx: Db,
  caller: Caller,
  tag: TagRow,
  action: { type: TRecordActionType; key: string | null; timestamp: Date },
  now: Date,
  tagChanged: boolean,
): Promise<TRecordReference> {
  const settings = configurationSettings(tag.configuration);
  const resolved = await resolveRecord(tx, caller, tag, { settings, create: true, now });
  let record = resolved.record;
  if (!resolved.created && record.startTimeSeconds === null) {
    record = await applyPatch(tx, record, settings, now);
  }
  // A configuration without a time or request id that changes nothing is a repeat: no new row.
  const unchanged = !tagChanged && !resolved.created && record === resolved.record;
  if (action.key === null && unchanged) return reference(record, tag);
  return finishAction(tx, caller, tag, record, action, now);
}

/** rt start-action: the tag confirms it started at start_time_seconds. */
export async function rtStart(ctx: IngestContext, body: TRtStartUpload): Promise<TRecordReference> {
  const caller = callerOf(ctx);
  const now = new Date();
  const timestamp = body.timestamp
    ? new Date(body.timestamp)
    : new Date(body.start_time_seconds * 1000);
  checkNotFuture('timestamp', timestamp.getTime() / 1000, now);
  checkNotFuture('start_time_seconds', body.start_time_seconds, now);
  const key = uploadKey('rt.START', body);
  return runUpload(ctx.db, caller, key, async (tx, replay) => {
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
    const filled = await applyPatch(tx, record, fillSettings(record, settings), now);
    return finishAction(tx, caller, tag, filled, { type: 'START', key, timestamp }, now);
  });
}

/** rt stop-action: the tag confirms it stopped. */
export async function rtStop(ctx: IngestContext, body: TRtStopUpload): Promise<TRecordReference> {
  const caller = callerOf(ctx);
  const now = new Date();
  const timestamp = body.timestamp
    ? new Date(body.timestamp)
    : body.stop_time_seconds
      ? new Date(body.stop_time_seconds * 1000)
      : now;
  checkNotFuture('timestamp', timestamp.getTime() / 1000, now);
  checkNotFuture('stop_time_seconds', body.stop_time_seconds, now);
  const key = replayKey(
    'rt.STOP',
    body,
    [body.timestamp, body.request_id, body.start_time_seconds, body.stop_time_seconds].some(
      (v) => v !== undefined,
    ),
  );
  return runUpload(ctx.db, caller, key, async (tx, replay) => {
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
 * idempotent by merge-by-index (no upload key).
 */
export async function rtPacket(
  ctx: IngestContext,
  body: TRtPacketUpload,
): Promise<TRecordReference> {
  const caller = callerOf(ctx);
  const now = new Date();
  checkNotFuture('start_time_seconds', body.start_time_seconds, now);
  checkNotFuture('packet_end_time_seconds', body.packet_end_time_seconds, now);
  return runUpload(ctx.db, caller, null, async (tx) => {
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
    const writes = await uploadWrites(tx, record, created);
    const added = queueMerge(ctx, writes, record, body.temperatures_offset_index, body.temps);
    if (added > 0 || created) {
      await recomputeRecord(tx, record, {
        now,
        seriesChanged: added > 0,
        state: writes.state,
        batch: writes.batch,
        jobs: caller.jobs,
      });
    } else {
      await writes.batch.flush(tx);
    }
    return reference(record, tag);
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
  const caller = callerOf(ctx);
  return ctx.db.transaction(async (tx) => {
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

// ---------------------------------------------------------------- nanotag

/** nanotag generalized-data: the tag's settings; a pending record takes them, a running one fills gaps. */
export async function nanotagSettings(
  ctx: IngestContext,
  body: TNanotagSettingsUpload,
): Promise<TRecordReference> {
  const caller = callerOf(ctx);
  const now = new Date();
  return runUpload(ctx.db, caller, null, async (tx) => {
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
  const caller = callerOf(ctx);
  const now = new Date();
  // The message carries no time or id: applied again, the same periods change nothing.
  return runUpload(ctx.db, caller, null, async (tx) => {
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
  const caller = callerOf(ctx);
  const now = new Date();
  const firstSample = isoSeconds(body.first_sample_timestamp);
  checkNotFuture('first_sample_timestamp', firstSample, now);
  const key = uploadKey('nanotag.FIRST_SAMPLE', body);
  return runUpload(ctx.db, caller, key, async (tx, replay) => {
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
  const caller = callerOf(ctx);
  const now = new Date();
  return runUpload(ctx.db, caller, null, async (tx) => {
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
  const caller = callerOf(ctx);
  const now = new Date();
  const at = isoSeconds(body.last_sample_timestamp);
  checkNotFuture('last_sample_timestamp', at, now);
  const key = uploadKey('nanotag.STATUS', body);
  return runUpload(ctx.db, caller, key, async (tx, replay) => {
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
  const caller = callerOf(ctx);
  const now = new Date();
  return runUpload(ctx.db, caller, null, async (tx) => {
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
 * run covering that time; a known location becomes a location sample.
 */
export async function nanotagPacket(
  ctx: IngestContext,
  body: TNanotagPacketUpload,
): Promise<TRecordReference> {
  const caller = callerOf(ctx);
  const now = new Date();
  checkNotFuture('packet_end_time_seconds', body.packet_end_time_seconds, now);
  return runUpload(ctx.db, caller, null, async (tx) => {
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
    const writes = await uploadWrites(tx, record, false);
    const added = queueMerge(ctx, writes, record, offset, body.temps);
    const sampled = await addSample(tx, record, body, writes);
    if (added > 0 || sampled) {
      await recomputeRecord(tx, record, {
        now,
        seriesChanged: added > 0,
        state: writes.state,
        batch: writes.batch,
        jobs: caller.jobs,
      });
    } else {
      await writes.batch.flush(tx);
    }
    return reference(record, tag);
  });
}

async function addSample(
  tx: Db,
  record: RecordRow,
  body: TNanotagPacketUpload,
  writes: UploadWrites,
): Promise<boolean> {
  const location = body.location;
  if (!location || !isKnownPosition(location)) return false;
  await addLocationSample(
    tx,
    record,
    location.latitude,
    location.longitude,
    new Date(body.packet_end_time_seconds * 1000),
    { frameId: body.frame_id, temperature: body.temps.at(-1) ?? null },
    writes,
  );
  return true;
}

// ---------------------------------------------------------------- for other modules

/**
 * Recompute a record (summary, alarms, status, trip, tag state) after a
 * change made elsewhere (e.g. an alarm acknowledgement does not need it; a
 * geo-fence or travel location edit does). 404 for another organization's
 * record. Locks the tag, then the record, like every upload.
 */
export async function reevaluateRecord(
  db: Database,
  organizationId: string,
  recordId: number,
  jobs: AlarmEventSender | null,
): Promise<RecordRow> {
  return db.transaction(async (tx) => {
    const found = await repo.findRecord(tx, organizationId, recordId);
    if (!found) throw notFoundField('Record', 'record_id');
    await repo.lockTagForRecord(tx, found.tagId);
    const record = await repo.lockRecord(tx, organizationId, recordId);
    if (!record) throw notFoundField('Record', 'record_id');
    return (await recomputeRecord(tx, record, { jobs })).record;
  });
}

/** Display name of a record action type (`action_type_display`). */
export function actionTypeDisplay(type: string): string {
  return (RECORD_ACTION_TYPES as Record<string, string>)[type] ?? type;
}

/**
 * A geo-fence change (or the move of travel location `locationId`), made now
 * by a person: the trips of the active records it reaches are evaluated again
 * at once, in the caller's transaction, from the new settings (records keep
 * the inputs their trip is detected from, so nothing changes later as a side
 * effect; stopped records keep theirs). When any of them has alarms a reason
 * for change is required; alarms it closes need the signature. Each trip that
 * moves is audited (`record.trip.update`, with the reason). Answers the number
 * of records evaluated.
 */
export async function reevaluateTrips(
  tx: Db,
  ctx: {
    principal: Principal;
    organizationId: string;
    jobs: AlarmEventSender | null;
    requestId: string;
    reason: string | undefined;
    signature: ChangeSignature | null;
  },
  which: { locationId?: number },
): Promise<number> {
  const affected = await repo.findTripAffectedRecords(tx, ctx.organizationId, which.locationId);
  if (affected.length === 0) return 0;
  if (ctx.reason === undefined && affected.some((r) => r.hasAlarms)) {
    const n = affected.filter((r) => r.hasAlarms).length;
    const message = `A reason for change is required: this change re-evaluates ${n} record${n === 1 ? '' : 's'} with alarms`;
    throw new AppError('REASON_REQUIRED', message, { reason: message });
  }
  const actor = actorOf(ctx.principal);
  const change: AlarmChange = {
    cause: which.locationId === undefined ? 'GEO_FENCE_CHANGE' : 'LOCATION_CHANGE',
    actor: { ...actor, userId: ctx.principal.user.id },
    reason: ctx.reason ?? null,
    requestId: ctx.requestId,
    signature: ctx.signature,
  };
  const now = new Date();
  const iso = (d: Date | null) => d?.toISOString() ?? null;
  for (const { id, tagId } of affected) {
    await repo.lockTagForRecord(tx, tagId);
    const record = await repo.lockRecord(tx, ctx.organizationId, id);
    if (!record) continue;
    // Inputs taken again from the settings as they are now.
    const { record: after } = await recomputeRecord(
      tx,
      { ...record, tripInputs: null },
      { now, jobs: ctx.jobs, requestId: ctx.requestId, change },
    );
    const changes: Record<string, { old: unknown; new: unknown }> = {};
    if (iso(record.tripBeginTime) !== iso(after.tripBeginTime)) {
      changes.begin_time = { old: iso(record.tripBeginTime), new: iso(after.tripBeginTime) };
    }
    if (iso(record.tripEndTime) !== iso(after.tripEndTime)) {
      changes.end_time = { old: iso(record.tripEndTime), new: iso(after.tripEndTime) };
    }
    if (record.tripStatus !== after.tripStatus) {
      changes.trip_status = { old: record.tripStatus, new: after.tripStatus };
    }
    await recordAudit(
      tx,
      { organizationId: ctx.organizationId, actor, requestId: ctx.requestId },
      Object.entries(changes).map(([field, c]) => ({
        action: 'record.trip.update',
        entityType: 'record',
        entityId: id,
        recordId: id,
        field,
        oldValue: c.old,
        newValue: c.new,
        reason: change.reason,
      })),
    );
  }
  return affected.length;
}
