import { mergeSlice, type SeriesValue } from '@coldtrace/domain';
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';

/**
 * The temperature series of a record, stored compactly (domain rules section 1):
 * chunks of SERIES_CHUNK_SIZE points as `real[]` (°C, NULL for a gap), keyed by
 * (record_id, chunk_no). Point i lives in chunk floor(i / SIZE) at i % SIZE.
 *
 * The chunks are read and written with plain SQL and a hand-written codec for
 * the array text (`{5.1,NULL,...}`): an upload of 100,000 points touches 98
 * chunks, and the ORM's per-element mapping and the generic array parser were
 * most of an upload's time (bench/ingest.ts). All the changed chunks of an
 * upload are written by one statement.
 */
export const SERIES_CHUNK_SIZE = 1024;

/**
 * Decimals of a temperature (°C) as the series keeps it. A `real` (float4)
 * tells apart every value of 4 decimals over the accepted range (-100 to
 * 200 °C: its spacing there is at most 2^-16, about 0.000015) but not of 5,
 * so digits beyond the fourth are float noise (5.119992 for 5.12). Points
 * are stored at 4 decimals, and every temperature a reply carries, and the
 * values computed from them (degree-minutes, mean kinetic temperature), are
 * rounded to it ({@link roundStored}).
 */
export const STORED_DECIMALS = 4;
const SCALE = 10 ** STORED_DECIMALS;

/**
 * A number rounded to {@link STORED_DECIMALS} decimals (half away from zero),
 * as the shortest decimal of that many digits at most (55.2 for
 * 55.199999999999996). Not a finite number of sensible size: unchanged.
 */
export function roundStored(v: number): number {
  if (!Number.isFinite(v) || Math.abs(v) >= 1e11) return v;
  const scaled = Math.abs(v) * SCALE;
  // The nearest double of a decimal may sit just below its half: nudge by a relative epsilon.
  const rounded = (Math.sign(v) * Math.round(scaled * (1 + Number.EPSILON))) / SCALE;
  return Object.is(rounded, -0) ? 0 : rounded;
}

/** Stored and offered values compare as the series keeps them (4 decimals of a float4). */
const asStored = (v: SeriesValue): SeriesValue => (v === null ? null : asFloat4Decimal(v));

/**
 * A value as the series keeps it: the float4 PostgreSQL stores, as the
 * shortest decimal that reads back as it (`5.1`, not 5.099999904632568),
 * rounded to {@link STORED_DECIMALS} decimals. Values the store hands out
 * (read back, or merged and kept for the recomputation in the same
 * transaction) all pass through here, so they agree whichever way they came.
 */
const shortest = new Map<number, number>();
export function asFloat4Decimal(v: number): number {
  const f = Math.fround(v);
  let out = shortest.get(f);
  if (out === undefined) {
    out = f;
    for (let digits = 1; digits <= 9; digits++) {
      const candidate = Number(f.toPrecision(digits));
      if (Math.fround(candidate) === f) {
        out = candidate;
        break;
      }
    }
    out = roundStored(out);
    if (shortest.size > 100_000) shortest.clear();
    shortest.set(f, out);
  }
  return out;
}

/** Parses PostgreSQL's text form of a one-dimensional `real[]`. */
export function parseRealArray(text: string): SeriesValue[] {
  if (text.length <= 2) return [];
  const parts = text.slice(1, -1).split(',');
  const out = new Array<SeriesValue>(parts.length);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    out[i] = part === 'NULL' ? null : asFloat4Decimal(Number(part));
  }
  return out;
}

/** The text form of a `real[]` (PostgreSQL rounds each value to float4). */
export function formatRealArray(values: readonly SeriesValue[]): string {
  let out = '{';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) out += ',';
    const v = values[i];
    out += v == null || !Number.isFinite(v) ? 'NULL' : String(v);
  }
  return `${out}}`;
}

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
  /**
   * The chunks the upload touched, as they are now stored (values as
   * {@link readSeries} would answer them): a recomputation in the same
   * transaction need not read them again.
   */
  chunks: Map<number, SeriesValue[]>;
}

