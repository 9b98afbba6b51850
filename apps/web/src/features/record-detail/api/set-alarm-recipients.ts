import { xt1AlarmRecipients, type TAlarmRecipients } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { recordDetailKeys } from './query-keys';

export interface SetAlarmRecipientsArgs {
  recordId: string;
  recipients: string[];
}

/** POST /api/devices/xt1/alarm-recipients/: replaces the record's alarm recipients. */
export function setAlarmRecipients({
  recordId,
  recipients,
}: SetAlarmRecipientsArgs): Promise<TAlarmRecipients> {
  return callApi(xt1AlarmRecipients, {
    body: { record_id: recordId, alarm_recipients: recipients },
  });
}

/** Saves the recipients, then reloads the record and its audit trail. */
export function useSetAlarmRecipients() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAlarmRecipients,
    onSuccess: (_reply, { recordId }) =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.record(recordId), exact: true }),
        queryClient.invalidateQueries({ queryKey: recordDetailKeys.audit(recordId) }),
      ]),
  });
}
