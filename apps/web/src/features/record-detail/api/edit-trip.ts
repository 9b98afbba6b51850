import { xt1TripEdit, type TTripEditResult } from '@coldtrace/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  isChangeSignatureError,
  type ChangeSignatureBody,
} from '../../../components/change-signature';
import { callApi } from '../../../lib/api-client';
import { applyTripToCachedData } from '../cache-updates';
import { tripEditBody, type TripTimes } from '../trip-form';
import { recordDetailKeys } from './query-keys';

export interface EditTripInput {
  recordId: string;
  times: TripTimes;
  /** Reason for change, and the signature when the edit closes alarms. */
  change?: ChangeSignatureBody;
}

/** POST /api/devices/xt1/records/trips/: the reply carries the trip status. */
export function editTrip({ recordId, times, change }: EditTripInput): Promise<TTripEditResult> {
  return callApi(xt1TripEdit, {
    body: { ...tripEditBody(recordId, times, Date.now()), ...change },
  });
}

/**
 * Applies the reply's trip to every cached copy of the record: the open
 * record, the rows of any record list or search result, and the temperature
 * aggregates (queries whose data does not hold the record are left alone).
 */
export function applyTripEverywhere(
  queryClient: QueryClient,
  recordId: string,
  reply: TTripEditResult,
): void {
  for (const query of queryClient.getQueryCache().getAll()) {
    const data = query.state.data;
    if (data === undefined) continue;
    const next = applyTripToCachedData(data, recordId, reply);
    if (next !== data) queryClient.setQueryData(query.queryKey, next);
  }
}

/**
 * Spec section 4, "Editing trip times": the reply's trip goes to the open
 * record, the list rows and the aggregates, then the alarms are reloaded
 * (they were re-evaluated over the new trip window), and with them the
 * record (its status follows its alarms) and its actions (a Trip edit). A failure is only logged (section 8).
 */
export function useEditTrip() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: editTrip,
    onSuccess: async (reply, { recordId }) => {
      applyTripEverywhere(queryClient, recordId, reply);
      await queryClient.invalidateQueries({ queryKey: recordDetailKeys.alarms(recordId) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.record(recordId), exact: true }),
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.actions(recordId) }),
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.audit(recordId) }),
      ]);
    },
    onError: (error) => {
      // A request for a reason or a signature is shown by the dialog.
      if (!isChangeSignatureError(error)) console.error('Editing the trip times failed', error);
    },
  });
}
