import { xt1Record, type TRecord } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { recordPollInterval } from '../../../lib/live-updates';
import { recordDetailKeys } from './query-keys';

/** GET /api/devices/xt1/record/: the open record (404 NOT_FOUND for an unknown id). */
export function getRecord(recordId: string, signal?: AbortSignal): Promise<TRecord> {
  return callApi(xt1Record, { query: { record_id: recordId }, signal });
}

export function recordQueryOptions(recordId: string) {
  return queryOptions({
    queryKey: recordDetailKeys.record(recordId),
    queryFn: ({ signal }) => getRecord(recordId, signal),
  });
}

/** The record, asked again every few seconds while it runs (docs/decisions/live-records.md). */
export function useRecord(recordId: string) {
  return useQuery({
    ...recordQueryOptions(recordId),
    refetchInterval: (query) => recordPollInterval(query.state.data),
  });
}
