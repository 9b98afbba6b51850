import { notificationSettingsList, type TNotificationSetting } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';

/** GET /api/notifications/settings/: the organization's product / carrier notification settings. */
export function listNotificationSettings(signal?: AbortSignal): Promise<TNotificationSetting[]> {
  return callApi(notificationSettingsList, { signal });
}

export function notificationSettingsQueryOptions() {
  return queryOptions({
    queryKey: notificationKeys.settings,
    queryFn: ({ signal }) => listNotificationSettings(signal),
  });
}

export function useNotificationSettings() {
  return useQuery(notificationSettingsQueryOptions());
}
