import { notificationLogList, type TNotificationLogEntry } from '@coldtrace/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApiWithTotal } from '../../../lib/api-client';
import { notificationKeys } from './notification-keys';

/** Entries per page of the log on the Configuration page. */
export const NOTIFICATION_LOG_PAGE_SIZE = 25;

export interface NotificationLogPage {
  entries: TNotificationLogEntry[];
  total: number;
}

/** GET /api/notifications/log/: one page of the notification log, newest first (page is 1-based). */
export async function listNotificationLog(
  page: number,
  signal?: AbortSignal,
): Promise<NotificationLogPage> {
  const { data, totalCount } = await callApiWithTotal(notificationLogList, {
    query: { page_number: page, page_size: NOTIFICATION_LOG_PAGE_SIZE },
    signal,
  });
  return { entries: data, total: totalCount ?? data.length };
}

export function notificationLogQueryOptions(page: number) {
  return queryOptions({
    queryKey: [...notificationKeys.log, page] as const,
    queryFn: ({ signal }) => listNotificationLog(page, signal),
    placeholderData: keepPreviousData,
  });
}

/** The entries of one page (the list) ... */
export function useNotificationLogEntries(page: number) {
  return useQuery({ ...notificationLogQueryOptions(page), select: (data) => data.entries });
}

/** ... and the number of entries in the whole log (the pages), from the same request. */
export function useNotificationLogTotal(page: number): number | undefined {
  return useQuery({ ...notificationLogQueryOptions(page), select: (data) => data.total }).data;
}
