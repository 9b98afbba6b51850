import { expect, test, type Page } from '@playwright/test';
import { apiSignIn, iso, post, xt1Upload } from './api';
import { expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * Stability budgets (issue 14 item 3) as a quality manager meets them: the
 * product dialog's band rows (a limit of more than one decimal refused under
 * its field, nothing sent), the products table, then two legs of one shipment
 * whose minutes above 8 °C add up past the product's 30 minutes: the second
 * leg's record page shows the band used up with both legs, the budget alarm,
 * and, with a planned arrival ahead, the projection at the leg's rate.
 */

const run = Date.now().toString(36).toUpperCase();
const PRODUCT = `E2E Budget Vaccine ${run}`;
const REFERENCE = `SHIP-${run}`;

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: false });
}

test.describe('stability budget [FEAT-STABILITY-BUDGET]', () => {
  test('product bands in the dialog, then a shipment of two legs uses one up', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto('/login');
    await signIn(page);

    await test.step('the product dialog takes the bands and names a bad limit', async () => {
      await page.goto('/configuration');
      await page.getByRole('button', { name: 'Add product' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add product' });
      await dialog.getByLabel('Product name').fill(PRODUCT);
      await dialog.getByRole('button', { name: 'Add band' }).click();
      await dialog.getByRole('textbox', { name: 'Band 1 limit' }).fill('8.05');
      await dialog.getByRole('textbox', { name: 'Band 1 minutes allowed' }).fill('30');
      await dialog.getByRole('button', { name: 'Add band' }).click();
      await dialog
        .getByRole('combobox', { name: /^Direction/ })
        .nth(1)
        .click();
      await page.getByRole('option', { name: 'Below' }).click();
      await dialog.getByRole('textbox', { name: 'Band 2 limit' }).fill('0');
      await dialog.getByRole('textbox', { name: 'Band 2 minutes allowed' }).fill('0');
      let sent = 0;
      page.on('request', (request) => {
        if (
          request.url().includes('/api/products/product-definitions/') &&
          request.method() === 'POST'
        )
          sent += 1;
      });
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog.getByText('Use at most one decimal, e.g. 8 or 2.5')).toBeVisible();
      expect(sent).toBe(0);
      await expectNoAccessibilityViolations(page);
      await dialog.getByRole('textbox', { name: 'Band 1 limit' }).fill('8');
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
      const row = page
        .getByRole('table', { name: 'Products' })
        .getByRole('row')
        .filter({ hasText: PRODUCT });
      await expect(row).toContainText('> 8.0 °C: 30 min; < 0.0 °C: 0 min');
    });

    let leg2 = '';
    await test.step('two legs of the shipment upload their points', async () => {
      const api = page.request;
      await apiSignIn(api);
      const legOf = async (serial: string, temps: number[], extra: Record<string, unknown>) => {
        const start = Math.floor(Date.now() / 1000) - 3 * 3600;
        const body = {
          ...xt1Upload(serial, start, 60),
          shipping_reference: REFERENCE,
          product_designation: PRODUCT,
          ...extra,
        };
        const started = (await post(api, '/api/devices/xt1/start-action/', {
          ...body,
          timestamp: iso(start),
        })) as { record_id: string };
        await post(api, '/api/devices/xt1/scans/', {
          ...body,
          timestamp: iso(start + temps.length * 60),
          temps,
        });
        return started.record_id;
      };
      const five = (n: number) => Array.from({ length: n }, () => 5);
      const nine = (n: number) => Array.from({ length: n }, () => 9);
      // Leg 1: 20 minutes above 8 °C. Leg 2: 12 more: 32 of 30, used up on leg 2.
      await legOf(`E2EBGA${run}`, [...nine(20), ...five(20)], {});
      leg2 = await legOf(`E2EBGB${run}`, [...five(10), ...nine(12), ...five(100)], {
        planned_arrival: new Date(Date.now() + 4 * 3600_000).toISOString(),
      });
    });

    await test.step('the record page shows the band used up across both legs, and the alarm', async () => {
      await page.goto(`/recorddetails/${leg2}`);
      const card = page.getByRole('region', { name: 'Stability budget' });
      await expect(card).toContainText(`${PRODUCT} · shipment ${REFERENCE} · 2 legs`);
      const bar = card.getByRole('progressbar', { name: 'Above 8.0 °C: 32 min of 30 min used' });
      await expect(bar).toHaveAttribute('aria-valuenow', '100');
      await expect(card).toContainText('Used up: 32 min of 30 min used');
      await expect(card).toContainText('0 min left · this leg 12 min');
      await expect(
        card.getByRole('progressbar', { name: 'Below 0.0 °C: 0 min of 0 min used' }),
      ).toHaveAttribute('aria-valuenow', '0');
      // In transit with a planned arrival: where each band heads at this leg's rate (12 of 122 minutes).
      await expect(card).toContainText("At this leg's rate:");
      await expect(card.getByRole('link', { name: /^record \d+$/ })).toHaveCount(1);
      const alarms = page.getByRole('region', { name: /Alarms/ });
      await expect(alarms).toContainText('Stability budget used up (above)');
      await expect(page.locator('.MuiSkeleton-root')).toHaveCount(0);
      await expectNoAccessibilityViolations(page);
      await page.setViewportSize({ width: 1280, height: 900 });
      await card.scrollIntoViewIfNeeded();
      await shoot(page, 'record-budget-1280');
      await page.setViewportSize({ width: 375, height: 800 });
      await card.scrollIntoViewIfNeeded();
      await expect(card).toContainText('Used up: 32 min of 30 min used');
      await shoot(page, 'record-budget-375');
      await page.setViewportSize({ width: 1280, height: 900 });
    });

    await test.step('a planned arrival cleared through the API leaves no projection', async () => {
      await post(page.request, '/api/devices/xt1/update-shipment-action/', {
        record_id: leg2,
        planned_arrival: null,
        mobile_device_type: 'WEB',
      });
      await page.reload();
      const card = page.getByRole('region', { name: 'Stability budget' });
      await expect(card).toContainText('Planned arrival: not set');
      await expect(card).not.toContainText("At this leg's rate:");
    });
  });
});
