import { notificationSettingsDelete } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';

/** DELETE /api/notifications/settings/?setting_id= (204). */
export async function deleteNotificationSetting(settingId: string): Promise<void> {
  await callApi(notificationSettingsDelete, { query: { setting_id: settingId } });
}

/** Deletes a setting, then refreshes the list. */
export function useDeleteNotificationSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteNotificationSetting,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.settings }),
  });
}
