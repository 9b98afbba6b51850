import { expect, type APIRequestContext } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config';

/**
 * Calls to the real server from a test (Playwright's request context), as a
 * client of the public API: the CSRF cookie and header, and sign-in.
 */

export async function csrfToken(api: APIRequestContext): Promise<string> {
  const state = await api.storageState();
  const cookie = state.cookies.find((c) => c.name === 'csrftoken');
  if (cookie) return cookie.value;
  const res = await api.get('/api/auth/csrf/');
  expect(res.ok()).toBe(true);
  return ((await res.json()) as { csrftoken: string }).csrftoken;
}

/** POSTs JSON with the CSRF header and expects 200; returns the reply body. */
export async function post(api: APIRequestContext, url: string, data: unknown): Promise<unknown> {
  const res = await api.post(url, { data, headers: { 'X-CSRFToken': await csrfToken(api) } });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return res.json();
}

/** GETs `url` and expects 200; returns the reply body. */
export async function getJson<T>(api: APIRequestContext, url: string): Promise<T> {
  const res = await api.get(url);
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return (await res.json()) as T;
}

/** Signs the request context in (the administrator unless told otherwise). */
export async function apiSignIn(api: APIRequestContext, who = E2E_ADMIN): Promise<void> {
  await api.get('/api/auth/csrf/');
  await post(api, '/api/auth/login/', { email_or_username: who.email, password: who.password });
}

/** ISO 8601 of Unix seconds. */
export const iso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** PATCHes JSON with the CSRF header and expects 200; returns the reply body. */
export async function patch(api: APIRequestContext, url: string, data: unknown): Promise<unknown> {
  const res = await api.patch(url, { data, headers: { 'X-CSRFToken': await csrfToken(api) } });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(200);
  return res.json();
}

/** The fields every upload of an xt1 tag carries (2-8 °C thresholds, an Android phone). */
export function xt1Upload(serial: string, startSeconds: number, intervalSeconds: number) {
  return {
    tag_id: serial,
    tag_serial_number: serial,
    tag_type: 'XT1_NFC_MU',
    high_threshold: 8,
    low_threshold: 2,
    measurement_interval: intervalSeconds,
    start_delay: 0,
    start_time_seconds: startSeconds,
    mobile_device_type: 'ANDROID',
  };
}
