import { UNKNOWN_LATITUDE, UNKNOWN_LONGITUDE, type TRecordActionType } from '@coldtrace/contract';
import {
  detectExcursions,
  isKnownPosition,
  temperatureSummary,
  timeBeyond,
  type SeriesValue,
} from '@coldtrace/domain';
import type { Db } from '../../db/client';
import type { SQL } from 'drizzle-orm';
import type {
  AlarmRow,
  locationSamples,
  recordActions,
  RecordRow,
  scans,
  TagRow,
} from '../../db/schema-shipments';
import {
  planMerge,
  readChunks,
  SERIES_CHUNK_SIZE,
  type SeriesConflict,
} from '../../kernel/series-store';
import * as repo from './repository';
import type { DecodedScan } from './decoded';
import { seriesOf, thresholdsOf } from './record-series';
import type { Caller, IngestLogger, Upload } from './upload';
import { WriteBatch } from './write-batch';

/** What an action row and a reply need of a tag. */
export type TagRef = Pick<TagRow, 'id' | 'serialNumber' | 'tagType'>;

function logConflicts(log: IngestLogger, record: RecordRow, conflicts: SeriesConflict[]): void {
  log.warn(
    {
      recordId: record.id,
      tagId: record.tagId,
      conflicts: conflicts.length,
      first: conflicts.slice(0, 10),
    },
    'upload offered temperatures that differ from stored points; the stored values were kept',
  );
}

/** The record's state as the recomputation reads it, with every write queued so far in it. */
export type RecordStateView = {
  readonly chunks: ReadonlyMap<number, readonly SeriesValue[]>;
  readonly samples: readonly repo.SamplePoint[];
  readonly alarms: readonly AlarmRow[];
  readonly lastScan: Readonly<repo.RecordState['lastScan']>;
  readonly lastActionAt: Date | null;
  /** The running aggregates as stored (before this upload); null: none. */
  readonly aggregates: unknown;
  readonly chunksComplete: boolean;
};

/**
 * The unit of work of an upload: the writes it queues (sent with the
 * recomputation's own, in one statement: see {@link WriteBatch}) and the
 * record's state with those writes in it, owned together. Queuing a series
 * merge, a scan, an action or a location sample updates the state the
 * recomputation reads at once, so the two cannot drift: the recomputation
 * reads nothing back.
 */
export class UploadWrites {
  private readonly batch = new WriteBatch();
  /** The lowest and highest index the merges of this upload gave a value (null: none). */
  private added: { first: number; last: number } | null = null;

  private constructor(
    private readonly tx: Db,
    private readonly record: RecordRow,
    private readonly current: repo.RecordState,
    private readonly range?: repo.ChunkRange,
  ) {}

  /**
   * The record's state, read once (nothing to read for a record created in
   * this transaction). `points`: the indices the upload's points cover; when
   * the record has running aggregates, only the chunks they touch are read
   * (an append needs no more; {@link wholeSeries} reads the rest when the
   * recomputation must go over the whole series); `'none'`: the upload
   * brings no points (none read then). Absent: every chunk is read.
   */
  static async open(
    tx: Db,
    record: RecordRow,
    created: boolean,
    points?: { offset: number; count: number } | 'none',
  ): Promise<UploadWrites> {
    let range: repo.ChunkRange | undefined;
    if (points === 'none') range = { fromChunk: 0, toChunk: -1 };
    else if (points !== undefined) {
      range =
        points.count > 0
          ? {
              fromChunk: Math.floor(points.offset / SERIES_CHUNK_SIZE),
              toChunk: Math.floor((points.offset + points.count - 1) / SERIES_CHUNK_SIZE),
            }
          : { fromChunk: 0, toChunk: -1 };
    }
    const state = created
      ? repo.emptyRecordState()
      : await repo.loadRecordState(tx, record.id, undefined, range);
    return new UploadWrites(tx, record, state, range);
  }

  /** The record's state with every queued write in it. */
  get state(): RecordStateView {
    return this.current;
  }

  /** Merge points at `offset` (a merge by index in memory, its write queued); answers the points added. */
  mergePoints(log: IngestLogger, offset: number, temps: readonly SeriesValue[]): number {
    const { record, current } = this;
    if (!current.chunksComplete && temps.length > 0) {
      const fromChunk = Math.floor(offset / SERIES_CHUNK_SIZE);
      const toChunk = Math.floor((offset + temps.length - 1) / SERIES_CHUNK_SIZE);
      const range = this.range;
      if (!range || fromChunk < range.fromChunk || toChunk > range.toChunk) {
        throw new Error('mergePoints: points outside the chunks the unit of work was opened for');
      }
    }
    const plan = planMerge(record.organizationId, record.id, current.chunks, offset, temps);
    if (plan.firstAdded !== null && plan.lastAdded !== null) {
      this.added = {
        first: Math.min(plan.firstAdded, this.added?.first ?? Infinity),
        last: Math.max(plan.lastAdded, this.added?.last ?? -Infinity),
      };
    }
    if (plan.conflicts.length > 0) logConflicts(log, record, plan.conflicts);
    for (const [chunkNo, values] of plan.chunks) current.chunks.set(chunkNo, values);
    if (plan.write) this.batch.add(plan.write);
    return plan.added;
  }

  /** The lowest and highest index this upload's merges gave a value; null: none. */
  get addedPoints(): { first: number; last: number } | null {
    return this.added;
  }

  /**
   * The state's chunks, completed with every stored chunk not read yet (one
   * round trip, only when the state was read for an append).
   */
  async wholeSeries(): Promise<ReadonlyMap<number, readonly SeriesValue[]>> {
    const current = this.current;
    if (!current.chunksComplete) {
      const rest = await readChunks(this.tx, this.record.id, undefined, current.chunks);
      for (const [chunkNo, values] of rest) current.chunks.set(chunkNo, values);
      current.chunksComplete = true;
    }
    return current.chunks;
  }

