import { xt1RecordActions, type TRecordAction } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { recordDetailKeys } from './query-keys';

/** GET /api/devices/xt1/records/actions/: the record's actions, oldest first. */
export function getRecordActions(recordId: string, signal?: AbortSignal): Promise<TRecordAction[]> {
  return callApi(xt1RecordActions, { query: { record_ids: [recordId] }, signal });
}

export function recordActionsQueryOptions(recordId: string) {
  return queryOptions({
    queryKey: recordDetailKeys.actions(recordId),
    queryFn: ({ signal }) => getRecordActions(recordId, signal),
  });
}

export function useRecordActions(recordId: string, enabled = true) {
  return useQuery({ ...recordActionsQueryOptions(recordId), enabled });
}
