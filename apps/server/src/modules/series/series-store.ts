import { mergeSlice, type SeriesValue } from '@coldtrace/domain';
import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { recordSeriesChunks } from '../../db/schema-shipments';

/**
 * The temperature series of a record, stored compactly (domain rules section 1):
 * chunks of SERIES_CHUNK_SIZE points as `real[]` (°C, NULL for a gap), keyed by
 * (record_id, chunk_no). Point i lives in chunk floor(i / SIZE) at i % SIZE.
 */
export const SERIES_CHUNK_SIZE = 1024;

/** `real` keeps ~7 significant digits: compare stored and offered values as float4. */
const asStored = (v: SeriesValue): SeriesValue => (v === null ? null : Math.fround(v));

export interface SeriesConflict {
  index: number;
  kept: number;
  offered: number;
}

export interface MergeResult {
  /** Points that were gaps (or beyond the end) and now hold a value. */
  added: number;
  /** Points offered with a value different from the one stored: the stored one is kept. */
  conflicts: SeriesConflict[];
}

/** Reads the whole series (or points [from, to]) of a record; missing chunks are gaps. */
export async function readSeries(
  db: Db,
  recordId: number,
  range?: { from: number; to: number },
): Promise<SeriesValue[]> {
  const where = range
    ? and(
        eq(recordSeriesChunks.recordId, recordId),
        gte(recordSeriesChunks.chunkNo, Math.floor(range.from / SERIES_CHUNK_SIZE)),
        lte(recordSeriesChunks.chunkNo, Math.floor(range.to / SERIES_CHUNK_SIZE)),
      )
    : eq(recordSeriesChunks.recordId, recordId);
  const rows = await db
    .select({ chunkNo: recordSeriesChunks.chunkNo, temps: recordSeriesChunks.temps })
    .from(recordSeriesChunks)
    .where(where)
    .orderBy(asc(recordSeriesChunks.chunkNo));
  const out: SeriesValue[] = [];
  for (const row of rows) {
    const base = row.chunkNo * SERIES_CHUNK_SIZE;
    while (out.length < base) out.push(null);
    for (const v of row.temps as (number | null)[]) out.push(v);
  }
  while (out.length > 0 && out[out.length - 1] === null) out.pop();
  if (range) {
    const first = Math.floor(range.from / SERIES_CHUNK_SIZE) * SERIES_CHUNK_SIZE;
    return out.slice(range.from - first, range.to - first + 1);
  }
  return out;
}

/**
 * Merges `temps` starting at `offset` into the stored series (merge by index):
 * gaps are filled, an existing point keeps its first value, a conflicting one
 * is reported. Only the touched chunks are read and written; run it inside the
 * transaction that holds the record's row lock so concurrent uploads serialize.
 */
export async function mergeIntoSeries(
  db: Db,
  organizationId: string,
  recordId: number,
  offset: number,
  temps: readonly SeriesValue[],
): Promise<MergeResult> {
  if (temps.length === 0) return { added: 0, conflicts: [] };
  const firstChunk = Math.floor(offset / SERIES_CHUNK_SIZE);
  const lastChunk = Math.floor((offset + temps.length - 1) / SERIES_CHUNK_SIZE);
  const rows = await db
    .select({ chunkNo: recordSeriesChunks.chunkNo, temps: recordSeriesChunks.temps })
    .from(recordSeriesChunks)
    .where(
      and(
        eq(recordSeriesChunks.recordId, recordId),
        gte(recordSeriesChunks.chunkNo, firstChunk),
        lte(recordSeriesChunks.chunkNo, lastChunk),
      ),
    );
  const stored = new Map(rows.map((r) => [r.chunkNo, r.temps as (number | null)[]]));
  let added = 0;
  const conflicts: SeriesConflict[] = [];
  const changed: { chunkNo: number; temps: SeriesValue[] }[] = [];
  for (let chunkNo = firstChunk; chunkNo <= lastChunk; chunkNo++) {
    const base = chunkNo * SERIES_CHUNK_SIZE;
    const existing = stored.get(chunkNo) ?? [];
    const from = Math.max(offset, base);
    const to = Math.min(offset + temps.length, base + SERIES_CHUNK_SIZE);
    const slice = temps.slice(from - offset, to - offset).map(asStored);
    const merged = mergeSlice(existing, from - base, slice);
    added += merged.added;
    for (const c of merged.conflicts) {
      if (asStored(c.offered) === asStored(c.kept)) continue;
      conflicts.push({ index: base + c.index, kept: c.kept, offered: c.offered });
    }
    if (merged.added > 0) changed.push({ chunkNo, temps: merged.temps });
  }
  for (const chunk of changed) {
    await db
      .insert(recordSeriesChunks)
      .values({ recordId, chunkNo: chunk.chunkNo, organizationId, temps: chunk.temps as number[] })
      .onConflictDoUpdate({
        target: [recordSeriesChunks.recordId, recordSeriesChunks.chunkNo],
        set: { temps: sql`excluded.temps` },
      });
  }
  return { added, conflicts };
}