/** Chunks of a record (all, or chunk numbers from..to), parsed. */
export async function readChunks(
  db: Db,
  recordId: number,
  range?: { fromChunk: number; toChunk: number },
  skip?: ReadonlyMap<number, unknown>,
): Promise<Map<number, SeriesValue[]>> {
  const where = range
    ? sql`record_id = ${recordId} and chunk_no between ${range.fromChunk} and ${range.toChunk}`
    : sql`record_id = ${recordId}`;
  // Chunks the caller has already: leave them out (never more than a record's 98 numbers).
  const known = skip && skip.size > 0 ? [...skip.keys()] : [];
  const exclude =
    known.length > 0 ? sql` and chunk_no <> all(${`{${known.join(',')}}`}::int[])` : sql``;
  const result = await db.execute<{ chunk_no: number; temps: string }>(
    sql`select chunk_no, temps::text as temps from record_series_chunks where ${where}${exclude}`,
  );
  const chunks = new Map<number, SeriesValue[]>();
  for (const row of result.rows) chunks.set(Number(row.chunk_no), parseRealArray(row.temps));
  return chunks;
}

/** Chunks laid end to end (missing chunks are gaps); trailing gaps dropped. */
export function assembleSeries(chunks: ReadonlyMap<number, readonly SeriesValue[]>): SeriesValue[] {
  const numbers = [...chunks.keys()].sort((a, b) => a - b);
  const out: SeriesValue[] = [];
  for (const chunkNo of numbers) {
    const base = chunkNo * SERIES_CHUNK_SIZE;
    while (out.length < base) out.push(null);
    for (const v of chunks.get(chunkNo)!) out.push(v);
  }
  while (out.length > 0 && out[out.length - 1] === null) out.pop();
  return out;
}

/**
 * Reads the whole series (or points [from, to]) of a record; missing chunks are
 * gaps. `known`: chunks the caller holds already (from a merge
 * in the same transaction), used instead of reading them.
 */
export async function readSeries(
  db: Db,
  recordId: number,
  range?: { from: number; to: number },
  known?: ReadonlyMap<number, SeriesValue[]>,
): Promise<SeriesValue[]> {
  const chunkRange = range
    ? {
        fromChunk: Math.floor(range.from / SERIES_CHUNK_SIZE),
        toChunk: Math.floor(range.to / SERIES_CHUNK_SIZE),
      }
    : undefined;
  const chunks = await readChunks(db, recordId, chunkRange, known);
  for (const [chunkNo, values] of known ?? []) {
    if (!chunkRange || (chunkNo >= chunkRange.fromChunk && chunkNo <= chunkRange.toChunk)) {
      chunks.set(chunkNo, values);
    }
  }
  // Assembled at absolute indices (missing chunks before the range are gaps).
  const out = assembleSeries(chunks);
  return range ? out.slice(range.from, range.to + 1) : out;
}

/** A merge decided in memory (see {@link planMerge}); `write` stores it. */
export interface MergePlan extends MergeResult {
  /** The statement that writes the changed chunks (one INSERT ... ON CONFLICT), or null: nothing changed. */
  write: SQL | null;
  /**
   * The lowest and highest index that gained a value (null: none). An upload
   * whose points all lie at or after the series' end appends; one that fills
   * a gap before it changes the past (docs/decisions/incremental-recompute.md).
   */
  firstAdded: number | null;
  lastAdded: number | null;
}

/**
 * Merges `temps` starting at `offset` into the chunks `stored` (merge by
 * index: gaps are filled, an existing point keeps its first value, a
 * conflicting one is reported), in memory: `stored` must hold every stored
 * chunk the points touch (a chunk absent from it is taken as never stored).
 * Answers the merge and the statement that writes the changed chunks, for the
 * caller to run in the transaction that holds the record's row lock.
 */
