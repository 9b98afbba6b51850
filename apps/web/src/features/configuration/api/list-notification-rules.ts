import { notificationRulesList, type TNotificationRule } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';

/** GET /api/notifications/rules/: the organization's notification rules, by name. */
export function listNotificationRules(signal?: AbortSignal): Promise<TNotificationRule[]> {
  return callApi(notificationRulesList, { signal });
}

export function notificationRulesQueryOptions() {
  return queryOptions({
    queryKey: notificationKeys.rules,
    queryFn: ({ signal }) => listNotificationRules(signal),
  });
}

export function useNotificationRules() {
  return useQuery(notificationRulesQueryOptions());
}
