import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { post } from './api';

/**
 * A real-time (rt) tag through the device API, for the browser tests of live
 * screens (e2e/live-records.spec.ts, e2e/review-flow.spec.ts): a device
 * token, the configure / start / packet calls, and the page helpers that
 * read what the live record page and the bell show.
 */

const RT = '/api/devices/rt/';
/** The rt tags' measurement interval in these tests (seconds). */
export const RT_INTERVAL = 60;

/** A device token (rt uploads take one) on a signed-in context. */
export async function deviceToken(api: APIRequestContext, name: string): Promise<string> {
  const issued = (await post(api, '/api/auth/tokens/', { name, expiry_days: 1 })) as {
    token: string;
  };
  return issued.token;
}

/** POSTs an rt call with the device token and expects 200. */
export async function rt(api: APIRequestContext, token: string, path: string, data: unknown) {
  const res = await api.post(`${RT}${path}`, {
    data,
    headers: { authorization: `Token ${token}` },
  });
  expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
  return (await res.json()) as { record_id?: string };
}

/** A running rt record (2-8 °C) started 2 hours ago with 20 points at 5 °C. */
export async function runningRecord(api: APIRequestContext, token: string, serial: string) {
  const start = Math.floor(Date.now() / 1000) - 2 * 3600;
  await rt(api, token, 'configure-action/', {
    tag_id: serial,
    high_threshold: 8,
    low_threshold: 2,
    measurement_interval: RT_INTERVAL,
    max_transmit_interval: 600,
  });
  const started = await rt(api, token, 'start-action/', {
    tag_id: serial,
    start_time_seconds: start,
  });
  await packet(api, token, serial, start, 0, Array<number>(20).fill(5));
  return { start, recordId: started.record_id! };
}

/** A temperature packet: `temps` from point `offset` of the run started at `start`. */
export function packet(
  api: APIRequestContext,
  token: string,
  serial: string,
  start: number,
  offset: number,
  temps: number[],
) {
  return rt(api, token, 'packets/', {
    tag_id: serial,
    start_time_seconds: start,
    temperatures_offset_index: offset,
    temps,
  });
}

/** Polls every 2 s in this page (set before the app loads). */
export async function pollFast(page: Page): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('coldtrace.livePollMs', '2000'));
}

/** A value of the record page's summary strip ('Points', 'Highest'). */
export const summaryValue = (page: Page, label: string) =>
  page.getByLabel('Summary').locator(`dt:text-is("${label}") + dd`);

/** The bell in the top bar (its name is the count: '2 notifications', 'No notifications'). */
export const bellButton = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: /notification/i });
