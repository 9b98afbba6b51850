import { xt1AlarmDismiss, type TNotification } from '@coldtrace/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CLIENT_TYPE, callApi } from '../../../lib/api-client';
import type { NotificationList } from './get-notifications';
import { notificationsKeys } from './query-keys';

/**
 * POST /api/devices/xt1/alarm-dismiss/ with client type WEB, the records and
 * alarms of the notifications, and scope NOTIFICATIONS: the user's own
 * notifications go, the alarms stay for everyone else
 * (docs/decisions/notifications.md).
 */
export function dismissNotifications(items: readonly TNotification[]): Promise<unknown> {
  return callApi(xt1AlarmDismiss, {
    body: {
      client_type: CLIENT_TYPE,
      record_ids: [...new Set(items.map((n) => n.record_id!))],
      alarm_ids: items.map((n) => n.id!),
      scope: 'NOTIFICATIONS',
    },
  });
}

/** Removes the notifications from the list once the server has dismissed them (never before). */
export function useDismissNotifications() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: dismissNotifications,
    onSuccess: async (_reply, items) => {
      const gone = new Set(items.map((n) => n.id));
      queryClient.setQueryData(
        notificationsKeys.all,
        (cached: NotificationList | undefined): NotificationList | undefined =>
          cached && {
            items: cached.items.filter((n) => !gone.has(n.id)),
            total: Math.max(0, cached.total - gone.size),
          },
      );
      await queryClient.invalidateQueries({ queryKey: notificationsKeys.all });
    },
  });
}
