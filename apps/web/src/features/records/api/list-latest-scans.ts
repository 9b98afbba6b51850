import { xt1RecordScans, type TScan } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { recordsKeys } from './query-keys';

/**
 * GET /api/devices/xt1/records/scans/?latest=true: the latest scan of each
 * record. A record's last temperature is its latest scan's `latest_temp`
 * (the record itself does not carry one).
 */
export function listLatestScans(recordIds: readonly string[], signal?: AbortSignal) {
  return callApi(xt1RecordScans, { query: { record_ids: [...recordIds], latest: true }, signal });
}

export function latestScansQueryOptions(recordIds: readonly string[]) {
  return queryOptions({
    queryKey: recordsKeys.latestScans(recordIds),
    queryFn: ({ signal }) => listLatestScans(recordIds, signal),
    enabled: recordIds.length > 0,
  });
}

/** Record id -> the latest scan's last temperature (°C), for the given records. */
export function lastTemperatures(scans: readonly TScan[]): Map<string, number> {
  const result = new Map<string, number>();
  for (const scan of scans) {
    if (scan.record != null && typeof scan.latest_temp === 'number' && !result.has(scan.record)) {
      result.set(scan.record, scan.latest_temp);
    }
  }
  return result;
}

export function useLatestScans(recordIds: readonly string[]) {
  return useQuery(latestScansQueryOptions(recordIds));
}
