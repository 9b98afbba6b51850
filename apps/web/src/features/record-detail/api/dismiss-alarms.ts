import { xt1AlarmDismiss, type TExcursionAlarm } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CLIENT_TYPE, callApi } from '../../../lib/api-client';
import { notificationsKeys } from '../../notifications';
import { recordsKeys } from '../../records';
import { mergeAlarms } from '../cache-updates';
import { recordDetailKeys } from './query-keys';

export interface DismissInput {
  recordId: string;
  alarmIds: string[];
  /** Why they are dismissed (required for a dismissal for the organization). */
  reason: string;
}

/** POST /api/devices/xt1/alarm-dismiss/ with client type WEB; answers the alarms as they are now. */
export function dismissAlarms({
  recordId,
  alarmIds,
  reason,
}: DismissInput): Promise<TExcursionAlarm[]> {
  return callApi(xt1AlarmDismiss, {
    body: { client_type: CLIENT_TYPE, record_ids: [recordId], alarm_ids: alarmIds, reason },
  });
}

/**
 * Dismisses, shows the reply at once, then reloads the alarms and the record
 * (its computed status leaves dismissed alarms out).
 */
export function useDismissAlarms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dismissAlarms,
    onSuccess: async (updated, { recordId }) => {
      queryClient.setQueryData(
        recordDetailKeys.alarms(recordId),
        (cached: TExcursionAlarm[] | undefined) => mergeAlarms(cached, updated),
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.alarms(recordId) }),
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.record(recordId), exact: true }),
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.audit(recordId) }),
        // The user's own notifications of the dismissed alarms go too.
        queryClient.invalidateQueries({ queryKey: notificationsKeys.all }),
        // The record lists show the computed status.
        queryClient.invalidateQueries({ queryKey: recordsKeys.all }),
      ]);
    },
  });
}
