import {
  xt1AlarmAcknowledge,
  type TExcursionAlarm,
  type TSignatureMeaning,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CLIENT_TYPE, callApi } from '../../../lib/api-client';
import { mergeAlarms } from '../cache-updates';
import { recordDetailKeys } from './query-keys';

export interface AcknowledgeInput {
  recordId: string;
  alarmIds: string[];
  comment: string;
  /** The electronic signature: the password entered again and what the signature means. */
  password: string;
  meaning: TSignatureMeaning;
  /** The authenticator code or a recovery code, when given (issue 37 item 7). */
  secondFactorCode?: string;
}

/** POST /api/devices/xt1/alarm-acknowledge/ with client type WEB; answers the alarms as they are now. */
export function acknowledgeAlarms({
  recordId,
  alarmIds,
  comment,
  password,
  meaning,
  secondFactorCode,
}: AcknowledgeInput): Promise<TExcursionAlarm[]> {
  return callApi(xt1AlarmAcknowledge, {
    body: {
      record_ids: [recordId],
      alarm_ids: alarmIds,
      comment,
      timestamp: new Date().toISOString(),
      client_type: CLIENT_TYPE,
      password,
      meaning,
      ...(secondFactorCode ? { second_factor_code: secondFactorCode } : {}),
    },
  });
}

/**
 * Acknowledges, shows the reply in the alarm list at once, then reloads the
 * alarms and the record (no page reload).
 */
export function useAcknowledgeAlarms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: acknowledgeAlarms,
    onSuccess: async (updated, { recordId }) => {
      queryClient.setQueryData(
        recordDetailKeys.alarms(recordId),
        (cached: TExcursionAlarm[] | undefined) => mergeAlarms(cached, updated),
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.alarms(recordId) }),
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.record(recordId), exact: true }),
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.audit(recordId) }),
      ]);
    },
  });
}
