import {
  xt1StatisticsFiltered,
  xt1StatisticsSummary,
  type TRecordStatistics,
} from '@coldtrace/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { livePollMs } from '../../../lib/live-updates';

export interface StatisticsRange {
  /** ISO 8601 with the zone's offset: the first minute of the first day. */
  start_date: string;
  /** ISO 8601 with the zone's offset: the last minute of the last day. */
  end_date: string;
}

/** GET records/statistics/summary/: counts over the whole organization. */
export function getStatisticsSummary(signal?: AbortSignal): Promise<TRecordStatistics> {
  return callApi(xt1StatisticsSummary, { signal });
}

/** GET records/statistics/filtered/: counts over the records created in the range. */
export function getStatisticsFiltered(
  range: StatisticsRange,
  signal?: AbortSignal,
): Promise<TRecordStatistics> {
  return callApi(xt1StatisticsFiltered, { query: range, signal });
}

export function statisticsQueryOptions(range: StatisticsRange | null) {
  const key: readonly unknown[] =
    range === null
      ? ['xt1', 'records', 'statistics', 'summary']
      : ['xt1', 'records', 'statistics', 'filtered', range];
  return queryOptions({
    queryKey: key,
    queryFn: ({ signal }) =>
      range === null ? getStatisticsSummary(signal) : getStatisticsFiltered(range, signal),
  });
}

/**
 * The summary, or the counts of a range; the previous counts stay while the
 * next load. Asked again every few seconds while the tab is visible (the
 * dashboard updates by itself: docs/decisions/live-records.md).
 */
export function useStatistics(range: StatisticsRange | null) {
  return useQuery({
    ...statisticsQueryOptions(range),
    placeholderData: keepPreviousData,
    refetchInterval: livePollMs(),
  });
}
