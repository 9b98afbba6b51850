import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, iso, post } from './api';
import { E2E_ADMIN, expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * The alarm loop in the browser: an upload (as the phone app sends it) goes
 * beyond both thresholds; within 30 seconds, without a reload, the bell shows
 * the record's notifications (the alarm.raised job made them); one is
 * dismissed, then all; on the record page both alarms are acknowledged at
 * once with an electronic signature (password and meaning), and the
 * signature and the audit entries show.
 */

const run = Date.now().toString(36);
const SERIAL = `E2E-AW-${run}`;
const COMMENT = `Reviewed the excursions (${run}): product released`;
const INTERVAL = 600;
/** High 8, low 2: one excursion above (points 2-3), one below (points 6-7). */
const TEMPS = [5, 5, 9.4, 9.8, 5, 5, 1.2, 1.5, 5, 5];

async function createAlarmingShipment(api: APIRequestContext): Promise<string> {
  await apiSignIn(api);
  const start = Math.floor(Date.now() / 1000) - 3 * 3600;
  const common = {
    tag_id: SERIAL,
    tag_serial_number: SERIAL,
    tag_type: 'XT1_NFC_MU',
    high_threshold: 8,
    low_threshold: 2,
    measurement_interval: INTERVAL,
    start_delay: 0,
    start_time_seconds: start,
    mobile_device_type: 'ANDROID',
  };
  const started = (await post(api, '/api/devices/xt1/start-action/', {
    ...common,
    timestamp: iso(start),
  })) as { record_id: string };
  await post(api, '/api/devices/xt1/scans/', {
    ...common,
    timestamp: iso(start + TEMPS.length * INTERVAL),
    temps: TEMPS,
  });
  return started.record_id;
}

const bellButton = (page: Page) =>
  page.getByRole('banner').getByRole('button', { name: /notification/i });

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });
}

test.describe('alarm workflow', () => {
  let recordId: string;

  test.beforeAll(async ({ playwright }, testInfo) => {
    const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
    try {
      recordId = await createAlarmingShipment(api);
    } finally {
      await api.dispose();
    }
  });

  test('bell, dismissal, signed acknowledgement and audit trail', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto('/login');
    await signIn(page);
    const items = page.getByRole('link', { name: `Record ${recordId} has an alarm` });

    await test.step('the bell shows the new alarms within 30 s, without a reload', async () => {
      await expect(bellButton(page)).not.toHaveAccessibleName('No notifications', {
        timeout: 30_000,
      });
      await bellButton(page).click();
      const menu = page.getByRole('dialog', { name: 'Notifications' });
      await expect(menu).toBeVisible();
      await expect(items).toHaveCount(2, { timeout: 30_000 });
      await expect(menu.getByRole('button', { name: 'Dismiss All' })).toBeVisible();
      await expectNoAccessibilityViolations(page);
      await shoot(page, 'bell-1280');
    });

    await test.step('dismiss one: it goes once the server has dismissed it', async () => {
      const menu = page.getByRole('dialog', { name: 'Notifications' });
      await menu
        .getByRole('button', { name: `Dismiss: Record ${recordId} has an alarm` })
        .first()
        .click();
      await expect(items).toHaveCount(1);
    });

    await test.step('Dismiss All empties the list', async () => {
      const menu = page.getByRole('dialog', { name: 'Notifications' });
      await menu.getByRole('button', { name: 'Dismiss All' }).click();
      await expect(menu.getByText('No new notifications')).toBeVisible();
      await expect(menu.getByRole('button', { name: 'Dismiss All' })).toBeHidden();
      await page.keyboard.press('Escape');
      await expect(bellButton(page)).toHaveAccessibleName('No notifications');
    });

    await test.step('the record link leads to the record page', async () => {
      await page.goto(`/recorddetails/${recordId}`);
      await expect(
        page.getByRole('heading', { name: `Record ${recordId}`, level: 1 }),
      ).toBeVisible();
    });

    const alarmsCard = page.getByRole('region', { name: 'Alarms' });
    await test.step('sign the acknowledgement of both alarms at once', async () => {
      await expect(alarmsCard.getByRole('listitem')).toHaveCount(2);
      for (const box of await alarmsCard.getByRole('checkbox').all()) await box.check();
      await alarmsCard.getByRole('button', { name: 'Acknowledge selected (2)' }).click();
      const dialog = page.getByRole('dialog', { name: 'Acknowledge 2 alarms' });
      await expect(dialog).toBeVisible();
      const sign = dialog.getByRole('button', { name: 'Sign and acknowledge' });
      await expect(sign).toBeDisabled();
      await dialog.getByRole('radio', { name: 'Approved' }).check();
      await dialog.getByLabel('Comment').fill(COMMENT);
      await dialog.getByLabel('Password').fill('not my password');
      await expectNoAccessibilityViolations(page);
      await shoot(page, 'sign-dialog-1280');
      await sign.click();
      // A wrong password is refused and shown on the field; nothing is signed.
      await expect(dialog.getByText('The password is not correct.')).toBeVisible();
      await expect(dialog.getByLabel('Password')).toHaveValue('');
      await dialog.getByLabel('Password').fill(E2E_ADMIN.password);
      await sign.click();
      await expect(dialog).toBeHidden();
      const signatures = alarmsCard.getByTestId('alarm-signature');
      await expect(signatures).toHaveCount(2);
      await expect(signatures.first()).toContainText(/^Signed by .+ on .+ — Approved: /);
      await expect(signatures.first()).toContainText(COMMENT);
    });

    await test.step('the audit trail shows the signed acknowledgements', async () => {
      const audit = page.getByRole('region', { name: 'Audit trail' });
      await expect(audit.getByText(/^Acknowledged alarm \d+ · acknowledged$/)).toHaveCount(2);
      await expect(audit.getByText(`Reason: Approved: ${COMMENT}`)).toHaveCount(2);
      await expect(audit.getByText('No → Yes').first()).toBeVisible();
      const csv = audit.getByRole('link', { name: 'Export CSV' });
      await expect(csv).toHaveAttribute('href', `/api/audit/csv/?record_id=${recordId}`);
      const download = await page.request.get(`/api/audit/csv/?record_id=${recordId}`);
      expect(download.status()).toBe(200);
      expect(await download.text()).toContain(`Approved: ${COMMENT}`);
      await audit.scrollIntoViewIfNeeded();
      await expectNoAccessibilityViolations(page);
      await shoot(page, 'record-audit-1280');
    });

    await test.step('phone width', async () => {
      await page.setViewportSize({ width: 375, height: 800 });
      await alarmsCard.scrollIntoViewIfNeeded();
      await shoot(page, 'record-alarms-375');
      await page.getByRole('region', { name: 'Audit trail' }).scrollIntoViewIfNeeded();
      await shoot(page, 'record-audit-375');
      await bellButton(page).click();
      await expect(page.getByRole('dialog', { name: 'Notifications' })).toBeVisible();
      await shoot(page, 'bell-375');
      await expectNoAccessibilityViolations(page);
    });
  });
});
