import type { TTagType } from '@coldtrace/contract';
import type { Db } from '../../db/client';
import type { RecordRow, TagConfiguration, TagRow, records } from '../../db/schema-shipments';
import { AppError, invalidField, notFound, notFoundSaying } from '../../kernel/errors';
import { changedFields } from './record-series';
import * as repo from './repository';
import { type Caller, defined } from './upload';

/**
 * Tag-and-run resolution: the tag an upload names (found or created in the
 * caller's organization, locked), its configuration, the record (run) the
 * upload belongs to (found, a pending one started, or created, ending the
 * tag's earlier runs), and the patches of a record's settings, shipment
 * fields and stop: what the pipeline's steps "tag" and "run" call
 * (`pipeline.ts`).
 */

type RecordInsert = typeof records.$inferInsert;

/** Record settings an upload (or a tag's configuration) can carry. */
export type RecordSettings = Partial<
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

export interface TagIdent {
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
export async function resolveTag(
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
  if (!tag || tag.organizationId !== caller.organizationId) throw notFound('Tag', 'tag_id');
  return tag;
}

/**
 * {@link resolveTag} for an upload with a key, which is looked up first (a
 * replay answers the stored reply before anything else is judged): when the
 * tag is named by serial number, in the same round trip as the tag's lock
 * (and its creation, with `create`).
 */
export async function resolveUploadTag(
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

export function configurationSettings(config: TagConfiguration): RecordSettings {
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
export async function configureTag(
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

export const noRecord = () =>
  notFoundSaying(
    'The tag has no record this upload belongs to',
    'tag_id',
    'No matching record of this tag',
  );

export const noConfiguration = () =>
  new AppError(
    'CONFLICT',
    'The tag has no measurement interval to start a record with: send its configuration first',
    { tag_id: 'Tag not configured (no measurement interval)' },
  );

export function fillSettings(record: RecordRow, settings: RecordSettings): Partial<RecordRow> {
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
export async function resolveRecord(
  tx: Db,
  caller: Caller,
  tag: TagRow,
  lookup: RecordLookup,
): Promise<{ record: RecordRow; created: boolean }> {
  const start = lookup.start ?? null;
  if (lookup.recordId !== undefined) {
    const record = await repo.lockRecord(tx, caller.organizationId, Number(lookup.recordId));
    if (!record) throw notFound('Record', 'record_id');
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

export async function applyPatch(
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
export async function checkTravelLocations(
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
      throw notFound(`Travel location ${id}`, field);
    }
  }
}

const locationId = (id: string | null | undefined): number | null | undefined =>
  id === undefined ? undefined : id === null ? null : Number(id);

export const SHIPMENT_TEXT = [
  ['primary_reference', 'primaryReference'],
  ['secondary_reference', 'secondaryReference'],
  ['shipping_reference', 'shippingReference'],
  ['program_name', 'programName'],
  ['po_number', 'poNumber'],
  ['carrier', 'carrier'],
  ['product_designation', 'productDesignation'],
] as const;

export type ShipmentFields = Partial<
  Record<(typeof SHIPMENT_TEXT)[number][0], string | null> & {
    shipper_name_address_id: string | null;
    receiver_name_address_id: string | null;
    planned_arrival: string | null;
  }
>;

/** Shipment details of an upload: `overwrite` sets every field sent; otherwise only empty ones are filled. */
export function shipmentPatch(
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
  if (fields.planned_arrival !== undefined) {
    const planned = fields.planned_arrival === null ? null : new Date(fields.planned_arrival);
    if (overwrite) patch.plannedArrival = planned;
    else if (record.plannedArrival === null && planned !== null) patch.plannedArrival = planned;
  }
  return patch;
}

export function stopPatch(record: RecordRow, stopAt: Date): Partial<RecordRow> {
  const stopTime =
    record.stopTime !== null && record.stopTime.getTime() <= stopAt.getTime()
      ? record.stopTime
      : stopAt;
  return { active: false, stopTime };
}
