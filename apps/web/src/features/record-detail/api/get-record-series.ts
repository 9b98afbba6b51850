import { aggregateRecordSeries, type TRecordSeries } from '@coldtrace/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { livePollMs } from '../../../lib/live-updates';
import { recordDetailKeys } from './query-keys';

/**
 * GET /api/devices/aggregate/record-series/: the record's compact series for
 * the chart (docs/decisions/compact-series.md): the overview reduced to the
 * chart's pixel columns (`width`), a zoom window (`from`/`to`, ISO 8601) at
 * full resolution once it holds few enough points, or every point (no width).
 */
export interface SeriesWindow {
  width?: number;
  from?: string;
  to?: string;
}

export async function getRecordSeries(
  recordId: string,
  window: SeriesWindow,
  signal?: AbortSignal,
): Promise<TRecordSeries> {
  return callApi(aggregateRecordSeries, { query: { record_id: recordId, ...window }, signal });
}

export function recordSeriesQueryOptions(recordId: string, window: SeriesWindow) {
  return queryOptions({
    queryKey: recordDetailKeys.series(recordId, window),
    queryFn: ({ signal }) => getRecordSeries(recordId, window, signal),
  });
}

/**
 * The series of `window`; null: not asked (the query stays idle). `live`: the
 * record runs, the series is asked again every few seconds (an unchanged one
 * comes from the server's cache of reduced replies).
 */
export function useRecordSeries(recordId: string, window: SeriesWindow | null, live = false) {
  return useQuery({
    ...recordSeriesQueryOptions(recordId, window ?? {}),
    enabled: window !== null,
    refetchInterval: live ? livePollMs() : false,
    // A new zoom keeps the window shown until its own arrives.
    placeholderData:
      window?.from !== undefined || window?.to !== undefined ? keepPreviousData : undefined,
  });
}
