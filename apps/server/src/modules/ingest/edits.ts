import {
  REGULATED_SHIPMENT_FIELDS,
  SHIPMENT_FIELD_PERMISSIONS,
  type TRecordReference,
  type TTripEditResult,
  type TXt1TripEditUpload,
  type TXt1UpdateShipmentUpload,
} from '@coldtrace/contract';
import { tripStatusFromTimes } from '@coldtrace/domain';
import type { Db } from '../../db/client';
import type { RecordRow } from '../../db/schema-shipments';
import { AppError, invalidField, notFound } from '../../kernel/errors';
import type { Principal } from '../../kernel/principal';
import { actorOf, recordAudit } from '../../kernel/audit';
import type { AlarmEventSender } from '../../jobs/catalogue';
import { recordHasAlarms } from '../alarms';
import type { ChangeSignature } from '../signatures';
import { changedFields, recomputeRecord, type AlarmChange } from './reevaluate';
import * as repo from './repository';
import {
  applyPatch,
  checkTravelLocations,
  resolveRecord,
  resolveTag,
  SHIPMENT_TEXT,
  shipmentPatch,
} from './runs';
import { type Caller, defined, freshKey, type IngestContext, reference, runUpload } from './upload';
import { type TagRef, writeAction } from './upload-writes';

/**
 * A person's edits: update-shipment (shipment details, thresholds,
 * cumulative limits) and trip times of a record, and the re-evaluation of
 * the active records' trips after a geo-fence or travel location change.
 * Regulated changes need a reason when the record has alarms, and a
 * signature when they close one (docs/decisions/alarm-lifecycle.md).
 */

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
const THRESHOLD_FIELDS = new Set<string>(REGULATED_SHIPMENT_FIELDS.THRESHOLD_CHANGE);
const LOCATION_FIELDS = new Set<string>(REGULATED_SHIPMENT_FIELDS.LOCATION_CHANGE);

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
  if (reason === undefined && (await recordHasAlarms(tx, record.organizationId, record.id))) {
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

/** The tag of a record as the record knows it (its tag may have moved to another organization since). */
const recordTag = (record: RecordRow): TagRef => ({
  id: record.tagId,
  serialNumber: record.tagSerialNumber,
  tagType: record.tagType,
});

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
    if (!found) throw notFound('Record', 'record_id');
    // The record's tag may belong to another organization by now: its lock
    // only (lock order), and the tag as the record knows it (id, serial, type).
    await repo.lockTagForRecord(tx, found.tagId);
    const record = await repo.lockRecord(tx, caller.organizationId, found.id);
    if (!record) throw notFound('Record', 'record_id');
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

const EDIT_PERMISSIONS: Record<string, string> = SHIPMENT_FIELD_PERMISSIONS;

const EDIT_COLUMNS: Record<string, keyof RecordRow> = {
  ...Object.fromEntries(SHIPMENT_TEXT),
  shipper_name_address_id: 'shipperLocationId',
  receiver_name_address_id: 'receiverLocationId',
  planned_arrival: 'plannedArrival',
  high_threshold: 'highThreshold',
  low_threshold: 'lowThreshold',
  num_consecutive_excursions: 'numConsecutiveExcursions',
  cumulative_high_threshold: 'cumulativeHighThreshold',
  cumulative_low_threshold: 'cumulativeLowThreshold',
  cumulative_duration_high: 'cumulativeDurationHigh',
  cumulative_duration_low: 'cumulativeDurationLow',
};

/** Each field sent needs its permission (403 naming the fields that lack one). */
function checkEditPermissions(ctx: IngestContext, body: TXt1UpdateShipmentUpload): void {
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
}

type FieldChanges = Record<string, { old: unknown; new: unknown }>;

/**
 * What update-shipment changes on the record (each field sent replaces the
 * stored one, null clears), refused when the thresholds would cross; with
 * the old and new value of each changed field, as the action row keeps them.
 */
function shipmentEdit(
  record: RecordRow,
  body: TXt1UpdateShipmentUpload,
): { patch: Partial<RecordRow>; changes: FieldChanges } {
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
    throw invalidField('low_threshold', `Field 'low_threshold': must not be above high_threshold`);
  }
  const patch = changedFields(record, next);
  const changes: FieldChanges = {};
  for (const [field, column] of Object.entries(EDIT_COLUMNS)) {
    if (column in patch) {
      changes[field] = { old: record[column] ?? null, new: patch[column] ?? null };
    }
  }
  return { patch, changes };
}

/** The cause of the alarm re-evaluation an edit of these fields brings; null: none. */
function editCause(fields: readonly string[]): AlarmChange['cause'] | null {
  if (fields.includes('product_designation')) return 'PRODUCT_CHANGE';
  if (fields.includes('shipping_reference')) return 'SHIPMENT_CHANGE';
  if (fields.some((f) => THRESHOLD_FIELDS.has(f))) return 'THRESHOLD_CHANGE';
  if (fields.some((f) => LOCATION_FIELDS.has(f))) return 'LOCATION_CHANGE';
  return null;
}

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
  const prologue = {
    timestamp: (now: Date) => (body.timestamp ? new Date(body.timestamp) : now),
    key: { kind: 'xt1.UPDATE_SHIPMENT', body, identified: body.timestamp !== undefined },
  };
  return runUpload(ctx, prologue, async ({ caller, now, timestamp, key }, tx, replay) => {
    const { tag, record } = await recordForEdit(
      tx,
      caller,
      { record_id: body.record_id, tag_id: body.tag_id, start: body.start_time_seconds },
      now,
    );
    const again = await replay();
    if (again) return again;
    checkEditPermissions(ctx, body);
    await checkTravelLocations(tx, caller, body);

    const { patch, changes } = shipmentEdit(record, body);
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
    const cause = editCause(Object.keys(changes));
    const change =
      cause === null
        ? undefined
        : await regulatedChange(tx, ctx, updated, cause, body.reason, body.mobile_device_type);
    const { mobile_device_type: client } = body;
    await auditEdit(tx, ctx, updated, 'record.shipment.update', changes, client, change?.reason);
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
  const prologue = {
    timestamp: (now: Date) => (body.timestamp ? new Date(body.timestamp) : now),
    key: { kind: 'xt1.TRIP_EDIT', body, identified: body.timestamp !== undefined },
  };
  return runUpload(ctx, prologue, async ({ caller, now, timestamp, key }, tx, replay) => {
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
