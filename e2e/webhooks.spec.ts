import { createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { iso, post, xt1Upload } from './api';
import { expectNoAccessibilityViolations, openSettingsItem, signIn } from './fixtures';

/**
 * The Webhooks page (issue 15 item 2): add a webhook (its secret shown once),
 * an excursion reaches a receiver on 127.0.0.1 signed with that secret (the
 * e2e server runs with WEBHOOK_ALLOW_PRIVATE=true), the delivery log shows it
 * and sends it again, edit, deactivate, delete.
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

interface Got {
  headers: http.IncomingHttpHeaders;
  body: string;
}

test('Webhooks: add one, its secret shown once, an excursion delivered signed, redeliver, deactivate, delete [FEAT-WEBHOOKS]', async ({
  page,
}) => {
  const received: Got[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook-${uid()}`;
  try {
    await page.goto('/login');
    await signIn(page);
    await openSettingsItem(page, 'Webhooks');
    await expect(page).toHaveURL(/\/organization\/webhooks$/);
    await expect(page.getByRole('heading', { name: 'Webhooks' })).toBeVisible();

    await page.getByRole('button', { name: 'Add webhook' }).click();
    let dialog = page.getByRole('dialog', { name: 'Add a webhook' });
    // A bad address is refused, naming the field.
    await dialog.getByLabel('URL').fill('not a url');
    await dialog.getByRole('button', { name: 'Add' }).click();
    await expect(dialog.getByText('Enter a valid URL')).toBeVisible();
    await dialog.getByLabel('URL').fill(url);
    await dialog.getByLabel('Description').fill('ERP link');
    await dialog.getByRole('checkbox', { name: /Alarm acknowledged/ }).check();
    await expectNoAccessibilityViolations(page);
    await dialog.getByRole('button', { name: 'Add' }).click();

    const shown = page.getByRole('dialog', { name: 'Signing secret' });
    await expect(shown.getByText('It is shown only once')).toBeVisible();
    await expect(shown.getByRole('button', { name: 'Copy' })).toBeVisible();
    const secret = await shown.getByRole('textbox').inputValue();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    await screenshots(page, 'webhook-secret');
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByText(secret)).toHaveCount(0);
    const row = page.getByRole('row', { name: new RegExp(url) });
    await expect(row.getByText('Active')).toBeVisible();

    // An excursion (11 and 12 °C against 8) on a new tag, uploaded through the API.
    const serial = `WH-${uid()}`;
    const start = Math.floor(Date.now() / 1000) - 3600;
    await post(page.request, '/api/devices/xt1/scans/', {
      ...xt1Upload(serial, start, 60),
      timestamp: iso(start + 600),
      temps: [5, 5, 11, 12, 5],
    });
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(1);
    const first = received[0]!;
    expect(first.headers['x-coldtrace-event']).toBe('alarm.raised');
    const signature = `sha256=${createHmac('sha256', secret).update(first.body).digest('hex')}`;
    expect(first.headers['x-coldtrace-signature']).toBe(signature);
    const deliveryId = first.headers['x-coldtrace-delivery'] as string;

    await row.getByRole('button', { name: `Deliveries of ${url}` }).click();
    const log = page.getByRole('dialog', { name: 'Deliveries' });
    const entry = log.getByRole('row', { name: new RegExp(deliveryId) });
    await expect(entry.getByText('Delivered')).toBeVisible();
    await expect(entry.getByText('204', { exact: true })).toBeVisible();
    await expectNoAccessibilityViolations(page);
    await screenshots(page, 'webhook-deliveries');
    await entry.getByRole('button', { name: `Redeliver ${deliveryId}` }).click();
    await expect.poll(() => received.length, { timeout: 30_000 }).toBe(2);
    expect(received[1]!.headers['x-coldtrace-delivery']).toBe(deliveryId);
    expect(received[1]!.body).toBe(first.body);
    await log.getByRole('button', { name: 'Close' }).click();

    // Deactivate.
    await row.getByRole('button', { name: `Edit ${url}` }).click();
    dialog = page.getByRole('dialog', { name: 'Edit webhook' });
    await dialog.getByLabel('Active').uncheck();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(row.getByText('Inactive')).toBeVisible();
    await screenshots(page, 'webhooks');

    // Delete.
    await row.getByRole('button', { name: `Delete ${url}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByRole('row', { name: new RegExp(url) })).toHaveCount(0);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
