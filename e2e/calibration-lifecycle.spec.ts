import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, iso, patch, post, xt1Upload } from './api';
import { E2E_ADMIN, expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * Calibration lifecycle (issue 14 item 7, docs/decisions/calibration-lifecycle.md):
 * All Devices shows each tag's calibration as a chip with its due date; the
 * record page shows the state at the shipment's start and the warning of a
 * start on an expired tag; the Configuration page's Calibration tab changes
 * the organization's settings. Screenshots at 1280 and 375 px go to /tmp/shots.
 */

const run = Date.now().toString(36);
const SHOTS = '/tmp/shots';
const DAY = 86_400;
const serial = (name: string) => `E2E-CAL-${name}-${run}`;

async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** A configured xt1 tag with a certificate due `dueInDays` from now (none when null); its tag id. */
async function tagWithCertificate(api: APIRequestContext, name: string, dueInDays: number | null) {
  const now = Math.floor(Date.now() / 1000);
  const configured = (await post(api, '/api/devices/xt1/configure-action/', {
    ...xt1Upload(serial(name), now, 300),
    start_time_seconds: undefined,
    timestamp: iso(now),
  })) as { tag_id: string };
  const tagId = Number(configured.tag_id);
  if (dueInDays !== null) {
    await post(api, '/api/devices/xt1/calibration/', {
      model_name: 'XT1 NFC MU rev. B',
      calibrated_devices: [
        {
          device_id: tagId,
          calibration_timestamp: iso(now + (dueInDays - 365) * DAY),
          calibration_due: iso(now + dueInDays * DAY),
        },
      ],
    });
  }
  return tagId;
}

test.describe('calibration lifecycle [FEAT-CALIBRATION]', () => {
  let warnedRecord: string;

  test.beforeAll(async ({ playwright }, testInfo) => {
    const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
    try {
      await apiSignIn(api);
      await tagWithCertificate(api, 'VALID', 200);
      await tagWithCertificate(api, 'SOON', 10);
      await tagWithCertificate(api, 'NONE', null);
      await tagWithCertificate(api, 'EXPIRED', -5);
      // A shipment started on the expired tag (the organization warns by default).
      const start = Math.floor(Date.now() / 1000) - 3600;
      const started = (await post(api, '/api/devices/xt1/start-action/', {
        ...xt1Upload(serial('EXPIRED'), start, 300),
        timestamp: iso(start),
        primary_reference: `PO-CAL-${run}`,
      })) as { record_id: string };
      warnedRecord = started.record_id;
    } finally {
      await api.dispose();
    }
  });

  const devicesUrl = () =>
    `/alldevices?filterItems=${encodeURIComponent(
      JSON.stringify({ field: 'serial_number', operator: 'contains', value: `E2E-CAL-` }),
    )}`;

  for (const width of [1280, 375]) {
    test(`All Devices shows each tag's calibration (${width} px)`, async ({ page }) => {
      await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
      await page.goto(devicesUrl());
      await signIn(page);
      const grid = page.getByRole('grid');
      const row = (name: string) => grid.getByRole('row').filter({ hasText: serial(name) });
      await expect(row('VALID')).toBeVisible();
      await expect(row('VALID').getByLabel(/^Calibration valid, due /)).toBeVisible();
      await expect(row('SOON').getByLabel(/^Calibration due soon, due /)).toBeVisible();
      await expect(row('EXPIRED').getByLabel(/^Calibration expired, expired on /)).toBeVisible();
      await expect(row('NONE').getByLabel('Calibration: no certificate')).toBeVisible();
      if (width === 1280) await expectNoAccessibilityViolations(page);
      await shoot(page, `calibration-devices-${width}`);
    });
  }

  test('the record page shows the start on an expired tag', async ({ page }) => {
    await page.goto(`/recorddetails/${warnedRecord}`);
    await signIn(page);
    const atStart = page.getByTestId('calibration-at-start');
    await expect(atStart.getByLabel(/^Calibration expired, expired on /)).toBeVisible();
    await expect(page.getByRole('note')).toContainText(
      `This shipment was started on tag ${serial('EXPIRED')} although its calibration had expired on`,
    );
    await page.setViewportSize({ width: 1280, height: 900 });
    await atStart.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/calibration-record-1280.png` });
    await page.setViewportSize({ width: 375, height: 740 });
    await atStart.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/calibration-record-375.png` });
  });

  for (const width of [1280, 375]) {
    test(`the Calibration settings: checked, saved, read back (${width} px)`, async ({ page }) => {
      await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
      await page.goto('/configuration?tab=calibration');
      await signIn(page);
      const days = page.getByLabel('Due soon (days before the due date)');
      await expect(days).toHaveValue('30');
      await expect(page.getByLabel('Validity without a due date (months)')).toHaveValue('12');

      // A bad number is named under its input, and nothing is sent.
      let sent = 0;
      page.on('request', (r) => {
        if (r.url().includes('/api/auth/org-settings/') && r.method() === 'PATCH') sent += 1;
      });
      await days.fill('400');
      await page.getByLabel('Reason for change').fill('E2E: calibration window');
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('A whole number of days, 0 to 365')).toBeVisible();
      expect(sent).toBe(0);
      if (width === 1280) await expectNoAccessibilityViolations(page);
      await shoot(page, `calibration-settings-${width}`);

      // Saved: refuse starts on expired tags, 45 days' warning.
      await days.fill('45');
      await page.getByLabel('Starting a shipment on an expired tag').click();
      await page.getByRole('option', { name: /^Refuse/ }).click();
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByText('Calibration settings saved')).toBeVisible();
      await page.reload();
      await expect(days).toHaveValue('45');
      await expect(page.getByLabel('Starting a shipment on an expired tag')).toContainText(
        'Refuse',
      );

      // Put them back for the other tests.
      await patch(page.request, '/api/auth/org-settings/', {
        calibration_settings: { calibration_due_soon_days: 30, expired_calibration_start: 'WARN' },
        reason: 'E2E: calibration settings put back',
        password: E2E_ADMIN.password,
        meaning: 'REVIEWED',
      });
    });
  }
});
