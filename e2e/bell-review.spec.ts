import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, iso, patch, post, xt1Upload } from './api';
import { E2E_ADMIN, bellButton, expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * The bell for review (issue 14, docs/decisions/notifications.md): each entry
 * says the kind and direction of the alarm, when it happened (the user's time
 * zone) and the shipment's reference, newest alarm first; "Dismiss All" asks
 * first, naming how many; acknowledging an alarm takes it out of the bell.
 * Screenshots of the bell at 1280 and 375 px go to /tmp/shots (not committed).
 */

const run = Date.now().toString(36);
const INTERVAL = 600;
const HOUR = 3600;
/** One excursion above 8 °C at points 3-4. */
const TEMPS = [5.0, 5.2, 5.1, 9.4, 10.2, 6.1, 5.3, 5.0];
const SHOTS = '/tmp/shots';

/** A record with one high excursion that began `hoursAgo` hours ago, with a primary reference. */
async function shipment(api: APIRequestContext, name: string, hoursAgo: number) {
  const serial = `E2E-BR-${name}-${run}`;
  const start = Math.floor(Date.now() / 1000) - hoursAgo * HOUR;
  const common = xt1Upload(serial, start, INTERVAL);
  const started = (await post(api, '/api/devices/xt1/start-action/', {
    ...common,
    timestamp: iso(start),
    primary_reference: `PO-${name}-${run}`,
    num_consecutive_excursions: 1,
  })) as { record_id: string };
  await post(api, '/api/devices/xt1/scans/', {
    ...common,
    timestamp: iso(start + TEMPS.length * INTERVAL),
    temps: TEMPS,
  });
  return started.record_id;
}

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

test.describe('the bell for review [RULE-NOTIFY-1, SPEC-2.6]', () => {
  let recent: string;
  let older: string;

  test.beforeAll(async ({ playwright }, testInfo) => {
    const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
    try {
      await apiSignIn(api);
      await patch(api, '/api/auth/user-org-settings/', {
        alarm_notify_my_scans: false,
        alarm_notify_any_scans: true,
      });
      // The older excursion is uploaded last: the bell still lists it after the recent one.
      recent = await shipment(api, 'RECENT', 3);
      older = await shipment(api, 'OLDER', 30);
    } finally {
      await api.dispose();
    }
  });

  test('entries say what, when and which shipment, newest first; Dismiss All asks; acknowledging clears', async ({
    page,
    playwright,
  }, testInfo) => {
    test.setTimeout(120_000);
    await page.goto('/login');
    await signIn(page);
    const menu = page.getByRole('dialog', { name: 'Notifications' });
    const entry = (recordId: string) =>
      menu.getByRole('link', { name: `Record ${recordId} has an alarm` });

    await test.step('each entry: direction, time, reference; newest alarm first', async () => {
      await expect(bellButton(page)).not.toHaveAccessibleName('No notifications', {
        timeout: 30_000,
      });
      await bellButton(page).click();
      await expect(entry(recent)).toBeVisible({ timeout: 30_000 });
      await expect(entry(older)).toBeVisible({ timeout: 30_000 });
      await expect(entry(recent)).toContainText('High temperature: above 8.0 °C');
      await expect(entry(recent)).toContainText(`Reference PO-RECENT-${run}`);
      await expect(entry(recent)).toContainText(/\d{2}\/\d{2}\/\d{4},? \d{2}:\d{2}/);
      const names = await menu.getByRole('link').allInnerTexts();
      const at = (id: string) => names.findIndex((n) => n.startsWith(`Record ${id} has an alarm`));
      expect(at(recent)).toBeGreaterThanOrEqual(0);
      expect(at(recent)).toBeLessThan(at(older));
      await expectNoAccessibilityViolations(page);
      await shoot(page, 'bell-review-1280');
    });

    await test.step('Dismiss All asks first, naming how many; Cancel keeps them', async () => {
      // Counted before: the open confirmation hides the menu from assistive technology.
      const count = await menu.getByRole('link').count();
      await menu.getByRole('button', { name: 'Dismiss All' }).click();
      const confirm = page.getByRole('dialog', { name: /^Dismiss \d+ notifications?\?$/ });
      await expect(confirm).toBeVisible();
      await expect(confirm).toHaveAccessibleName(
        `Dismiss ${count} notification${count === 1 ? '' : 's'}?`,
      );
      await expect(confirm).toContainText('The alarms stay on their records');
      await shoot(page, 'bell-dismiss-all-1280');
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await expect(confirm).toBeHidden();
      await expect(entry(recent)).toBeVisible();
    });

    await test.step('at 375 px', async () => {
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 375, height: 800 });
      await bellButton(page).click();
      await expect(entry(recent)).toBeVisible();
      // The menu fades in: shot once it has.
      await page.waitForTimeout(500);
      await shoot(page, 'bell-review-375');
      await page.keyboard.press('Escape');
      await page.setViewportSize({ width: 1280, height: 800 });
    });

    await test.step('acknowledging the alarm takes it out of the bell', async () => {
      const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
      try {
        await apiSignIn(api);
        await post(api, '/api/devices/xt1/alarm-acknowledge/', {
          record_ids: [recent],
          comment: `Reviewed in the e2e run ${run}`,
          client_type: 'WEB',
          password: E2E_ADMIN.password,
          meaning: 'REVIEWED',
        });
      } finally {
        await api.dispose();
      }
      // The bell polls every 15 s and refetches on focus: reopened, the entry is gone.
      await page.reload();
      await bellButton(page).click();
      await expect(entry(older)).toBeVisible({ timeout: 30_000 });
      await expect(entry(recent)).toHaveCount(0);
    });
  });
});
