import { sql, type SQL } from 'drizzle-orm';
import type { SeriesValue } from '@coldtrace/domain';
import type { Db } from '../../db/client';
import {
  alarms,
  locationSamples,
  recordActions,
  scans,
  type AlarmRow,
} from '../../db/schema-shipments';
import { recordAggregates } from '../../db/schema-aggregates';
import { fromDriverRow } from '../../db/driver-row';
import { chunkListSql, parseChunkList } from '../../kernel/series-store';

/**
 * A record's series and location samples as the recomputation reads them
 * (its whole state in one round trip), and the location samples an upload
 * writes.
 */

/**
 * A location sample, as a statement for a write batch; the same position at
 * the same time of the same record is kept once.
 */
export function insertLocationSampleSql(db: Db, values: typeof locationSamples.$inferInsert): SQL {
  return db.insert(locationSamples).values(values).onConflictDoNothing().getSQL();
}

/** A location sample as the recomputation uses it. */
export interface SamplePoint {
  latitude: number;
  longitude: number;
  timestamp: Date;
}

/**
 * What the recomputation of a record reads, as stored: its series chunks
 * (all), location samples (by time, then id), alarms (by id), latest scan and
 * latest action time.
 */
export interface RecordState {
  chunks: Map<number, SeriesValue[]>;
  samples: SamplePoint[];
  /** The open alarms (closed ones are evidence: re-evaluation never touches them). */
  alarms: AlarmRow[];
  lastScan: { timestamp: Date; userId: string | null } | undefined;
  lastActionAt: Date | null;
  /**
   * The record's running aggregates as stored (`record_aggregates.state`, the
   * domain's `RunningAggregates`; null: none yet): see aggregates.ts.
   */
  aggregates: unknown;
  /**
   * Whether `chunks` holds every stored chunk (else only those of the range
   * asked for: an append needs no more; a full recompute reads the rest).
   */
  chunksComplete: boolean;
}

/** The state of a record that has nothing stored yet (created in this transaction). */
export function emptyRecordState(): RecordState {
  return {
    chunks: new Map(),
    samples: [],
    alarms: [],
    lastScan: undefined,
    lastActionAt: null,
    aggregates: null,
    chunksComplete: true,
  };
}

/** Chunk numbers `fromChunk`..`toChunk` of a record (an upload's points). */
export interface ChunkRange {
  fromChunk: number;
  toChunk: number;
}

const asDate = (v: string | Date | null | undefined): Date | null =>
  v == null ? null : v instanceof Date ? v : new Date(v);

/**
 * The {@link RecordState} of a record in one round trip. `knownChunks`:
 * chunks the caller holds already (merged in this transaction), not read.
 * `chunkRange`: read only those chunks (the ones an upload's points touch),
 * when the record has running aggregates to fold them into; without
 * aggregates every chunk is read (the recomputation will need them all).
 */
export async function loadRecordState(
  db: Db,
  recordId: number,
  knownChunks?: ReadonlyMap<number, SeriesValue[]>,
  chunkRange?: ChunkRange,
): Promise<RecordState> {
  const except = knownChunks ? [...knownChunks.keys()] : [];
  const chunkList = chunkListSql(recordId, except);
  const chunkSql = chunkRange
    ? sql`case when ${aggregatesSql(recordId)} is null then ${chunkList}
        else ${chunkListSql(recordId, except, chunkRange)} end`
    : chunkList;
  const result = await db.execute<{
    chunks: string | null;
    samples: [number, number, string][] | null;
    alarms: Record<string, unknown>[] | null;
    scan_at: string | Date | null;
    scan_user: string | null;
    action_at: string | Date | null;
    aggregates: unknown;
  }>(sql`
    select ${chunkSql} as chunks, ${aggregatesSql(recordId)} as aggregates,
      (select json_agg(json_build_array(l.latitude, l.longitude, l.timestamp)
                       order by l.timestamp, l.id)
         from ${locationSamples} l where l.record_id = ${recordId}) as samples,
      (select json_agg(a order by a.id) from ${alarms} a
        where a.record_id = ${recordId} and a.state = 'OPEN') as alarms,
      s.timestamp as scan_at, s.created_by_user_id as scan_user,
      (select max(a.timestamp) from ${recordActions} a where a.record_id = ${recordId}) as action_at
    from (select 1) one
    left join lateral (
      select timestamp, created_by_user_id from ${scans}
      where record_id = ${recordId}
      order by timestamp desc, id desc limit 1
    ) s on true`);
  const row = result.rows[0]!;
  const chunks = parseChunkList(row.chunks);
  for (const [chunkNo, values] of knownChunks ?? []) chunks.set(chunkNo, values);
  const scanAt = asDate(row.scan_at);
  return {
    chunks,
    samples: (row.samples ?? []).map(([latitude, longitude, timestamp]) => ({
      latitude,
      longitude,
      timestamp: new Date(timestamp),
    })),
    alarms: (row.alarms ?? []).map((a) => fromDriverRow(alarms, a)),
    lastScan: scanAt ? { timestamp: scanAt, userId: row.scan_user ?? null } : undefined,
    lastActionAt: asDate(row.action_at),
    aggregates: row.aggregates ?? null,
    chunksComplete: chunkRange === undefined || row.aggregates == null,
  };
}

/** The record's stored running aggregates (a scalar subquery; null: none). */
function aggregatesSql(recordId: number): SQL {
  return sql`(select state from ${recordAggregates} where record_id = ${recordId})`;
}

/**
 * The write of a record's running aggregates (insert or replace), for the
 * upload's write batch.
 */
export function upsertAggregatesSql(organizationId: string, recordId: number, state: unknown): SQL {
  return sql`insert into ${recordAggregates} (record_id, organization_id, state)
    values (${recordId}, ${organizationId}, ${JSON.stringify(state)}::jsonb)
    on conflict (record_id) do update set state = excluded.state`;
}
