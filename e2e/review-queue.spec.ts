import { expect, test, type Page } from '@playwright/test';
import { apiSignIn, iso, post, xt1Upload } from './api';
import { chooseOption, expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * The review queue (issue 14 item 1): a shipment with an excursion awaits
 * acknowledgement; the dashboard's Needs review card counts it and opens All
 * Records filtered by review_state=NEEDS_REVIEW, where its Review state
 * column says so. Screenshots at 1280 and 375 px.
 */

const run = Date.now().toString(36);
const serial = `E2ERVQ${run}`.toUpperCase();

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });
}

test.describe('review queue [FEAT-REVIEW-QUEUE]', () => {
  test.beforeAll(async ({ playwright }, testInfo) => {
    const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL! });
    try {
      await apiSignIn(api);
      const start = Math.floor(Date.now() / 1000) - 3600;
      await post(api, '/api/devices/xt1/start-action/', {
        ...xt1Upload(serial, start, 60),
        timestamp: iso(start),
      });
      await post(api, '/api/devices/xt1/scans/', {
        ...xt1Upload(serial, start, 60),
        // Scanned now: the latest action, so first in All Records' default order.
        timestamp: iso(Math.floor(Date.now() / 1000)),
        temps: [5, 5, 9.5, 10, 5, 5],
      });
    } finally {
      await api.dispose();
    }
  });

  test('the Needs review card opens All Records filtered by it', async ({ page }) => {
    await page.goto('/login');
    await signIn(page);
    await page.goto('/');
    const card = page.getByRole('link', { name: /Needs review/ });
    await expect(card).toBeVisible();
    // At least this shipment; the number is the filtered list's total.
    await expect(card).toHaveText(/^Needs review[1-9][\d,]*Records with alarms/);
    await shoot(page, 'review-dashboard-1280');
    await card.click();

    await expect(page).toHaveURL(/\/allrecords\?review_state=NEEDS_REVIEW/);
    await expect(page.getByRole('combobox', { name: 'Review state' })).toContainText(
      'Needs review',
    );
    const row = page.getByRole('row').filter({ hasText: serial });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('gridcell', { name: 'Awaiting acknowledgement' })).toBeVisible();
    await expectNoAccessibilityViolations(page);
    await shoot(page, 'review-allrecords-1280');

    // Another state: the shipment is not listed.
    await chooseOption(page, page.getByRole('combobox', { name: 'Review state' }), 'Released');
    await expect(page).toHaveURL(/review_state=RELEASED/);
    await expect(page.getByRole('row').filter({ hasText: serial })).toHaveCount(0);

    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto('/');
    await expect(page.getByRole('link', { name: /Needs review/ })).toBeVisible();
    await shoot(page, 'review-dashboard-375');
    await page.getByRole('link', { name: /Needs review/ }).click();
    await expect(page.getByRole('row').filter({ hasText: serial })).toHaveCount(1);
    await shoot(page, 'review-allrecords-375');
  });

  test('over a date range the dashboard says shipment time and counts alarms by alarm time', async ({
    page,
  }) => {
    await page.goto('/login');
    await signIn(page);
    await page.goto('/');
    await page.getByRole('button', { name: 'Today' }).click();
    await expect(
      page.getByText(/^Records created on .+ \(shipment time\)\. Alarms started: by alarm time/),
    ).toBeVisible();
    const statistics = page.getByRole('list', { name: 'Record statistics' });
    // Our shipment's alarms started today (an hour ago, unless past midnight UTC).
    await expect(statistics.getByText('Alarms started')).toBeVisible();
    await expect(statistics.getByRole('listitem').last()).toHaveText(/^Alarms started[\d,]+$/);
    await shoot(page, 'review-dashboard-range-1280');
    await page.setViewportSize({ width: 375, height: 800 });
    await statistics.getByText('Alarms started').scrollIntoViewIfNeeded();
    await shoot(page, 'review-dashboard-range-375');
  });
});
