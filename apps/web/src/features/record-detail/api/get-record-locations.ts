import { aggregateLocations, type TRecordLocation } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { recordDetailKeys } from './query-keys';

/**
 * GET /api/devices/aggregate/locations/: the record's known positions, oldest
 * first (the server never answers the -91 / -181 sentinels; the map checks again).
 */
export async function getRecordLocations(
  recordId: string,
  signal?: AbortSignal,
): Promise<TRecordLocation[]> {
  const items = await callApi(aggregateLocations, { query: { record_ids: [recordId] }, signal });
  return items.find((item) => item.record_id === recordId)?.locations ?? [];
}

export function recordLocationsQueryOptions(recordId: string) {
  return queryOptions({
    queryKey: recordDetailKeys.locations(recordId),
    queryFn: ({ signal }) => getRecordLocations(recordId, signal),
  });
}

export function useRecordLocations(recordId: string, enabled = true) {
  return useQuery({ ...recordLocationsQueryOptions(recordId), enabled });
}
