/**
 * Live updates (issue 14 item 6, docs/decisions/live-records.md): the record
 * page of a running shipment, the dashboard and the bell ask the server again
 * every {@link livePollMs} while the tab is visible (TanStack Query's
 * `refetchInterval`, paused in background tabs), so new data shows within
 * 15 seconds without a reload.
 */

/** How often a live screen asks again (10 s: new data shows within 15 s). */
export const LIVE_POLL_MS = 10_000;

/**
 * A faster interval for tests (end-to-end runs set it before the app loads),
 * never below a second: `localStorage['coldtrace.livePollMs']`.
 */
export const LIVE_POLL_STORAGE_KEY = 'coldtrace.livePollMs';
export const LIVE_POLL_MIN_MS = 1_000;

/** The interval asked for in `stored` (a number of milliseconds), else the default. */
export function pollIntervalFrom(stored: string | null | undefined): number {
  if (stored == null || stored.trim() === '') return LIVE_POLL_MS;
  const ms = Number(stored);
  if (!Number.isFinite(ms) || ms <= 0) return LIVE_POLL_MS;
  return Math.max(LIVE_POLL_MIN_MS, Math.round(ms));
}

function readStored(): string | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(LIVE_POLL_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** The interval live screens poll at. */
export function livePollMs(): number {
  return pollIntervalFrom(readStored());
}

/** What the running test needs of a record (a subset of TRecord). */
export interface LiveRecordFields {
  readonly stop_time?: string | null;
  readonly trip?: { readonly trip_status?: string | null } | null;
}

/**
 * Whether a record can still get new data: it has not been stopped (no stop
 * time: points, scans and alarms may still arrive), or its trip is in transit.
 * A stopped record that arrived is finished: its page asks once.
 */
export function isRecordLive(record: LiveRecordFields | null | undefined): boolean {
  if (!record) return false;
  if (record.stop_time == null) return true;
  return record.trip?.trip_status === 'IN_TRANSIT';
}

/** The refetch interval of a record page's queries: polling while live, else none. */
export function recordPollInterval(
  record: LiveRecordFields | null | undefined,
  interval: number = livePollMs(),
): number | false {
  return isRecordLive(record) ? interval : false;
}
