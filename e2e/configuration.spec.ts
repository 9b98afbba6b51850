import { expect, test, type Page } from '@playwright/test';
import { E2E_ADMIN, expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * Configuration (/configuration): products, carriers, travel locations and the
 * geo-fence, created and edited through the dialogs against the real server.
 * Names carry a per-run suffix so the test never depends on what earlier runs
 * (or other tests) left in the organization.
 */

const run = Date.now().toString(36);

interface GeoFence {
  arrival_radius_meters: number;
  arrival_radius_units: string;
}

async function openConfiguration(page: Page): Promise<void> {
  await page.goto('/');
  await signIn(page);
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Configuration' })
    .click();
  await expect(page).toHaveURL(/\/configuration/);
  await expect(page.getByRole('heading', { name: 'Configuration', level: 1 })).toBeVisible();
}

test.describe('configuration [SPEC-7.7, RULE-TRIP-2]', () => {
  test('products: create, refuse low above high without sending, edit', async ({ page }) => {
    const name = `E2E Vaccine ${run}`;
    await openConfiguration(page);
    await expect(page.getByRole('tab', { name: 'Products' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    const products = page.getByRole('table', { name: 'Products' });

    // Create with thresholds 2 and 8 °C and a cumulative duration.
    await page.getByRole('button', { name: 'Add product' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add product' });
    await expect(dialog).toBeVisible();
    await expectNoAccessibilityViolations(page);
    await dialog.getByLabel('Product name').fill(name);
    await dialog.getByLabel('High threshold (°C)', { exact: true }).fill('8');
    await dialog.getByLabel('Low threshold (°C)', { exact: true }).fill('2');
    await dialog.getByLabel('Allowed time above').fill('01:30:00');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    const row = products.getByRole('row').filter({ hasText: name });
    await expect(row).toContainText('8.0 °C');
    await expect(row).toContainText('2.0 °C');
    await expect(row).toContainText('1h 30m');

    // Low above high: the message sits under the low threshold and nothing is sent.
    let sent = 0;
    page.on('request', (request) => {
      if (
        request.url().includes('/api/products/product-definitions/') &&
        request.method() !== 'GET'
      ) {
        sent += 1;
      }
    });
    await page.getByRole('button', { name: `Edit ${name}` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit product' });
    await expect(edit.getByLabel('Product name')).toHaveValue(name);
    await expect(edit.getByLabel('High threshold (°C)', { exact: true })).toHaveValue('8');
    const low = edit.getByLabel('Low threshold (°C)', { exact: true });
    await low.fill('9');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(low).toHaveAttribute('aria-invalid', 'true');
    await expect(low).toHaveAccessibleDescription(/Must not be above the high threshold/);
    await expect(low).toBeFocused();
    await expect(edit).toBeVisible();
    expect(sent).toBe(0);

    // Fix it and change the high threshold: the edit is saved and shown.
    await low.fill('3');
    await expect(low).not.toHaveAttribute('aria-invalid', 'true');
    await edit.getByLabel('High threshold (°C)', { exact: true }).fill('7.5');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(edit).toBeHidden();
    expect(sent).toBe(1);
    await expect(row).toContainText('7.5 °C');
    await expect(row).toContainText('3.0 °C');
    await expect(page.getByText(`Product ${name} saved`)).toBeVisible();
  });

  test('carriers and travel locations: create and see them in their lists', async ({ page }) => {
    const carrier = `E2E Carrier ${run}`;
    const location = `E2E Depot ${run}`;
    await openConfiguration(page);

    await page.getByRole('tab', { name: 'Carriers' }).click();
    await expect(page).toHaveURL(/tab=carriers/);
    await page.getByRole('button', { name: 'Add carrier' }).click();
    const carrierDialog = page.getByRole('dialog', { name: 'Add carrier' });
    // An empty name is refused in the browser.
    await carrierDialog.getByRole('button', { name: 'Save' }).click();
    await expect(carrierDialog.getByLabel('Carrier name')).toHaveAccessibleDescription(
      'Enter a carrier name',
    );
    await carrierDialog.getByLabel('Carrier name').fill(carrier);
    await carrierDialog.getByRole('button', { name: 'Save' }).click();
    await expect(carrierDialog).toBeHidden();
    await expect(
      page.getByRole('table', { name: 'Carriers' }).getByRole('row').filter({ hasText: carrier }),
    ).toBeVisible();

    // The same name again: the server's 409 shows under the name.
    await page.getByRole('button', { name: 'Add carrier' }).click();
    const again = page.getByRole('dialog', { name: 'Add carrier' });
    await again.getByLabel('Carrier name').fill(carrier.toUpperCase());
    await again.getByRole('button', { name: 'Save' }).click();
    await expect(again.getByLabel('Carrier name')).toHaveAccessibleDescription(/already exists/);
    await again.getByRole('button', { name: 'Cancel' }).click();
    await expect(again).toBeHidden();

    await page.getByRole('tab', { name: 'Travel locations' }).click();
    await page.getByRole('button', { name: 'Add travel location' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add travel location' });
    await dialog.getByLabel('Name').fill(location);
    await dialog.getByLabel('Address').fill('1 Cold Store Road, Rotterdam');
    await dialog.getByLabel('Latitude').fill('91');
    await dialog.getByLabel('Longitude').fill('4.47917');
    await dialog.getByRole('checkbox', { name: 'Origin (shipper)' }).check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByLabel('Latitude')).toHaveAccessibleDescription(/from -90 to 90/);
    await dialog.getByLabel('Latitude').fill('51.9225');
    await dialog.getByRole('combobox', { name: 'Time zone' }).click();
    await page.getByRole('option', { name: 'Europe/Amsterdam' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toBeHidden();
    const row = page
      .getByRole('table', { name: 'Travel locations' })
      .getByRole('row')
      .filter({ hasText: location });
    await expect(row).toContainText('1 Cold Store Road, Rotterdam');
    await expect(row).toContainText('51.9225');
    await expect(row).toContainText('4.47917');
    await expect(row).toContainText('Europe/Amsterdam');
    await expect(row.getByRole('cell').nth(3)).toHaveText('Yes');
    await expect(row.getByRole('cell').nth(4)).toHaveText('No');

    // The new origin is offered in the shipment forms' dropdown bundle.
    const bundle = await page.request.get('/api/products/dropdown-info/');
    const info = (await bundle.json()) as {
      origin_locations: { name: string }[];
      carrier_definitions: { name: string }[];
    };
    expect(info.origin_locations.map((l) => l.name)).toContain(location);
    expect(info.carrier_definitions.map((c) => c.name)).toContain(carrier);
  });

  test('geo-fence: arrival radius of 2 km is kept after a reload', async ({ page }) => {
    await openConfiguration(page);
    const before = (await (await page.request.get('/api/auth/org-settings/')).json()) as {
      geo_fence_settings: GeoFence;
    };
    await page.getByRole('tab', { name: 'Geo-fence' }).click();
    const radius = page.getByLabel('Arrival radius', { exact: true });
    await expect(radius).toBeVisible();
    await expectNoAccessibilityViolations(page);

    await page.getByRole('combobox', { name: 'Arrival radius unit' }).click();
    await page.getByRole('option', { name: 'km — kilometres' }).click();
    await radius.fill('2');
    await expect(radius).toHaveAccessibleDescription('= 2,000 m');
    // Records with alarms are re-evaluated: a reason for change, and a signature if alarms close.
    await page.getByLabel('Reason for change').fill('E2E: arrival radius of 2 km');
    await page.getByRole('button', { name: 'Save' }).click();
    const saved = page.getByText('Geo-fence settings saved');
    const sign = page.getByRole('button', { name: 'Sign and save' });
    await expect(saved.or(sign)).toBeVisible();
    if (await sign.isVisible()) {
      await page.getByRole('radio', { name: 'Reviewed' }).check();
      await page.getByLabel('Password').fill(E2E_ADMIN.password);
      await sign.click();
    }
    await expect(saved).toBeVisible();

    await page.reload();
    await expect(page.getByRole('tab', { name: 'Geo-fence' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await expect(page.getByLabel('Arrival radius', { exact: true })).toHaveValue('2');
    await expect(page.getByRole('combobox', { name: 'Arrival radius unit' })).toHaveText(
      'km — kilometres',
    );
    const settings = await page.request.get('/api/auth/org-settings/');
    const body = (await settings.json()) as { geo_fence_settings: GeoFence };
    expect(body.geo_fence_settings.arrival_radius_meters).toBe(2000);
    expect(body.geo_fence_settings.arrival_radius_units).toBe('km');

    // Put the organization's geo-fence back, so later tests on seeded trips see the seed's.
    const csrf = (await page.context().cookies()).find((c) => c.name === 'csrftoken')?.value;
    const restored = await page.request.patch('/api/auth/org-settings/', {
      headers: { 'X-CSRFToken': csrf ?? '' },
      data: {
        geo_fence_settings: {
          arrival_radius_meters: before.geo_fence_settings.arrival_radius_meters,
          arrival_radius_units: before.geo_fence_settings.arrival_radius_units,
        },
        reason: 'E2E: geo-fence put back',
        password: E2E_ADMIN.password,
        meaning: 'REVIEWED',
      },
    });
    expect(restored.ok(), await restored.text()).toBe(true);
  });

  test('the page and a dialog pass axe at phone width', async ({ page }) => {
    await page.setViewportSize({ width: 375, height: 740 });
    await page.goto('/configuration?tab=travel-locations');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Travel locations' })).toBeVisible();
    await expect(page.getByRole('status', { name: /Loading/ })).toHaveCount(0);
    await expectNoAccessibilityViolations(page);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth,
    );
    expect(overflow).toBe(false);
    await page.getByRole('button', { name: 'Add travel location' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add travel location' });
    await expect(dialog).toBeVisible();
    // Full screen on phones.
    const box = await dialog.boundingBox();
    expect(box?.width).toBe(375);
    await expectNoAccessibilityViolations(page);
  });
});
