import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, iso, post, xt1Upload } from './api';
import { E2E_ADMIN, expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * Record detail (/recorddetails/{id}) against the real server. The test makes
 * its own shipment through the public API, as the phone app would: a start at
 * the origin, then two scans (with a gap between them) whose readings go above
 * the high threshold, with positions. Serial numbers and names carry a per-run
 * suffix, so earlier runs never get in the way.
 */

const run = Date.now().toString(36);
const SERIAL = `E2E-RD-${run}`;
const REFERENCE = `E2E-REF-${run}`;
const NEW_REFERENCE = `E2E-REF-${run}-EDITED`;
const COMMENT = `Checked with the carrier (${run}): product inside its stability budget`;
const INTERVAL = 600;
const HOUR = 3600;

/** 20 points, a gap of 4, then 12 more: 9.5 to 11.2 °C at points 8-11 (high threshold 8). */
const FIRST_TEMPS = [
  4.8, 5.0, 5.1, 5.3, 5.2, 5.6, 6.1, 7.4, 9.5, 10.2, 11.2, 9.1, 7.2, 6.0, 5.4, 5.1, 4.9, 4.7, 4.6,
  4.8,
];
const SECOND_TEMPS = [4.2, 4.0, 3.8, 3.9, 4.1, 4.4, 4.6, 4.9, 5.0, 5.2, 5.1, 5.0];
const SECOND_OFFSET = FIRST_TEMPS.length + 4;

const ORIGIN = { latitude: 52.3676, longitude: 4.9041 };
const DESTINATION = { latitude: 51.9244, longitude: 4.4777 };

interface Shipment {
  recordId: string;
  start: number;
}

/** The shipment, made through the API as the administrator. */
async function createShipment(api: APIRequestContext): Promise<Shipment> {
  await apiSignIn(api);
  const origin = (await post(api, '/api/products/travel-locations/', {
    name: `E2E Amsterdam DC ${run}`,
    address: 'Amsterdam',
    ...ORIGIN,
    origin: true,
  })) as { id: string };
  const destination = (await post(api, '/api/products/travel-locations/', {
    name: `E2E Rotterdam Hospital ${run}`,
    address: 'Rotterdam',
    ...DESTINATION,
    destination: true,
  })) as { id: string };

  const start = Math.floor(Date.now() / 1000) - 6 * HOUR;
  const common = { ...xt1Upload(SERIAL, start, INTERVAL), mobile_app_version: '3.2.1' };
  const started = (await post(api, '/api/devices/xt1/start-action/', {
    ...common,
    timestamp: iso(start),
    ...ORIGIN,
    primary_reference: REFERENCE,
    shipper_name_address_id: origin.id,
    receiver_name_address_id: destination.id,
    carrier: 'E2E Cold Express',
  })) as { record_id: string };
  // Near the origin (still inside the departure radius), then one position on the way:
  // one sample outside is not a departure (two are needed), so the trip stays Not departed.
  await post(api, '/api/devices/xt1/scans/', {
    ...common,
    timestamp: iso(start + FIRST_TEMPS.length * INTERVAL),
    latitude: ORIGIN.latitude + 0.002,
    longitude: ORIGIN.longitude,
    temps: FIRST_TEMPS,
  });
  await post(api, '/api/devices/xt1/scans/', {
    ...common,
    timestamp: iso(start + (SECOND_OFFSET + SECOND_TEMPS.length) * INTERVAL),
    latitude: 52.16,
    longitude: 4.49,
    temps: SECOND_TEMPS,
    temperatures_offset_index: SECOND_OFFSET,
  });
  return { recordId: started.record_id, start };
}

/** MM/DD/YYYY HH:mm digits of an instant in UTC (the administrator's zone). */
function pickerDigits(seconds: number): string {
  const d = new Date(seconds * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${d.getUTCFullYear()}${two(d.getUTCHours())}${two(d.getUTCMinutes())}`;
}

async function openRecord(page: Page, recordId: string): Promise<void> {
  await page.goto(`/recorddetails/${recordId}`);
  await signIn(page);
  await expect(page).toHaveURL(new RegExp(`/recorddetails/${recordId}$`));
  await expect(page.getByRole('heading', { name: `Record ${recordId}`, level: 1 })).toBeVisible();
}

test.describe('record detail [SPEC-7.2, RULE-TRIP-3, FEAT-CHART]', () => {
  let shipment: Shipment;

  test.beforeAll(async ({ playwright }, testInfo) => {
    const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
    try {
      shipment = await createShipment(api);
    } finally {
      await api.dispose();
    }
  });

  test('shows the shipment; acknowledge, dismiss, edit details and trip times without a reload', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const { recordId } = shipment;
    await openRecord(page, recordId);
    // A marker that a full page load would wipe out: everything below happens in place.
    await page.evaluate(() => {
      (window as unknown as { __sameDocument: boolean }).__sameDocument = true;
    });

    await test.step('header, summary, chart, map', async () => {
      await expect(page.getByText(`Tag ${SERIAL} · XT1 NFC MU`)).toBeVisible();
      const status = page.getByLabel('Status', { exact: true });
      await expect(status.getByText('Alarm', { exact: true })).toBeVisible();
      await expect(status.getByText('Not departed')).toBeVisible();
      const summary = page.getByRole('definition').filter({ hasText: '11.2 °C' });
      await expect(summary.first()).toBeVisible();
      // The last scan's position, never the -91 / -181 sentinels.
      await expect(page.getByText('52.1600, 4.4900').first()).toBeVisible();
      await expect(page.getByText(/-91|-181/)).toHaveCount(0);

      const chart = page.getByRole('application', { name: /^Temperature chart of 32 points/ });
      await expect(chart).toBeVisible();
      await expect(chart.locator('canvas')).toBeVisible();
      await expect(chart).toHaveAttribute('aria-label', /Highest 11\.2 °C, lowest 3\.8 °C/);

      // Drag to zoom, hover to read a time and a value, double-click to show everything.
      const reset = page.getByRole('button', { name: 'Reset zoom' });
      await expect(reset).toBeDisabled();
      const over = chart.locator('.u-over');
      const box = (await over.boundingBox())!;
      await page.mouse.move(box.x + box.width * 0.2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 8 });
      await page.mouse.up();
      await expect(reset).toBeEnabled();
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2);
      await expect(chart.locator('.u-legend')).toContainText(
        /\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}.*\d+\.\d °C/,
      );
      await over.dblclick();
      await expect(reset).toBeDisabled();

      // The chart follows its container's width.
      const wide = (await chart.locator('canvas').boundingBox())!.width;
      await page.setViewportSize({ width: 900, height: 720 });
      await expect
        .poll(async () => (await chart.locator('canvas').boundingBox())!.width)
        .toBeLessThan(wide - 100);
      await page.setViewportSize({ width: 1280, height: 720 });

      const locations = page.getByRole('region', { name: 'Locations' });
      await expect(locations.getByText(`E2E Amsterdam DC ${run}`)).toBeVisible();
      await expect(locations.getByText(`E2E Rotterdam Hospital ${run}`)).toBeVisible();
      await expect(locations.locator('.leaflet-container')).toBeVisible();
      await expect(locations.locator('path.leaflet-interactive').first()).toBeAttached();
    });

    const alarms = page.getByRole('region', { name: 'Alarms' });
    const alarm = alarms.getByRole('listitem').filter({
      has: page.getByRole('heading', { name: 'High excursion' }),
    });

    await test.step('the alarm is listed', async () => {
      await expect(alarm).toHaveCount(1);
      await expect(alarm).toContainText('Peak 11.2 °C');
      await expect(alarm).toContainText('Duration 40m');
    });

    await test.step('acknowledge with a required comment (signed with the password)', async () => {
      await alarm.getByRole('button', { name: 'Acknowledge' }).click();
      const dialog = page.getByRole('dialog', { name: 'Acknowledge alarm' });
      await expect(dialog).toBeVisible();
      const confirm = dialog.getByRole('button', { name: 'Sign and acknowledge' });
      await expect(confirm).toBeDisabled();
      await expect(dialog.getByText('A comment is required')).toBeVisible();
      await dialog.getByRole('radio', { name: 'Reviewed' }).check();
      await dialog.getByLabel('Password').fill(E2E_ADMIN.password);
      await dialog.getByLabel('Comment').fill('   ');
      await expect(confirm).toBeDisabled();
      await dialog.getByLabel('Comment').fill(COMMENT);
      await expect(confirm).toBeEnabled();
      await confirm.click();
      await expect(dialog).toBeHidden();
      await expect(alarm.getByText('Acknowledged', { exact: true })).toBeVisible();
      await expect(alarm).toContainText(COMMENT);
      await expect(alarm).toContainText('Signed by');
    });

    await test.step('dismiss', async () => {
      await alarm.getByRole('button', { name: 'Dismiss' }).click();
      const dialog = page.getByRole('dialog', { name: 'Dismiss alarm?' });
      await expect(dialog.getByRole('button', { name: 'Dismiss' })).toBeDisabled();
      await dialog.getByLabel('Reason').fill(`Sensor handled by the carrier (${run})`);
      await dialog.getByRole('button', { name: 'Dismiss' }).click();
      await expect(dialog).toBeHidden();
      await expect(alarm.getByText('Dismissed', { exact: true })).toBeVisible();
      const status = page.getByLabel('Status', { exact: true });
      await expect(status.getByText('OK', { exact: true })).toBeVisible();
      await expect(status.getByText('Every alarm dismissed')).toBeVisible();
    });

    await test.step('edit shipment details', async () => {
      await page.getByRole('button', { name: 'Edit shipment details' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit shipment details' });
      await expect(dialog.getByLabel('Primary reference')).toHaveValue(REFERENCE);
      await dialog.getByLabel('Primary reference').fill(NEW_REFERENCE);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
      const details = page.getByRole('region', { name: 'Shipment details' });
      await expect(details.getByText(NEW_REFERENCE)).toBeVisible();
      // Saved on the server: the actions timeline shows the edit once reloaded.
      await expect(
        page.getByRole('region', { name: 'Actions' }).getByText('Update shipment'),
      ).toBeVisible();
    });

    await test.step('edit trip times', async () => {
      await page.getByRole('button', { name: 'Edit trip times' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit trip times' });
      await expect(dialog).toBeVisible();
      const departure = dialog.getByRole('group', { name: 'Departure' });
      await departure.getByRole('spinbutton', { name: 'Month' }).click();
      await page.keyboard.type(pickerDigits(shipment.start + HOUR));
      // The record has alarms: a reason for change is required.
      await dialog
        .getByLabel('Reason for change')
        .fill(`Departure confirmed by the carrier (${run})`);
      await dialog.getByRole('button', { name: 'Save' }).click();
      await expect(dialog).toBeHidden();
      const status = page.getByLabel('Status', { exact: true });
      await expect(status.getByText('In transit')).toBeVisible();
      await expect(page.getByRole('region', { name: 'Shipment details' })).toContainText(
        'In transit',
      );
      await expect(
        page.getByRole('region', { name: 'Actions' }).getByText('Trip edit'),
      ).toBeVisible();
    });

    expect(
      await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument),
    ).toBe(true);

    await test.step('accessibility', async () => {
      await page.getByRole('button', { name: /^Scans/ }).click();
      await expect(page.getByRole('table', { name: 'Scans, newest first' })).toBeVisible();
      await expectNoAccessibilityViolations(page);
    });
  });

  test('an unknown record says so', async ({ page }) => {
    await page.goto('/recorddetails/999999999');
    await signIn(page);
    await expect(page.getByRole('heading', { name: 'Record not found', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to All Records' })).toBeVisible();
  });
});
