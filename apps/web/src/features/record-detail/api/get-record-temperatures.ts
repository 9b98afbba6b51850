import { aggregateRecordTemperatures, type TTripTemperatures } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { recordDetailKeys } from './query-keys';

/**
 * GET /api/devices/aggregate/record-temperatures/: the record's series (gaps
 * left out), thresholds and trip times. Answers one item for the one record.
 */
export async function getRecordTemperatures(
  recordId: string,
  signal?: AbortSignal,
): Promise<TTripTemperatures[]> {
  return callApi(aggregateRecordTemperatures, { query: { record_ids: [recordId] }, signal });
}

export function recordTemperaturesQueryOptions(recordId: string) {
  return queryOptions({
    queryKey: recordDetailKeys.temperatures(recordId),
    queryFn: ({ signal }) => getRecordTemperatures(recordId, signal),
    select: (items) => items.find((item) => item.record_id === recordId) ?? null,
  });
}

export function useRecordTemperatures(recordId: string, enabled = true) {
  return useQuery({ ...recordTemperaturesQueryOptions(recordId), enabled });
}
