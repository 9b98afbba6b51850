import {
  xt1RecordDisposition,
  xt1RecordDispositions,
  type TDispositionDecision,
  type TRecord,
} from '@coldtrace/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CLIENT_TYPE, callApi } from '../../../lib/api-client';
import { recordsKeys } from '../../records';
import { recordDetailKeys } from './query-keys';

/** A record's signed release decisions, newest first (the first is the current one). */
export const dispositionsKey = (recordId: string) =>
  [...recordDetailKeys.record(recordId), 'dispositions'] as const;

export function useRecordDispositions(recordId: string) {
  return useQuery({
    queryKey: dispositionsKey(recordId),
    queryFn: ({ signal }) =>
      callApi(xt1RecordDispositions, { query: { record_id: recordId }, signal }),
  });
}

export interface DecideInput {
  recordId: string;
  decision: TDispositionDecision;
  comment: string;
  password: string;
  /** Why it is released before the trip has ended (only then, when the organization allows it). */
  transit_reason?: string;
  /** The authenticator code or a recovery code, when given (issue 37 item 7). */
  second_factor_code?: string;
}

/**
 * POST /api/devices/xt1/records/disposition/ (client type WEB; no meaning:
 * it follows from the decision); the reply is
 * the record as it is now: it replaces the cached one, then the history, the
 * audit trail and the record lists reload.
 */
export function useDecideDisposition() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ recordId, ...body }: DecideInput): Promise<TRecord> =>
      callApi(xt1RecordDisposition, {
        body: { record_id: recordId, client_type: CLIENT_TYPE, ...body },
      }),
    onSuccess: async (record, { recordId }) => {
      queryClient.setQueryData(recordDetailKeys.record(recordId), record);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: dispositionsKey(recordId) }),
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.audit(recordId) }),
        queryClient.invalidateQueries({ queryKey: recordsKeys.all }),
      ]);
    },
  });
}
