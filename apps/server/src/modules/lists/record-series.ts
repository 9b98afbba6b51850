import { aggregateRecordSeries, type TRecordSeries } from '@coldtrace/contract';
import { effectiveInterval, reduceSeries, type SeriesValue } from '@coldtrace/domain';
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { records, type RecordRow } from '../../db/schema-shipments';
import { registerCall } from '../../http/register-call';
import { invalidField, notFound } from '../../kernel/errors';
import { parseRowId } from '../../kernel/ids';
import { parseRealArray, readSeries, SERIES_CHUNK_SIZE } from '../../kernel/series-store';
import { iso, parseInstantRange, secondsIso } from '../records';

/**
 * GET /api/devices/aggregate/record-series/: one record's series in the
 * compact form the chart reads (issue 13, docs/decisions/compact-series.md):
 * the timing once, the temperatures as a number array, reduced on the server
 * to `width` pixel columns when long (min/max per column, excursions exact),
 * a zoom window (`from`/`to`) read from the chunks it covers only.
 */

export interface SeriesQuery {
  record_id: string;
  width?: number | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

/** Seconds of the first instant of `text`'s span, or of the first after it (`end`); 400 naming `field`. */
function instantOf(text: string, field: string, end: boolean): number {
  const span = parseInstantRange(text);
  if (span === null) {
    throw invalidField(field, 'must be an ISO 8601 date (YYYY-MM-DD) or date-time');
  }
  return (end ? span.to : span.from).getTime() / 1000;
}

/** Length of the stored series (highest index holding a value + 1), from its last chunk. */
async function storedLength(db: Database, organizationId: string, recordId: number) {
  const result = await db.execute<{ chunk_no: number; temps: string }>(
    sql`select chunk_no, temps::text as temps from record_series_chunks
        where record_id = ${recordId} and organization_id = ${organizationId}
        order by chunk_no desc limit 1`,
  );
  const last = result.rows[0];
  if (!last) return 0;
  const values = parseRealArray(last.temps);
  let end = values.length;
  while (end > 0 && values[end - 1] === null) end--;
  // A last chunk of gaps only is never written (a chunk is stored when it gets a value).
  return Number(last.chunk_no) * SERIES_CHUNK_SIZE + end;
}

/**
 * The organization's record and a version of its stored series, in one
 * query: the chunks' count and row versions (PostgreSQL's xmin, new on every
 * write of a chunk), read from the row headers only (not the arrays).
 */
async function recordWithVersion(db: Database, organizationId: string, id: number) {
  const [row] = await db
    .select({
      ...getTableColumns(records),
      seriesVersion: sql<string>`(select count(*) || ':' || coalesce(max(c.xmin::text::bigint), 0)
        || ':' || coalesce(sum(c.xmin::text::bigint), 0)
        from record_series_chunks c
        where c.record_id = ${records.id} and c.organization_id = ${records.organizationId})`,
    })
    .from(records)
    .where(and(eq(records.id, id), eq(records.organizationId, organizationId)));
  return row;
}

/** The part of a reply that comes from the stored points (the rest is the record row's). */
type SeriesPart = Pick<
  TRecordSeries,
  | 'length'
  | 'point_count'
  | 'from_index'
  | 'to_index'
  | 'reduced'
  | 'bucket_size'
  | 'indices'
  | 'temperatures'
>;

/**
 * Series parts answered lately, per app (several readers of one record's
 * chart cost one read and reduction), each under what it was computed from:
 * the record, the series version, the timing, the thresholds and the query.
 * A write to the series changes its version, so a stale part is never
 * answered. Only parts of at most {@link CACHED_VALUES} values are kept.
 */
export class SeriesCache {
  private readonly parts = new Map<string, SeriesPart>();
  constructor(private readonly capacity = 64) {}

  get(key: string): SeriesPart | undefined {
    const part = this.parts.get(key);
    if (part !== undefined) {
      // Most recently used last.
      this.parts.delete(key);
      this.parts.set(key, part);
    }
    return part;
  }

