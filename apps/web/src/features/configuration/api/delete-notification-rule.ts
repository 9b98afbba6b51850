import { notificationRulesDelete } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';

/** DELETE /api/notifications/rules/?rule_id= (204). */
export async function deleteNotificationRule(ruleId: string): Promise<void> {
  await callApi(notificationRulesDelete, { query: { rule_id: ruleId } });
}

/** Deletes a rule, then refreshes the list. */
export function useDeleteNotificationRule() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNotificationRule,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.rules }),
  });
}
