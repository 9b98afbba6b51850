import {
  notificationSettingsCreate,
  type TNotificationSetting,
  type TNotificationSettingCreate,
} from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';

/** POST /api/notifications/settings/. */
export function createNotificationSetting(
  body: TNotificationSettingCreate,
): Promise<TNotificationSetting> {
  return callApi(notificationSettingsCreate, { body });
}

/** Creates a setting, then refreshes the list. */
export function useCreateNotificationSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createNotificationSetting,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: notificationKeys.settings }),
  });
}