  set(key: string, part: SeriesPart): void {
    if (part.temperatures.length > CACHED_VALUES) return;
    this.parts.set(key, part);
    while (this.parts.size > this.capacity) {
      this.parts.delete(this.parts.keys().next().value!);
    }
  }
}

/** Largest part kept by {@link SeriesCache} (a reduced overview holds a few thousand). */
const CACHED_VALUES = 20_000;

/** The reply of {@link aggregateRecordSeries} for the organization's record. */
export async function recordSeries(
  db: Database,
  organizationId: string,
  query: SeriesQuery,
  cache?: SeriesCache,
): Promise<TRecordSeries> {
  const from = query.from === undefined ? null : instantOf(query.from, 'from', false);
  const to = query.to === undefined ? null : instantOf(query.to, 'to', true);
  if (from !== null && to !== null && from >= to) {
    throw invalidField('to', 'must be after from');
  }
  const id = parseRowId(query.record_id);
  const found = id === undefined ? undefined : await recordWithVersion(db, organizationId, id);
  if (!found) throw notFound(`Record '${query.record_id}'`, 'record_id');
  const { seriesVersion, ...record } = found;

  const interval = effectiveInterval({
    measurement_interval: record.measurementInterval,
    calculated_measurement_interval: record.calculatedMeasurementInterval,
  });
  const firstPoint =
    record.startTimeSeconds === null || interval === null
      ? null
      : record.startTimeSeconds + record.startDelay;

  const key = cache
    ? [
        record.id,
        seriesVersion,
        firstPoint,
        interval,
        record.highThreshold,
        record.lowThreshold,
        from,
        to,
        query.width,
      ].join('|')
    : '';
  let part = cache?.get(key);
  if (!part) {
    part = await seriesPart(
      db,
      organizationId,
      record,
      query.width,
      from,
      to,
      firstPoint,
      interval,
    );
    cache?.set(key, part);
  }
  return {
    record_id: String(record.id),
    start_time: record.startTimeSeconds === null ? null : secondsIso(record.startTimeSeconds),
    first_point_time: firstPoint === null ? null : secondsIso(firstPoint),
    interval_seconds: interval,
    ...part,
    high_threshold: record.highThreshold,
    low_threshold: record.lowThreshold,
    cumulative_high_threshold: record.cumulativeHighThreshold,
    cumulative_low_threshold: record.cumulativeLowThreshold,
    trip_begin_time: iso(record.tripBeginTime),
    trip_end_time: iso(record.tripEndTime),
  };
}

/** The stored points of the reply: read (the window's chunks only) and reduced. */
async function seriesPart(
  db: Database,
  organizationId: string,
  record: RecordRow,
  width: number | undefined,
  from: number | null,
  to: number | null,
  firstPoint: number | null,
  interval: number | null,
): Promise<SeriesPart> {
  let length: number;
  let fromIndex = 0;
  let temps: SeriesValue[];
  if (from === null && to === null) {
    temps = await readSeries(db, record.id);
    length = temps.length;
  } else {
    if (firstPoint === null || interval === null) {
      throw invalidField(
        from === null ? 'to' : 'from',
        'the record has no start time or interval yet, so its points cannot be chosen by time',
      );
    }
    length = await storedLength(db, organizationId, record.id);
    // The points whose time is in [from, to), with one neighbour either side (the line reaches the edges).
    const first = from === null ? 0 : Math.ceil((from - firstPoint) / interval) - 1;
    const last = to === null ? length - 1 : Math.ceil((to - firstPoint) / interval);
    fromIndex = Math.min(Math.max(first, 0), length);
    const toIndex = Math.min(last, length - 1);
    temps =
      toIndex < fromIndex ? [] : await readSeries(db, record.id, { from: fromIndex, to: toIndex });
    // Gaps at the window's end are gaps too (the store leaves trailing gaps out).
    while (temps.length < toIndex - fromIndex + 1) temps.push(null);
  }

  let pointCount = 0;
  for (const v of temps) if (v !== null) pointCount++;
  const reduction =
    width === undefined
      ? null
      : reduceSeries(temps, { width, high: record.highThreshold, low: record.lowThreshold });

  const part: SeriesPart = {
    length,
    point_count: pointCount,
    from_index: fromIndex,
    to_index: fromIndex + temps.length - 1,
    reduced: reduction?.reduced ?? false,
    bucket_size: reduction?.bucketSize ?? 1,
    temperatures: reduction?.values ?? temps,
  };
  if (reduction?.indices) part.indices = reduction.indices.map((i) => i + fromIndex);
  return part;
}

/** Registers the call (one line in plugin.ts). */
export function registerRecordSeries(app: FastifyInstance): void {
  const cache = new SeriesCache();
  registerCall(app, aggregateRecordSeries, async ({ query, organizationId }) =>
    recordSeries(app.db, organizationId(), query, cache),
  );
}
