import { NOTIFICATIONS_PAGE_SIZE, xt1Notifications, type TNotification } from '@coldtrace/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApiWithTotal } from '../../../lib/api-client';
import { livePollMs } from '../../../lib/live-updates';
import { notificationsKeys } from './query-keys';

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

/**
 * The bell asks again every 10 seconds (`livePollMs`), so a new alarm shows
 * within 15 (the fan-out job runs within a few seconds of the upload;
 * docs/decisions/live-records.md). TanStack Query pauses the polling while the
 * tab is hidden and asks again when it comes back.
 */
export function notificationsQueryOptions() {
  return queryOptions({
    queryKey: notificationsKeys.all,
    queryFn: ({ signal }) => getNotifications(signal),
    refetchInterval: livePollMs(),
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: true,
  });
}

export function useNotifications(enabled: boolean) {
  return useQuery({ ...notificationsQueryOptions(), enabled });
}
