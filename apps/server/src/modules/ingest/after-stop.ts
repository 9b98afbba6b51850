import type { TRecordReference, TSetAsidePoints } from '@coldtrace/contract';
import { pointTime, type SeriesValue } from '@coldtrace/domain';
import type { Db } from '../../db/client';
import type { RecordRow } from '../../db/schema-shipments';
import { actorOf, recordAudit } from '../../kernel/audit';
import { seriesOf } from './record-series';
import * as repo from './repository';
import { notePointsMerged, type IngestContext } from './upload';
import { UploadWrites } from './upload-writes';

/**
 * A record ends with its stop (domain rules §1): points an upload times after
 * the record's `stop_time` are not the record's. They are never merged nor
 * evaluated; the upload still succeeds (200: a device that retries on an
 * error would retry them for ever, and they are not wrong, only not this
 * record's), its reply says how many were set aside and from when
 * (`set_aside`), and the record's audit trail keeps them with who sent them
 * (`record.points.set_aside`). Late points from before the stop still merge.
 * Decisions: docs/decisions/shipment-ingest.md, "A record ends with its stop".
 */

export const SET_ASIDE_ACTION = 'record.points.set_aside';

/** The points of one upload set aside: its values from `fromIndex` on. */
export interface SetAsidePoints {
  /** The upload call (`rt.packet`, `nanotag.packet`, `xt1.SCAN`, ...). */
  upload: string;
  /** Index of the first point (a value, not a gap) set aside. */
  fromIndex: number;
  /** The values from `fromIndex` on, as uploaded (gaps as null). */
  temps: SeriesValue[];
  /** How many of them are values. */
  count: number;
  fromTime: Date;
  stopTime: Date;
}

/** What of an upload's slice belongs to the record (`kept`) and what was set aside. */
export interface SplitAtStop {
  kept: readonly SeriesValue[];
  setAside: SetAsidePoints | null;
}

const isValue = (v: SeriesValue | undefined): v is number =>
  typeof v === 'number' && Number.isFinite(v);

/**
 * The index of the record's last point at or before its stop (-1: none);
 * null when every index belongs to it (not stopped, or not started: its
 * points have no time yet).
 */
function lastIndexBeforeStop(record: RecordRow): number | null {
  if (record.stopTime === null || record.startTimeSeconds === null) return null;
  const series = seriesOf(record, []);
  const stop = record.stopTime.getTime() / 1000;
  let last = Math.floor((stop - pointTime(series, 0)) / series.intervalSeconds);
  // The division may land one off for a fractional interval: settle on the times themselves.
  while (pointTime(series, last + 1) <= stop) last++;
  while (last >= 0 && pointTime(series, last) > stop) last--;
  return Math.max(last, -1);
}

/**
 * Split the slice an upload brings at `offset` at the record's stop: the
 * points up to the stop are kept, the rest (when it holds a value) set aside.
 */
export function splitAtStop(
  record: RecordRow,
  upload: string,
  offset: number,
  temps: readonly SeriesValue[],
): SplitAtStop {
  const last = lastIndexBeforeStop(record);
  if (last === null || offset + temps.length - 1 <= last) return { kept: temps, setAside: null };
  const keep = Math.max(0, last - offset + 1);
  const first = temps.findIndex((v, i) => i >= keep && isValue(v));
  const kept = temps.slice(0, keep);
  if (first < 0) return { kept, setAside: null };
  const rest = temps.slice(first);
  const fromIndex = offset + first;
  return {
    kept,
    setAside: {
      upload,
      fromIndex,
      temps: rest.map((v) => (isValue(v) ? v : null)),
      count: rest.filter(isValue).length,
      fromTime: new Date(pointTime(seriesOf(record, []), fromIndex) * 1000),
      stopTime: record.stopTime!,
    },
  };
}

/** What the reply says of the points set aside. */
export function setAsideReply(setAside: SetAsidePoints): TSetAsidePoints {
  return {
    count: setAside.count,
    from_index: setAside.fromIndex,
    from_time: setAside.fromTime.toISOString(),
    stop_time: setAside.stopTime.toISOString(),
  };
}

/** The reply of an upload: the record reference, with the points set aside when there are any. */
export function withSetAside(
  reply: TRecordReference,
  setAside: SetAsidePoints | null,
): TRecordReference {
  return setAside ? { ...reply, set_aside: setAsideReply(setAside) } : reply;
}

/**
 * Keep the points set aside in the record's audit trail, in the upload's
 * transaction: who sent them, when, the upload call, where they begin, the
 * record's stop, and the values themselves. The same points set aside again
 * (a device's retry, a scan carrying the same log) are kept once.
 */
export async function logSetAside(
  tx: Db,
  ctx: IngestContext,
  record: RecordRow,
  setAside: SetAsidePoints | null,
): Promise<void> {
  if (!setAside) return;
  const entry = {
    upload: setAside.upload,
    ...setAsideReply(setAside),
    temps: setAside.temps,
  };
  if (await repo.auditEntryExists(tx, record, SET_ASIDE_ACTION, entry)) return;
  await recordAudit(
    tx,
    {
      organizationId: record.organizationId,
      actor: actorOf(ctx.principal),
      requestId: ctx.requestId ?? null,
    },
    [
      {
        action: SET_ASIDE_ACTION,
        entityType: 'record',
        entityId: record.id,
        recordId: record.id,
        newValue: entry,
        reason:
          `${setAside.count} point(s) from ${entry.from_time} (index ${setAside.fromIndex}) ` +
          `are timed after the record's stop (${entry.stop_time}): not added to the record`,
      },
    ],
  );
}

/**
 * The unit of work of an upload that brings points (`temps` at `offset`):
 * opened for the points up to the record's stop, those merged, the rest set
 * aside and kept in the audit trail. Answers the unit of work, the points
 * added, the points kept and what was set aside.
 */
export async function mergeUpToStop(
  tx: Db,
  ctx: IngestContext,
  record: RecordRow,
  created: boolean,
  points: { upload: string; offset: number; temps: readonly SeriesValue[] },
): Promise<{ writes: UploadWrites; added: number } & SplitAtStop> {
  const { upload, offset, temps } = points;
  const { kept, setAside } = splitAtStop(record, upload, offset, temps);
  const writes = await UploadWrites.open(tx, record, created, { offset, count: kept.length });
  const added = writes.mergePoints(ctx.log, offset, kept);
  notePointsMerged(ctx, upload, added);
  await logSetAside(tx, ctx, record, setAside);
  return { writes, added, kept, setAside };
}