  /**
   * The state's chunks, completed with the stored chunks numbered `fromChunk`
   * and up not read yet (one round trip, only when some may be missing).
   */
  async chunksFrom(fromChunk: number): Promise<ReadonlyMap<number, readonly SeriesValue[]>> {
    const current = this.current;
    if (!current.chunksComplete) {
      const range = { fromChunk, toChunk: 2_147_483_647 };
      const rest = await readChunks(this.tx, this.record.id, range, current.chunks);
      for (const [chunkNo, values] of rest) current.chunks.set(chunkNo, values);
    }
    return current.chunks;
  }

  /** A scan row; it is the record's latest scan unless an earlier-stored one has a later device time. */
  addScan(values: typeof scans.$inferInsert): void {
    this.batch.add(repo.insertScanSql(this.tx, values));
    // The latest scan (by device time, then id: this one is the newest row).
    const last = this.current.lastScan;
    if (last === undefined || values.timestamp >= last.timestamp) {
      this.current.lastScan = {
        timestamp: values.timestamp,
        userId: values.createdByUserId ?? null,
      };
    }
  }

  /** An action row. */
  addAction(values: typeof recordActions.$inferInsert): void {
    this.batch.add(repo.insertActionSql(this.tx, values));
    const last = this.current.lastActionAt;
    if (last === null || values.timestamp > last) this.current.lastActionAt = values.timestamp;
  }

  /** A location sample: kept once per (time, position), ordered by time, then insertion. */
  addSample(values: typeof locationSamples.$inferInsert): void {
    this.batch.add(repo.insertLocationSampleSql(this.tx, values));
    const { latitude, longitude, timestamp } = values;
    noteSample(this.current, { latitude, longitude, timestamp });
  }

  /**
   * A write of the recomputation itself (the alarms, the record's row, the
   * tag's state): it comes after the state was read for the last time, so
   * the state does not hold it.
   */
  addDerived(statement: SQL): void {
    this.batch.add(statement);
  }

  /** Send the queued writes (none: no round trip). */
  async flush(): Promise<void> {
    await this.batch.flush(this.tx);
  }

  /** Send the queued writes with `main` last, answering its rows (see {@link WriteBatch.run}). */
  async run<T extends Record<string, unknown>>(main: SQL | null): Promise<T[]> {
    return this.batch.run<T>(this.tx, main);
  }
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

/**
 * A location sample of the record (an unknown position or an invalid time is
 * not one); false: none was queued.
 */
export function addLocationSample(
  writes: UploadWrites,
  record: RecordRow,
  latitude: number | undefined,
  longitude: number | undefined,
  timestamp: Date,
  extra: { frameId?: string | undefined; temperature?: number | null } = {},
): boolean {
  if (latitude === undefined || longitude === undefined) return false;
  if (!Number.isFinite(timestamp.getTime()) || !isKnownPosition({ latitude, longitude })) {
    return false;
  }
  writes.addSample({
    organizationId: record.organizationId,
    recordId: record.id,
    tagId: record.tagId,
    latitude,
    longitude,
    timestamp,
    frameId: extra.frameId ?? null,
    temperature: extra.temperature ?? null,
  });
  return true;
}

/** An action row: queued in the upload's unit of work when given, else written now. */
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
    writes.addAction(values);
  } else {
    await repo.insertAction(tx, values);
  }
}

// ---------------------------------------------------------------- scans

/**
 * A scan row (the tag's report), with the summary of the points it carried
 * (not of the whole record): highest, lowest, mean kinetic and latest
 * temperature, time beyond the scan's own thresholds, and its alarm status
 * (as the tag reported it, else whether the record's alarm rules find an
 * excursion in these points). `points.temps`: the points of the scan that
 * belong to the record (none after its stop), from `points.offset`.
 */
export function scanRow(
  upload: Pick<Upload, 'caller' | 'timestamp'> & { key: string },
  record: RecordRow,
  tag: TagRef,
  scan: DecodedScan,
  points: { offset: number; temps: readonly SeriesValue[] },
): typeof scans.$inferInsert {
  const { temps } = points;
  const { highThreshold, lowThreshold } = scan.reported;
  const series = seriesOf(record, temps);
  const shifted = {
    ...series,
    startTimeSeconds: series.startTimeSeconds + points.offset * series.intervalSeconds,
  };
  const summary = temperatureSummary(shifted);
  const detected = detectExcursions(shifted, {
    ...thresholdsOf(record),
    high_threshold: highThreshold ?? null,
    low_threshold: lowThreshold ?? null,
  });
  return {
    highestRecordedTemp: summary.highest_recorded_temperature,
    lowestRecordedTemp: summary.lowest_recorded_temperature,
    meanKineticTemp: summary.mean_kinetic_temp,
    latestTemp: temps.at(-1) ?? null,
    excursionDurationAbove: timeBeyond(shifted, highThreshold ?? null, 'ABOVE'),
    excursionDurationBelow: timeBeyond(shifted, lowThreshold ?? null, 'BELOW'),
    numberOfPoints: summary.number_of_points,
    status: scan.status ?? (detected.length > 0 ? 'Alarm' : 'OK'),
    organizationId: upload.caller.organizationId,
    recordId: record.id,
    tagId: tag.id,
    tagSerialNumber: tag.serialNumber,
    timestamp: upload.timestamp,
    createdByUserId: upload.caller.userId,
    ...scan.reported,
    tempsOffsetIndex: points.offset,
    tempsLength: temps.length,
    uploadKey: upload.key,
  };
}
