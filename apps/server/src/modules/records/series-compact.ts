import { aggregateRecordSeries, type TRecordSeries } from '@coldtrace/contract';
import { effectiveInterval, reduceSeries, type SeriesValue } from '@coldtrace/domain';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import type { RecordRow } from '../../db/schema-shipments';
import { registerCall } from '../../http/register-call';
import { invalidField, notFound } from '../../kernel/errors';
import { parseRowId } from '../../kernel/ids';
import { parseRealArray, readSeries, SERIES_CHUNK_SIZE } from '../../kernel/series-store';
import { parseInstantRange } from './iso-range';
import { findRecordRow } from './lookups';
import { iso, secondsIso } from './presenter';

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

/** The reply of {@link aggregateRecordSeries} for the organization's record. */
export async function recordSeries(
  db: Database,
  organizationId: string,
  query: SeriesQuery,
): Promise<TRecordSeries> {
  const from = query.from === undefined ? null : instantOf(query.from, 'from', false);
  const to = query.to === undefined ? null : instantOf(query.to, 'to', true);
  if (from !== null && to !== null && from >= to) {
    throw invalidField('to', 'must be after from');
  }
  const id = parseRowId(query.record_id);
  const record: RecordRow | undefined =
    id === undefined ? undefined : await findRecordRow(db, organizationId, id);
  if (!record) throw notFound(`Record '${query.record_id}'`, 'record_id');

  const interval = effectiveInterval({
    measurement_interval: record.measurementInterval,
    calculated_measurement_interval: record.calculatedMeasurementInterval,
  });
  const firstPoint =
    record.startTimeSeconds === null || interval === null
      ? null
      : record.startTimeSeconds + record.startDelay;

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
    query.width === undefined
      ? null
      : reduceSeries(temps, {
          width: query.width,
          high: record.highThreshold,
          low: record.lowThreshold,
        });

  const reply: TRecordSeries = {
    record_id: String(record.id),
    start_time: record.startTimeSeconds === null ? null : secondsIso(record.startTimeSeconds),
    first_point_time: firstPoint === null ? null : secondsIso(firstPoint),
    interval_seconds: interval,
    length,
    point_count: pointCount,
    from_index: fromIndex,
    to_index: fromIndex + temps.length - 1,
    reduced: reduction?.reduced ?? false,
    bucket_size: reduction?.bucketSize ?? 1,
    temperatures: reduction?.values ?? temps,
    high_threshold: record.highThreshold,
    low_threshold: record.lowThreshold,
    cumulative_high_threshold: record.cumulativeHighThreshold,
    cumulative_low_threshold: record.cumulativeLowThreshold,
    trip_begin_time: iso(record.tripBeginTime),
    trip_end_time: iso(record.tripEndTime),
  };
  if (reduction?.indices) reply.indices = reduction.indices.map((i) => i + fromIndex);
  return reply;
}

/** Registers the call (one line in routes.ts). */
export function registerRecordSeries(app: FastifyInstance): void {
  registerCall(app, aggregateRecordSeries, async ({ query, organizationId }) =>
    recordSeries(app.db, organizationId(), query),
  );
}
