import { randomBytes } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { iso, post, xt1Upload } from './api';
import { expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * Lanes & carriers (issue 15 item 4): two shipments of a new carrier, one
 * with an excursion, show as that carrier's 50 % excursion rate; the lane
 * view, the chart and the CSV of the same period.
 */

const SHOTS = process.env.E2E_SCREENSHOTS_DIR ?? 'test-results/screens';
const uid = () => randomBytes(4).toString('hex');

async function screenshots(page: Page, name: string): Promise<void> {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('Lanes & carriers: a carrier’s excursion rate, the chart and the CSV [FEAT-KPIS]', async ({
  page,
}) => {
  const carrier = `Carrier ${uid()}`;
  const start = Math.floor(Date.now() / 1000) - 3600;
  await page.goto('/login');
  await signIn(page);
  // Two shipments of the carrier: one with an excursion (11 and 12 °C against 8), one without.
  for (const temps of [
    [5, 5, 11, 12, 5],
    [5, 5, 5, 5, 5],
  ]) {
    const serial = `KPI-${uid()}`;
    await post(page.request, '/api/devices/xt1/scans/', {
      ...xt1Upload(serial, start, 60),
      carrier,
      timestamp: iso(start + 600),
      temps,
    });
  }

  await page.getByRole('link', { name: 'Lanes & carriers' }).first().click();
  await expect(page).toHaveURL(/\/kpis$/);
  await expect(page.getByRole('heading', { name: 'Lanes & carriers' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Lanes' })).toBeVisible();
  await expect(page.getByRole('img', { name: /Excursion rate per week/ })).toBeVisible();

  await page.getByRole('button', { name: 'Carriers' }).click();
  const row = page
    .getByRole('table', { name: 'Carriers' })
    .getByRole('row', { name: new RegExp(carrier) });
  // Shipments 2, with excursion 1, rate 50 %.
  await expect(row.getByRole('cell')).toHaveText(['2', '1', '50 %', /\d/, '–', '0 %', '0 %']);
  await expectNoAccessibilityViolations(page);
  await screenshots(page, 'kpis-carriers');

  // The CSV is the same figures.
  const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
  expect(href).toMatch(/^\/api\/kpis\/lanes\/csv\/\?.*group_by=carrier/);
  const csv = await page.request.get(href!);
  expect(csv.status()).toBe(200);
  expect(csv.headers()['content-type']).toMatch(/^text\/csv/);
  expect(await csv.text()).toContain(`${carrier},2,1,0.5000,`);

  await page.getByRole('button', { name: 'Lanes' }).click();
  await expect(page.getByRole('table', { name: 'Lanes' })).toBeVisible();
  await screenshots(page, 'kpis-lanes');
});
