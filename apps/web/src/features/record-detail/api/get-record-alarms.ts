import { xt1Alarms, type TExcursionAlarm } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { livePollMs } from '../../../lib/live-updates';
import { recordDetailKeys } from './query-keys';

/**
 * GET /api/devices/xt1/alarms/ with include_acknowledged, include_dismissed
 * and include_closed true (spec section 4): every alarm of the record, open
 * and closed (an alarm is never deleted), newest first.
 */
export function getRecordAlarms(
  recordId: string,
  signal?: AbortSignal,
): Promise<TExcursionAlarm[]> {
  return callApi(xt1Alarms, {
    query: {
      record_id: recordId,
      include_acknowledged: true,
      include_dismissed: true,
      include_closed: true,
    },
    signal,
  });
}

export function recordAlarmsQueryOptions(recordId: string) {
  return queryOptions({
    queryKey: recordDetailKeys.alarms(recordId),
    queryFn: ({ signal }) => getRecordAlarms(recordId, signal),
  });
}

/** `live`: the record runs, the alarms are asked again every few seconds. */
export function useRecordAlarms(recordId: string, enabled = true, live = false) {
  return useQuery({
    ...recordAlarmsQueryOptions(recordId),
    enabled,
    refetchInterval: live ? livePollMs() : false,
  });
}