export function planMerge(
  organizationId: string,
  recordId: number,
  stored: ReadonlyMap<number, readonly SeriesValue[]>,
  offset: number,
  temps: readonly SeriesValue[],
): MergePlan {
  if (temps.length === 0) {
    return {
      added: 0,
      conflicts: [],
      chunks: new Map(),
      write: null,
      firstAdded: null,
      lastAdded: null,
    };
  }
  const firstChunk = Math.floor(offset / SERIES_CHUNK_SIZE);
  const lastChunk = Math.floor((offset + temps.length - 1) / SERIES_CHUNK_SIZE);
  let added = 0;
  let firstAdded: number | null = null;
  let lastAdded: number | null = null;
  const conflicts: SeriesConflict[] = [];
  const changed: { chunkNo: number; temps: SeriesValue[] }[] = [];
  const chunks = new Map<number, SeriesValue[]>();
  for (let chunkNo = firstChunk; chunkNo <= lastChunk; chunkNo++) {
    const base = chunkNo * SERIES_CHUNK_SIZE;
    const existing = stored.get(chunkNo);
    const from = Math.max(offset, base);
    const to = Math.min(offset + temps.length, base + SERIES_CHUNK_SIZE);
    let values: SeriesValue[];
    let chunkAdded = 0;
    if (existing === undefined || existing.length === 0) {
      // Nothing stored here (a new record's chunks): the offered values as stored, no conflicts.
      values = new Array<SeriesValue>(to - base).fill(null);
      for (let i = from; i < to; i++) {
        const v = temps[i - offset];
        if (v == null || !Number.isFinite(v)) continue;
        values[i - base] = asFloat4Decimal(v);
        chunkAdded++;
        firstAdded ??= i;
        lastAdded = i;
      }
    } else {
      const slice = temps.slice(from - offset, to - offset).map(asStored);
      const merged = mergeSlice(existing, from - base, slice);
      chunkAdded = merged.added;
      for (const c of merged.conflicts) {
        if (asStored(c.offered) === asStored(c.kept)) continue;
        conflicts.push({ index: base + c.index, kept: c.kept, offered: c.offered });
      }
      values = merged.temps.map((v) => (v === null ? null : asFloat4Decimal(v)));
      if (merged.added > 0) {
        // The gaps the slice filled: the first and last offered values where nothing was stored.
        for (let i = from; i < to; i++) {
          const was = existing[i - base];
          if ((was == null || !Number.isFinite(was)) && values[i - base] != null) {
            firstAdded ??= i;
            lastAdded = i;
          }
        }
      }
    }
    added += chunkAdded;
    if (chunkAdded > 0) changed.push({ chunkNo, temps: values });
    // A chunk that was never stored and got no value stays absent (as a read would find it).
    if (existing !== undefined || chunkAdded > 0) chunks.set(chunkNo, values);
  }
  return {
    added,
    conflicts,
    chunks,
    write: chunksWrite(organizationId, recordId, changed),
    firstAdded,
    lastAdded,
  };
}

/** One statement writing chunks (insert or replace). */
function chunksWrite(
  organizationId: string,
  recordId: number,
  changed: readonly { chunkNo: number; temps: readonly SeriesValue[] }[],
): SQL | null {
  if (changed.length === 0) return null;
  // Two array parameters (text; drizzle would spread a JS array into a list).
  const numbers = `{${changed.map((c) => c.chunkNo).join(',')}}`;
  const arrays = `{${changed.map((c) => `"${formatRealArray(c.temps)}"`).join(',')}}`;
  return sql`
    insert into record_series_chunks (record_id, chunk_no, organization_id, temps)
    select ${recordId}, c.chunk_no, ${organizationId}, c.temps::real[]
    from unnest(${numbers}::int[], ${arrays}::text[]) as c(chunk_no, temps)
    on conflict (record_id, chunk_no) do update set temps = excluded.temps`;
}

/**
 * Chunks as `chunk_no=temps` pairs joined by `;` (what {@link chunkListSql}
 * selects: one text value carries a record's whole series in a combined read).
 */
export function parseChunkList(text: string | null): Map<number, SeriesValue[]> {
  const chunks = new Map<number, SeriesValue[]>();
  if (!text) return chunks;
  for (const part of text.split(';')) {
    const eq = part.indexOf('=');
    chunks.set(Number(part.slice(0, eq)), parseRealArray(part.slice(eq + 1)));
  }
  return chunks;
}

/**
 * A scalar subquery: the record's chunks (but those numbered in `except`;
 * only those in `range` when given) as text for {@link parseChunkList}; null
 * when there are none.
 */
export function chunkListSql(
  recordId: number,
  except: readonly number[] = [],
  range?: { fromChunk: number; toChunk: number },
): SQL {
  const exclude =
    except.length > 0 ? sql` and chunk_no <> all(${`{${except.join(',')}}`}::int[])` : sql``;
  const within = range ? sql` and chunk_no between ${range.fromChunk} and ${range.toChunk}` : sql``;
  return sql`(select string_agg(chunk_no::text || '=' || temps::text, ';')
    from record_series_chunks where record_id = ${recordId}${within}${exclude})`;
}
