import { xt1RecordScans, type TScan } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { livePollMs } from '../../../lib/live-updates';
import { recordDetailKeys } from './query-keys';

/** GET /api/devices/xt1/records/scans/: the record's scans, newest first. */
export function getRecordScans(recordId: string, signal?: AbortSignal): Promise<TScan[]> {
  return callApi(xt1RecordScans, { query: { record_ids: [recordId] }, signal });
}

export function recordScansQueryOptions(recordId: string) {
  return queryOptions({
    queryKey: recordDetailKeys.scans(recordId),
    queryFn: ({ signal }) => getRecordScans(recordId, signal),
  });
}

/** `live`: the record runs, the scans are asked again every few seconds. */
export function useRecordScans(recordId: string, enabled = true, live = false) {
  return useQuery({
    ...recordScansQueryOptions(recordId),
    enabled,
    refetchInterval: live ? livePollMs() : false,
  });
}
