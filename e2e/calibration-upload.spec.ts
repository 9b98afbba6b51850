import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { apiSignIn, iso, post, xt1Upload } from './api';
import { expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * Calibration certificates in Configuration > Calibration (issue 35 item 6):
 * upload one for a tag, see it listed with its due date, open its PDF, replace
 * it and see both (the replaced one stays: evidence is never deleted).
 * Screenshots at 1280 and 375 px go to /tmp/shots.
 */

const run = Date.now().toString(36);
const SHOTS = '/tmp/shots';

for (const width of [1280, 375]) {
  test(`uploads, lists, opens and replaces a certificate (${width} px) [FEAT-CALIBRATION]`, async ({
    page,
    playwright,
  }, testInfo) => {
    const serial = `E2E-CALUP-${width}-${run}`;
    const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
    try {
      await apiSignIn(api);
      const now = Math.floor(Date.now() / 1000);
      await post(api, '/api/devices/xt1/configure-action/', {
        ...xt1Upload(serial, now, 300),
        start_time_seconds: undefined,
        timestamp: iso(now),
      });
    } finally {
      await api.dispose();
    }

    await page.setViewportSize({ width, height: width === 375 ? 740 : 800 });
    await page.goto('/configuration?tab=calibration');
    await signIn(page);
    const list = page.getByRole('table', { name: 'Calibration certificates' });
    const rows = list.getByRole('row').filter({ hasText: serial });

    // The client-side checks name the fields, nothing is sent.
    let sent = 0;
    page.on('request', (r) => {
      if (r.url().includes('/api/devices/xt1/calibration/') && r.method() === 'POST') sent += 1;
    });
    await page.getByRole('button', { name: 'Upload certificate' }).click();
    const dialog = page.getByRole('dialog', { name: 'Upload certificate' });
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expect(dialog.getByText('Choose the tag the certificate is for')).toBeVisible();
    await expect(dialog.getByText('A model name is required')).toBeVisible();
    expect(sent).toBe(0);

    await dialog.getByRole('combobox', { name: 'Tag' }).fill(serial);
    await page.getByRole('option', { name: serial }).click();
    await dialog.getByLabel('Model').fill('XT1 NFC MU rev. B');
    await dialog.getByLabel('Calibrated on').fill('2026-01-15');
    await dialog.getByLabel('Next calibration due').fill('2027-01-15');
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByText(`Certificate of ${serial} uploaded`)).toBeVisible();
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('01/15/2027');
    await expect(rows.first()).toContainText('XT1 NFC MU rev. B');

    // Its PDF link answers a PDF.
    const href = await rows
      .first()
      .getByRole('link', { name: /^PDF of the certificate/ })
      .getAttribute('href');
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

    // Replaced: the newer one is listed first, the older one stays.
    await rows
      .first()
      .getByRole('button', { name: `Replace the certificate of ${serial}` })
      .click();
    const replace = page.getByRole('dialog', { name: `Replace the certificate of ${serial}` });
    await replace.getByLabel('Model').fill('XT1 NFC MU rev. C');
    await replace.getByLabel('Calibrated on').fill('2026-03-01');
    await replace.getByLabel('Next calibration due').fill('2026-02-01');
    await replace.getByRole('button', { name: 'Upload' }).click();
    await expect(replace.getByText('Must be after the calibration day')).toBeVisible();
    await replace.getByLabel('Next calibration due').fill('2027-03-01');
    if (width === 1280) await expectNoAccessibilityViolations(page);
    await replace.getByRole('button', { name: 'Upload' }).click();
    await expect(replace).toBeHidden();
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(0)).toContainText('03/01/2027');
    await expect(rows.nth(0)).toContainText('XT1 NFC MU rev. C');
    await expect(rows.nth(1)).toContainText('01/15/2027');
    if (width === 1280) await expectNoAccessibilityViolations(page);

    // The list from its first column (Replace scrolled a phone's table sideways), no snackbar.
    await page.getByRole('alert').getByRole('button', { name: 'Close' }).click();
    await list.evaluate((table) => table.closest('[class*="TableContainer"]')?.scrollTo(0, 0));
    mkdirSync(SHOTS, { recursive: true });
    await list.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/calibration-upload-${width}.png` });
  });
}
