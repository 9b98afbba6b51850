import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  isRecordLive,
  LIVE_POLL_MS,
  pollIntervalFrom,
  recordPollInterval,
  type LiveRecordFields,
} from './live-updates';

describe('isRecordLive [FEAT-LIVE-RECORDS]', () => {
  it('a record without a stop time is live', () => {
    expect(isRecordLive({ stop_time: null })).toBe(true);
    expect(isRecordLive({})).toBe(true);
    expect(isRecordLive({ stop_time: null, trip: { trip_status: 'ARRIVED' } })).toBe(true);
  });

  it('a stopped record is finished unless its trip is in transit', () => {
    expect(isRecordLive({ stop_time: '2026-01-01T00:00:00Z' })).toBe(false);
    expect(
      isRecordLive({ stop_time: '2026-01-01T00:00:00Z', trip: { trip_status: 'ARRIVED' } }),
    ).toBe(false);
    expect(
      isRecordLive({ stop_time: '2026-01-01T00:00:00Z', trip: { trip_status: 'NOT_DEPARTED' } }),
    ).toBe(false);
    expect(
      isRecordLive({ stop_time: '2026-01-01T00:00:00Z', trip: { trip_status: 'IN_TRANSIT' } }),
    ).toBe(true);
  });

  it('no record (not loaded, or failed): not live', () => {
    expect(isRecordLive(null)).toBe(false);
    expect(isRecordLive(undefined)).toBe(false);
  });
});

describe('recordPollInterval [FEAT-LIVE-RECORDS]', () => {
  it('polls at the interval while live, not at all once stopped', () => {
    expect(recordPollInterval({ stop_time: null }, 4000)).toBe(4000);
    expect(recordPollInterval({ stop_time: '2026-01-01T00:00:00Z' }, 4000)).toBe(false);
    expect(recordPollInterval(undefined, 4000)).toBe(false);
  });
});

describe('pollIntervalFrom [FEAT-LIVE-RECORDS]', () => {
  it('the default without a setting or with a bad one', () => {
    for (const stored of [null, undefined, '', '  ', 'abc', '0', '-5', 'Infinity']) {
      expect(pollIntervalFrom(stored)).toBe(LIVE_POLL_MS);
    }
  });

  it('a faster setting, never below a second', () => {
    expect(pollIntervalFrom('2000')).toBe(2000);
    expect(pollIntervalFrom('10')).toBe(1000);
  });
});

describe('a record query polling while the record runs [FEAT-LIVE-RECORDS]', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks again every interval while live and stops once the record is stopped', async () => {
    // TanStack Query polls in a browser only (the tests run in Node): a window, before it loads.
    vi.stubGlobal('window', globalThis);
    const { QueryClient, QueryObserver } = await import('@tanstack/react-query');
    const replies: LiveRecordFields[] = [
      { stop_time: null },
      { stop_time: null },
      { stop_time: '2026-01-01T00:00:00Z' },
    ];
    let calls = 0;
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const observer = new QueryObserver(client, {
      queryKey: ['record', '1'],
      queryFn: async () => replies[Math.min(calls++, replies.length - 1)]!,
      refetchInterval: (query) => recordPollInterval(query.state.data, 1000),
    });
    const unsubscribe = observer.subscribe(() => {});
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(1);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(2);
    await vi.advanceTimersByTimeAsync(1000);
    expect(calls).toBe(3);
    // The third reply is stopped: no more asking.
    await vi.advanceTimersByTimeAsync(5000);
    expect(calls).toBe(3);
    unsubscribe();
    client.clear();
    vi.unstubAllGlobals();
  });
});
