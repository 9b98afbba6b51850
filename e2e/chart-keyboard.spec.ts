import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiSignIn, iso, post, xt1Upload } from './api';
import { expectNoAccessibilityViolations, signIn } from './fixtures';

/**
 * The temperature chart read without a mouse (issue 11): the chart is a
 * keyboard stop whose arrow keys, Page Up/Down, Home and End move a
 * highlighted point read by a live region, and a "Show data table" button
 * shows the readings as a paged table. The record is made through the API
 * with known readings (2-8 °C thresholds), the last ones exactly 8 °C (within),
 * 8.42 °C (above) and 1.64 °C (below).
 */

const SHOTS = process.env.E2E_SCREENSHOTS;
const run = Date.now().toString(36);
const SERIAL = `E2E-CK-${run}`;
const INTERVAL = 600;
const COUNT = 60;
/** 60 readings between 4 and 6 °C, then 8 (on the threshold), 8.42 and 1.64. */
const TEMPS = Array.from({ length: COUNT }, (_, i) => {
  if (i === COUNT - 3) return 8;
  if (i === COUNT - 2) return 8.42;
  if (i === COUNT - 1) return 1.64;
  return Math.round((5 + Math.sin(i / 5)) * 100) / 100;
});

/** `11/24/2026, 14:30:00`: en-US, 24-hour, in UTC (the administrator's zone), as the app writes it. */
function shown(seconds: number): string {
  const d = new Date(seconds * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())}/${d.getUTCFullYear()}, ` +
    `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`
  );
}

async function scrollNearTop(target: Locator): Promise<void> {
  await target.evaluate((el) => {
    el.scrollIntoView({ block: 'start' });
    window.scrollBy(0, -100);
  });
}

/** A screenshot (E2E_SCREENSHOTS) with `target` near the top, below the app bar. */
async function shoot(page: Page, target: Locator, name: string): Promise<void> {
  await scrollNearTop(target);
  await page.screenshot({ path: `${SHOTS}/${name}` });
}

let recordId: string;
let start: number;
const timeOf = (i: number) => shown(start + i * INTERVAL);

test.beforeAll(async ({ playwright }, testInfo) => {
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  try {
    await apiSignIn(api);
    start = Math.floor(Date.now() / 1000 / 60) * 60 - 12 * 3600;
    const common = { ...xt1Upload(SERIAL, start, INTERVAL), mobile_app_version: '3.2.1' };
    const started = (await post(api, '/api/devices/xt1/start-action/', {
      ...common,
      timestamp: iso(start),
      latitude: 52.3676,
      longitude: 4.9041,
    })) as { record_id: string };
    await post(api, '/api/devices/xt1/scans/', {
      ...common,
      timestamp: iso(start + COUNT * INTERVAL),
      latitude: 52.3676,
      longitude: 4.9041,
      temps: TEMPS,
    });
    recordId = started.record_id;
  } finally {
    await api.dispose();
  }
});

async function openRecord(page: Page): Promise<Locator> {
  await page.goto(`/recorddetails/${recordId}`);
  await signIn(page);
  await expect(page.getByRole('heading', { name: `Record ${recordId}`, level: 1 })).toBeVisible();
  const chart = page.getByRole('application', { name: /^Temperature chart of 60 points/ });
  await expect(chart.locator('canvas')).toBeVisible();
  return chart;
}

/** Presses Tab until `target` has the focus (at most `limit` times); answers the presses. */
async function tabTo(page: Page, target: Locator, limit = 80): Promise<number> {
  for (let presses = 1; presses <= limit; presses++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((el) => el === document.activeElement)) return presses;
  }
  throw new Error(`Tab never reached the target in ${limit} presses`);
}

test('the chart is read point by point with the keyboard, and as a paged table [FEAT-CHART, FEAT-ACCESSIBILITY]', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const chart = await openRecord(page);
  const card = page.getByRole('region', { name: 'Temperature', exact: true });
  const live = card.getByRole('status');
  await expect(live).toHaveAttribute('aria-live', 'polite');
  await expect(live).toHaveText('');

  await test.step('Tab reaches the chart; it says how to read it', async () => {
    await tabTo(page, chart);
    await expect(chart).toBeFocused();
    await expect(chart).toHaveAttribute('aria-roledescription', 'chart');
    await expect(chart).toHaveAttribute('aria-label', /Thresholds: 2\.0 °C to 8\.0 °C/);
    await expect(chart).toHaveAccessibleDescription(/arrow keys, Page Up, Page Down, Home and End/);
    await expect(chart).toHaveCSS('outline-style', 'solid');
  });

  await test.step('End, Left, Home and Page Up move the point; the live region reads it', async () => {
    // The chart and the live region in view for the screenshot (scrolling later would not matter).
    if (SHOTS) await scrollNearTop(card);
    await page.keyboard.press('End');
    await expect(live).toHaveText(`Point 60 of 60: ${timeOf(59)}, 1.6 °C, below low threshold.`);
    // uPlot's cursor follows: its legend shows the same time.
    await expect(chart.locator('.u-legend')).toContainText(timeOf(59));
    await page.keyboard.press('ArrowLeft');
    await expect(live).toHaveText(`Point 59 of 60: ${timeOf(58)}, 8.4 °C, above high threshold.`);
    await expect(chart.locator('.u-legend')).toContainText(timeOf(58));
    await expect(chart.locator('.u-legend')).toContainText('8.4 °C');
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/chart-keyboard-1280.png` });
    // Exactly on the high threshold is within it (alarms count points strictly above).
    await page.keyboard.press('ArrowLeft');
    await expect(live).toHaveText(`Point 58 of 60: ${timeOf(57)}, 8.0 °C.`);
    await page.keyboard.press('Home');
    await expect(live).toHaveText(`Point 1 of 60: ${timeOf(0)}, ${TEMPS[0]!.toFixed(1)} °C.`);
    await page.keyboard.press('PageUp');
    await expect(live).toHaveText(new RegExp(`^Point 7 of 60: ${timeOf(6)}, `));
    await page.keyboard.press('ArrowLeft');
    await expect(live).toHaveText(new RegExp(`^Point 6 of 60: ${timeOf(5)}, `));
    await expect(chart).toBeFocused();
  });

  await test.step('the data table shows the readings a page at a time', async () => {
    const toggle = card.getByRole('button', { name: 'Show data table' });
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    const table = card.getByRole('table', { name: /^Temperature readings: 60 points, in °C/ });
    await expect(table).toHaveCount(0);
    await toggle.focus();
    await page.keyboard.press('Enter');
    const hide = card.getByRole('button', { name: 'Hide data table' });
    await expect(hide).toHaveAttribute('aria-expanded', 'true');
    await expect(table).toBeVisible();
    await expect(hide).toHaveAttribute('aria-controls', /.+/);
    const rows = table.locator('tbody tr');
    await expect(rows).toHaveCount(25);
    await expect(rows.first()).toHaveText(
      ['1', timeOf(0), `${TEMPS[0]!.toFixed(1)} °C`, 'Within thresholds'].join(''),
    );
    await expect(rows.first().getByRole('rowheader')).toHaveText(timeOf(0));

    await card.getByRole('button', { name: 'Go to last page' }).click();
    await expect(rows).toHaveCount(10);
    await expect(rows.last()).toHaveText(
      ['60', timeOf(59), '1.6 °C', 'Below low threshold'].join(''),
    );
    await expect(rows.nth(8)).toHaveText(
      ['59', timeOf(58), '8.4 °C', 'Above high threshold'].join(''),
    );
    await expect(card.getByText('51–60 of 60')).toBeVisible();
    await expectNoAccessibilityViolations(page);
    if (SHOTS)
      await shoot(
        page,
        card.getByRole('button', { name: 'Hide data table' }),
        'chart-table-1280.png',
      );
    await hide.click();
    await expect(table).toHaveCount(0);
  });
});

