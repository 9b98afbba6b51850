import {
  notificationRulesCreate,
  type CallBody,
  type TNotificationRule,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';

export type NotificationRuleBody = CallBody<typeof notificationRulesCreate>;

/** POST /api/notifications/rules/. */
export function createNotificationRule(body: NotificationRuleBody): Promise<TNotificationRule> {
  return callApi(notificationRulesCreate, { body });
}

/** Creates a rule, then refreshes the list. */
export function useCreateNotificationRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createNotificationRule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.rules }),
  });
}
