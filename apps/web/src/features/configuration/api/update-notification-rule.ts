import {
  notificationRulesUpdate,
  type CallBody,
  type TNotificationRule,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';

export interface UpdateNotificationRuleArgs {
  ruleId: string;
  body: CallBody<typeof notificationRulesUpdate>;
}

/** PATCH /api/notifications/rules/?rule_id=. */
export function updateNotificationRule({
  ruleId,
  body,
}: UpdateNotificationRuleArgs): Promise<TNotificationRule> {
  return callApi(notificationRulesUpdate, { query: { rule_id: ruleId }, body });
}

/** Edits a rule, then refreshes the list. */
export function useUpdateNotificationRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationRule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.rules }),
  });
}