test('zoomed in, the keyboard brings the point into view [FEAT-CHART, FEAT-ACCESSIBILITY]', async ({
  page,
}) => {
  const chart = await openRecord(page);
  const card = page.getByRole('region', { name: 'Temperature', exact: true });
  const reset = card.getByRole('button', { name: 'Reset zoom' });
  const over = chart.locator('.u-over');
  const box = (await over.boundingBox())!;
  // Zoom to the first half, then take the mouse away.
  await page.mouse.move(box.x + box.width * 0.05, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * 0.5, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await expect(reset).toBeEnabled();
  await page.mouse.move(0, 0);

  await chart.focus();
  await page.keyboard.press('End');
  await expect(card.getByRole('status')).toHaveText(
    `Point 60 of 60: ${timeOf(59)}, 1.6 °C, below low threshold.`,
  );
  // The view moved (still zoomed) so the highlighted point is drawn inside the plot.
  await expect(reset).toBeEnabled();
  await expect(chart.locator('.u-legend')).toContainText(timeOf(59));
  await expect
    .poll(async () => {
      const point = await chart.locator('.u-cursor-pt').first().boundingBox();
      return point !== null && point.x >= box.x && point.x + point.width <= box.x + box.width + 1;
    })
    .toBe(true);
});

test('on a phone the chart and its table fit the screen [FEAT-CHART, FEAT-ACCESSIBILITY]', async ({
  page,
}) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const chart = await openRecord(page);
  const card = page.getByRole('region', { name: 'Temperature', exact: true });
  if (SHOTS) await scrollNearTop(chart);
  await chart.focus();
  await page.keyboard.press('End');
  await expect(card.getByRole('status')).toHaveText(/^Point 60 of 60: .*below low threshold\.$/);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/chart-keyboard-375.png` });
  await card.getByRole('button', { name: 'Show data table' }).click();
  const table = card.getByRole('table', { name: /^Temperature readings/ });
  await expect(table.locator('tbody tr')).toHaveCount(25);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  const box = (await table.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  await expectNoAccessibilityViolations(page);
  if (SHOTS) await shoot(page, table, 'chart-table-375.png');
});
