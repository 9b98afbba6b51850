import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiSignIn } from './api';
import { signIn } from './fixtures';
import { deviceToken, packet, rt } from './rt';

/**
 * Alarm noise (issue 35 item 4, docs/decisions/alarm-lifecycle.md and
 * no-data-alarm.md) on the record page: the no-data alarm reads as silence
 * (since when, the interval expected, for how long; no arrow, no
 * degree-minutes), and an alarm a late packet merged into a longer one is
 * folded under it, with no signature of its own to give. Screenshots at 1280
 * and 375 px go to /tmp/shots (not committed).
 */

const run = Date.now().toString(36);
const SHOTS = '/tmp/shots';
/** The silent tag's transmit interval: silent after 3 × 5 s, raised by the job's next minute. */
const TRANSMIT = 5;

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

/** Scrolls `target` to the top of the view, below the app bar. */
async function showFromTop(target: Locator): Promise<void> {
  await target.evaluate((el) => {
    el.scrollIntoView({ block: 'start' });
    window.scrollBy(0, -80);
  });
}

interface Alarm {
  id: string;
  kind?: string;
  state?: string;
  superseded_by?: string | null;
}

async function alarmsOf(api: APIRequestContext, recordId: string): Promise<Alarm[]> {
  const res = await api.get(
    `/api/devices/xt1/alarms/?record_id=${recordId}&include_acknowledged=true&include_dismissed=true`,
  );
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as Alarm[];
}

/** A started rt record (2-8 °C, a point a minute) sending every `transmit` seconds. */
async function rtRecord(api: APIRequestContext, token: string, serial: string, transmit: number) {
  const start = Math.floor(Date.now() / 1000) - 2 * 3600;
  await rt(api, token, 'configure-action/', {
    tag_id: serial,
    high_threshold: 8,
    low_threshold: 2,
    measurement_interval: 60,
    max_transmit_interval: transmit,
  });
  const started = await rt(api, token, 'start-action/', {
    tag_id: serial,
    start_time_seconds: start,
  });
  return { start, recordId: started.record_id! };
}

test.describe('alarm noise [FEAT-ALARM-MERGE, FEAT-NO-DATA-ALARM]', () => {
  let silentId: string;
  let mergedId: string;
  let survivor: string;
  let absorbed: string;

  test.beforeAll(async ({ playwright }, testInfo) => {
    test.setTimeout(150_000);
    const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL! });
    try {
      await apiSignIn(api);
      const token = await deviceToken(api, `e2e alarm noise ${run}`);
      // Two runs above 8 °C (points 2-4 and 8-10); the late packet (5-7) joins them.
      const merged = await rtRecord(api, token, `E2E-MERGE-${run}`, 600);
      mergedId = merged.recordId;
      await packet(api, token, `E2E-MERGE-${run}`, merged.start, 0, [5, 5, 9, 9, 9]);
      await packet(api, token, `E2E-MERGE-${run}`, merged.start, 8, [9, 9, 9, 5, 5]);
      await packet(api, token, `E2E-MERGE-${run}`, merged.start, 5, [9, 9, 9]);
      const alarms = await alarmsOf(api, mergedId);
      const gone = alarms.find((a) => a.superseded_by);
      expect(gone, JSON.stringify(alarms)).toBeDefined();
      absorbed = gone!.id;
      survivor = gone!.superseded_by!;

      // A record that falls silent: its last packet now, then nothing.
      const silent = await rtRecord(api, token, `E2E-SILENT-${run}`, TRANSMIT);
      silentId = silent.recordId;
      await packet(api, token, `E2E-SILENT-${run}`, silent.start, 0, Array<number>(20).fill(5));
      // The no-data job runs every minute: the alarm comes with its next run.
      await expect
        .poll(async () => (await alarmsOf(api, silentId)).some((a) => a.kind === 'no_data'), {
          timeout: 120_000,
          intervals: [2_000],
        })
        .toBe(true);
    } finally {
      await api.dispose();
    }
  });

  test('the no-data alarm reads as silence: since when, expected every, for how long', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/recorddetails/${silentId}`);
    await signIn(page);
    const card = page.locator('[data-testid="alarm-item"][data-kind="no_data"]');
    await expect(card).toHaveCount(1);
    await expect(card.getByRole('heading', { name: 'No data' })).toBeVisible();
    await expect(card).toContainText(/Silent since .+, expected every 5 s/);
    await expect(card).toContainText(/Silence\s*for \d+m/);
    // No direction and no degree-minutes: it is not a temperature excursion.
    await expect(card.getByTestId('alarm-icon-silence')).toBeVisible();
    await expect(card.getByTestId('ArrowDownwardRoundedIcon')).toHaveCount(0);
    await expect(card.getByTestId('ArrowUpwardRoundedIcon')).toHaveCount(0);
    await expect(card).not.toContainText('Degree-minutes');
    await expect(card).not.toContainText('°C·min');
    await showFromTop(card);
    await shoot(page, 'no-data-alarm-1280');

    await page.setViewportSize({ width: 375, height: 800 });
    await showFromTop(card);
    await expect(card).toContainText(/Silent since/);
    await shoot(page, 'no-data-alarm-375');
  });

  test('an alarm merged into a longer one is folded under it, with no signature of its own', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/recorddetails/${mergedId}`);
    await signIn(page);
    const items = page.getByTestId('alarm-item');
    // One card: the survivor; the absorbed alarm is inside it.
    await expect(items).toHaveCount(1);
    const folded = items.getByTestId('alarm-absorbed');
    await expect(folded).toHaveCount(1);
    await expect(folded).toContainText(`Alarm ${absorbed}`);
    await expect(folded).toContainText(`Merged into alarm ${survivor}`);
    await expect(folded.getByRole('button')).toHaveCount(0);
    await expect(items.getByRole('button', { name: 'Acknowledge' })).toHaveCount(1);
    await showFromTop(items);
    await shoot(page, 'merged-alarm-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await showFromTop(items);
    await shoot(page, 'merged-alarm-375');
  });
});
