import {
  notificationSettingsUpdate,
  type TNotificationSetting,
  type TNotificationSettingUpdate,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';

export interface UpdateNotificationSettingArgs {
  settingId: string;
  body: TNotificationSettingUpdate;
}

/** PATCH /api/notifications/settings/?setting_id=. */
export function updateNotificationSetting({
  settingId,
  body,
}: UpdateNotificationSettingArgs): Promise<TNotificationSetting> {
  return callApi(notificationSettingsUpdate, { query: { setting_id: settingId }, body });
}

/** Edits a setting, then refreshes the list. */
export function useUpdateNotificationSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationSetting,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.settings }),
  });
}
