import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, patch } from './api';
import { signIn } from './fixtures';
import {
  bellButton,
  deviceToken,
  packet,
  pollFast,
  rt,
  RT_INTERVAL,
  runningRecord,
  summaryValue,
} from './rt';

/**
 * Live records (issue 14 item 6, docs/decisions/live-records.md): the record
 * page of a running rt shipment, the dashboard and the bell show new packets
 * by themselves, without a reload. The app polls every 10 s; the test asks it
 * to poll every 2 s (the `coldtrace.livePollMs` setting) so the suite stays
 * short: the mechanism is the same, the assertions allow 15 s. Screenshots of
 * the record page before and after a packet, at 1280 and 375 px, go to
 * /tmp/shots (not committed).
 */

const run = Date.now().toString(36);
const INTERVAL = RT_INTERVAL;
const SHOTS = '/tmp/shots';
const LIVE_WITHIN = { timeout: 15_000 };

/** A mark on the window: still there after the update means no reload happened. */
async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => ((window as unknown as { liveMark: number }).liveMark = 1));
}
async function expectSamePage(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as unknown as { liveMark?: number }).liveMark)).toBe(1);
}

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

test.describe('live records [FEAT-LIVE-RECORDS]', () => {
  let api: APIRequestContext;
  let token: string;

  test.beforeAll(async ({ playwright }, testInfo) => {
    api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
    await apiSignIn(api);
    // The bell lists alarms of any scan of the organization (the admin's own uploads too).
    await patch(api, '/api/auth/user-org-settings/', {
      alarm_notify_my_scans: true,
      alarm_notify_any_scans: true,
    });
    token = await deviceToken(api, `e2e live ${run}`);
  });
  test.afterAll(async () => {
    await api.dispose();
  });

  test('the record page shows new points, the new alarm and the bell entry without a reload', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const serial = `E2E-LIVE-${run}`;
    const { start, recordId } = await runningRecord(api, token, serial);
    await pollFast(page);
    await page.goto('/login');
    await signIn(page);
    await page.goto(`/recorddetails/${recordId}`);
    const chart = page.getByRole('application', { name: /Temperature chart of/ });
    await expect(summaryValue(page, 'Points')).toHaveText('20');
    await expect(chart).toHaveAccessibleName(/Temperature chart of 20 points/);
    await expect(summaryValue(page, 'Highest')).toHaveText('5.0 °C');
    await shoot(page, 'live-record-before-1280');
    await markPage(page);
    const bellBefore = (await bellButton(page).getAttribute('aria-label')) ?? '';

    await test.step('a packet with an excursion arrives while the page is open', async () => {
      await packet(api, token, serial, start, 20, [5, 9.5, 10.5, 9.8, 5.2]);
      await expect(summaryValue(page, 'Points')).toHaveText('25', LIVE_WITHIN);
      await expect(chart).toHaveAccessibleName(/Temperature chart of 25 points/, LIVE_WITHIN);
      await expect(summaryValue(page, 'Highest')).toHaveText('10.5 °C', LIVE_WITHIN);
      const alarms = page.getByRole('region', { name: 'Alarms' });
      await expect(alarms.getByRole('button', { name: 'Acknowledge', exact: true })).toBeVisible(
        LIVE_WITHIN,
      );
      // The bell: the fan-out job, then the next poll; its count changes.
      await expect(bellButton(page)).not.toHaveAccessibleName(bellBefore, LIVE_WITHIN);
      await shoot(page, 'live-record-after-1280');
      await bellButton(page).click();
      const menu = page.getByRole('dialog', { name: 'Notifications' });
      await expect(
        menu.getByRole('link', { name: `Record ${recordId} has an alarm` }),
      ).toBeVisible();
      await page.keyboard.press('Escape');
      await expectSamePage(page);
    });

    await test.step('an open dialog keeps what was typed while new data arrives', async () => {
      const alarms = page.getByRole('region', { name: 'Alarms' });
      await alarms.getByRole('button', { name: 'Acknowledge', exact: true }).click();
      const dialog = page.getByRole('dialog', { name: /Acknowledge/ });
      await dialog.getByLabel('Comment').fill('Checked with the carrier');
      await packet(api, token, serial, start, 25, [5.1, 5.0]);
      await expect(summaryValue(page, 'Points')).toHaveText('27', LIVE_WITHIN);
      await expect(dialog).toBeVisible();
      await expect(dialog.getByLabel('Comment')).toHaveValue('Checked with the carrier');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expectSamePage(page);
    });

    await test.step('a zoomed chart stays zoomed while new points arrive', async () => {
      const card = page.getByRole('region', { name: 'Temperature', exact: true });
      const reset = card.getByRole('button', { name: 'Reset zoom' });
      await card.scrollIntoViewIfNeeded();
      const box = (await chart.locator('.u-over').boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.1, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 6 });
      await page.mouse.up();
      await expect(reset).toBeEnabled();
      await packet(api, token, serial, start, 27, [5.0, 5.1]);
      await expect(summaryValue(page, 'Points')).toHaveText('29', LIVE_WITHIN);
      await expect(chart).toHaveAccessibleName(/Temperature chart of 29 points/, LIVE_WITHIN);
      await expect(reset).toBeEnabled();
      await reset.click();
      await expect(reset).toBeDisabled();
      await expectSamePage(page);
    });

    await test.step('at 375 px', async () => {
      await page.setViewportSize({ width: 375, height: 812 });
      await expect(summaryValue(page, 'Points')).toHaveText('29');
      await shoot(page, 'live-record-before-375');
      const scrolled = await page.evaluate(() => window.scrollY);
      expect(scrolled).toBeGreaterThan(0);
      await packet(api, token, serial, start, 29, [4.6, 4.4, 4.3]);
      await expect(summaryValue(page, 'Points')).toHaveText('32', LIVE_WITHIN);
      await expect(chart).toHaveAccessibleName(/Temperature chart of 32 points/, LIVE_WITHIN);
      await shoot(page, 'live-record-after-375');
      // The page stays where the user scrolled it.
      expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
      await expectSamePage(page);
    });
  });

  test('the dashboard shows the latest temperature by itself', async ({ page }) => {
    test.setTimeout(60_000);
    const serial = `E2E-LIVE-D-${run}`;
    const { start } = await runningRecord(api, token, serial);
    await pollFast(page);
    await page.goto('/login');
    await signIn(page);
    await expect(page).toHaveURL(/\/$/);
    const row = page.getByRole('listitem').filter({ hasText: serial });
    await expect(row).toContainText('5.0 °C');
    await markPage(page);
    await packet(api, token, serial, start, 20, [6.25, 6.3]);
    await expect(row).toContainText('6.3 °C', LIVE_WITHIN);
    await expectSamePage(page);
  });

  test('a stopped record asks once: no polling', async ({ page }) => {
    const serial = `E2E-LIVE-S-${run}`;
    const { start, recordId } = await runningRecord(api, token, serial);
    await rt(api, token, 'stop-action/', {
      tag_id: serial,
      start_time_seconds: start,
      stop_time_seconds: start + 20 * INTERVAL,
    });
    await pollFast(page);
    await page.goto('/login');
    await signIn(page);
    let asked = 0;
    let bellAsked = 0;
    let bellPolledTwice: () => void = () => {};
    const twoBellPolls = new Promise<void>((resolve) => (bellPolledTwice = resolve));
    page.on('request', (request) => {
      const url = request.url();
      if (url.includes(`/api/devices/xt1/record/?record_id=${recordId}`)) asked += 1;
      if (url.includes('/api/devices/xt1/notifications/') && asked > 0 && ++bellAsked === 3) {
        bellPolledTwice();
      }
    });
    await page.goto(`/recorddetails/${recordId}`);
    await expect(summaryValue(page, 'Points')).toHaveText('20');
    // The bell polls at the interval a running record page would. Three bell
    // requests after the record was read (its first load at most, then two
    // polls): a running record would have asked at least twice more by then.
    await twoBellPolls;
    expect(asked).toBe(1);
  });
});
