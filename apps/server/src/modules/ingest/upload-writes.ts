import { UNKNOWN_LATITUDE, UNKNOWN_LONGITUDE, type TRecordActionType } from '@coldtrace/contract';
import { isKnownPosition, type SeriesValue } from '@coldtrace/domain';
import type { Db } from '../../db/client';
import type { RecordRow, TagRow } from '../../db/schema-shipments';
import { planMerge, type SeriesConflict } from '../series/series-store';
import * as repo from './repository';
import type { Caller, IngestContext } from './upload';
import { WriteBatch } from './write-batch';

/** What an action row and a reply need of a tag. */
export type TagRef = Pick<TagRow, 'id' | 'serialNumber' | 'tagType'>;

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
export interface UploadWrites {
  batch: WriteBatch;
  state: repo.RecordState;
}

/** The record's state, read once (nothing to read for a record created in this transaction). */
export async function uploadWrites(
  tx: Db,
  record: RecordRow,
  created: boolean,
): Promise<UploadWrites> {
  return {
    batch: new WriteBatch(),
    state: created ? repo.emptyRecordState() : await repo.loadRecordState(tx, record.id),
  };
}

/** Merge points into the queued writes' state (a merge by index in memory, its write queued). */
export function queueMerge(
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

export async function addLocationSample(
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

export async function writeAction(
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
