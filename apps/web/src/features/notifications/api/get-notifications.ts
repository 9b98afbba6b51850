import { NOTIFICATIONS_PAGE_SIZE, xt1Notifications, type TNotification } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApiWithTotal } from '../../../lib/api-client';
import { notificationsKeys } from './query-keys';

/**
 * How often the bell asks for new notifications: a new alarm shows within
 * 30 seconds (the fan-out job runs within a few seconds of the upload).
 * TanStack Query pauses the polling while the tab is hidden and asks again
 * when it comes back.
 */
export const NOTIFICATIONS_POLL_MS = 15_000;

export interface NotificationList {
  items: TNotification[];
  /** Every open notification of the user (x-total-count), beyond the first 100 too. */
  total: number;
}

/** GET /api/devices/xt1/notifications/: the first 100 (spec section 9), newest first. */
export async function getNotifications(signal?: AbortSignal): Promise<NotificationList> {
  const { data, totalCount } = await callApiWithTotal(xt1Notifications, {
    query: { page_number: 1, page_size: NOTIFICATIONS_PAGE_SIZE },
    signal,
  });
  return { items: data, total: totalCount ?? data.length };
}

export function notificationsQueryOptions() {
  return queryOptions({
    queryKey: notificationsKeys.all,
    queryFn: ({ signal }) => getNotifications(signal),
    refetchInterval: NOTIFICATIONS_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
  });
}

export function useNotifications(enabled: boolean) {
  return useQuery({ ...notificationsQueryOptions(), enabled });
}
