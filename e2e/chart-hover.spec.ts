import { expect, test, type Locator, type Page } from '@playwright/test';
import { apiSignIn, iso, post, xt1Upload } from './api';
import { signIn } from './fixtures';

/**
 * A multi-day record's chart (issue 35, item 6): the time axis carries the
 * date when the span crosses a day, and the hover readout (time and value
 * under the cursor) sits beside the cursor inside the plot, so at 1280×800 it
 * is on screen without scrolling. The record: 3 days of readings 10 minutes
 * apart, in UTC (the administrator's zone).
 */

const SHOTS = process.env.E2E_SCREENSHOTS;
const run = Date.now().toString(36);
const SERIAL = `E2E-CH-${run}`;
const INTERVAL = 600;
const COUNT = 3 * 144;
const TEMPS = Array.from(
  { length: COUNT },
  (_, i) => Math.round((5 + Math.sin(i / 20)) * 100) / 100,
);
/** A reading's time as the readout writes it: `11/24/2026, 14:30:00` (UTC). */
const READ_TIME = /^Time:?\s*\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}$/;

let recordId: string;
let start: number;

test.beforeAll(async ({ playwright }, testInfo) => {
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  try {
    await apiSignIn(api);
    // Starting at 09:00 UTC, so the days crossed are not a matter of where midnight falls.
    start = Math.floor(Date.now() / 1000 / 86_400) * 86_400 - 5 * 86_400 + 9 * 3600;
    const common = { ...xt1Upload(SERIAL, start, INTERVAL), mobile_app_version: '3.2.1' };
    const started = (await post(api, '/api/devices/xt1/start-action/', {
      ...common,
      timestamp: iso(start),
    })) as { record_id: string };
    await post(api, '/api/devices/xt1/scans/', {
      ...common,
      timestamp: iso(start + COUNT * INTERVAL),
      temps: TEMPS,
    });
    recordId = started.record_id;
  } finally {
    await api.dispose();
  }
});

/** `MM/DD` of a day after the start, in UTC. */
function dayOf(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}`;
}

/** Every text drawn on a canvas (the axis labels are drawn, not in the page). */
async function recordCanvasText(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const drawn: string[] = [];
    (window as unknown as { drawnTexts: string[] }).drawnTexts = drawn;
    const fillText = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
      drawn.push(String(text));
      return fillText.call(this, text, ...rest);
    };
  });
}

const drawnTexts = (page: Page) =>
  page.evaluate(() => (window as unknown as { drawnTexts: string[] }).drawnTexts.slice());

async function openRecord(page: Page): Promise<Locator> {
  await recordCanvasText(page);
  await page.goto(`/recorddetails/${recordId}`);
  await signIn(page);
  const chart = page.getByRole('application', { name: /^Temperature chart of 432 points/ });
  await expect(chart.locator('canvas')).toBeVisible();
  return chart;
}

/** The readout, its box, and how far the box is from a point (0 when the point is inside). */
async function readoutNear(readout: Locator, x: number, y: number) {
  await expect(readout).toBeVisible();
  const box = (await readout.boundingBox())!;
  const dx = Math.max(box.x - x, 0, x - (box.x + box.width));
  const dy = Math.max(box.y - y, 0, y - (box.y + box.height));
  return { box, distance: Math.hypot(dx, dy) };
}

const within = (box: { x: number; y: number; width: number; height: number }, area: typeof box) =>
  box.x >= area.x - 0.5 &&
  box.y >= area.y - 0.5 &&
  box.x + box.width <= area.x + area.width + 0.5 &&
  box.y + box.height <= area.y + area.height + 0.5;

test('a multi-day chart dates its axis and reads the hover beside the cursor [FEAT-CHART]', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const chart = await openRecord(page);
  const readout = chart.locator('.u-legend');
  const plot = (await chart.locator('.u-over').boundingBox())!;

  await test.step('the time axis carries the days it crosses', async () => {
    // The days after the first, each on the first tick of its day.
    for (const day of [dayOf(start + 86_400), dayOf(start + 2 * 86_400)])
      await expect.poll(() => drawnTexts(page)).toContain(day);
  });

  await test.step('hovering shows the readout beside the cursor, on screen', async () => {
    // The plot is on the first screen at 1280×800: no scrolling before the hover.
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    await expect(readout).toBeHidden();
    const x = plot.x + plot.width * 0.4;
    const y = plot.y + plot.height * 0.5;
    expect(y).toBeLessThan(800);
    await page.mouse.move(x, y);
    const { box, distance } = await readoutNear(readout, x, y);
    expect(distance).toBeLessThanOrEqual(20);
    expect(within(box, { x: 0, y: 0, width: 1280, height: 800 })).toBe(true);
    expect(within(box, plot)).toBe(true);
    await expect(readout.locator('tr').first()).toHaveText(READ_TIME);
    await expect(readout.locator('tr').nth(1)).toHaveText(/^Temperature:?\s*\d+\.\d °C$/);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/chart-hover-1280.png` });
  });

  await test.step('near the right and bottom edges it stays inside the plot', async () => {
    const x = plot.x + plot.width - 4;
    const y = plot.y + plot.height - 4;
    await page.mouse.move(x, y);
    const { box, distance } = await readoutNear(readout, x, y);
    expect(within(box, plot)).toBe(true);
    expect(distance).toBeLessThanOrEqual(20);
    await page.mouse.move(plot.x + plot.width / 2, plot.y - 40);
    await expect(readout).toBeHidden();
  });

  await test.step('the keyboard reading shows the same readout at its point', async () => {
    await chart.focus();
    await page.keyboard.press('End');
    const status = page
      .getByRole('region', { name: 'Temperature', exact: true })
      .getByRole('status');
    await expect(status).toHaveText(/^Point 432 of 432: /);
    const said = (await status.textContent()) ?? '';
    const time = /: (\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2}),/.exec(said)?.[1];
    expect(time).toBeDefined();
    await expect(readout).toBeVisible();
    await expect(readout).toContainText(time!);
    expect(within((await readout.boundingBox())!, plot)).toBe(true);
    if (SHOTS) {
      // The axis under the fixed footer otherwise.
      await chart.evaluate((el) => el.scrollIntoView({ block: 'center' }));
      await page.screenshot({ path: `${SHOTS}/chart-axis-1280.png` });
    }
  });
});

test('on a phone the readout stays inside the plot [FEAT-CHART]', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const chart = await openRecord(page);
  await chart.scrollIntoViewIfNeeded();
  const readout = chart.locator('.u-legend');
  const plot = (await chart.locator('.u-over').boundingBox())!;
  for (const share of [0.05, 0.5, 0.95]) {
    const x = plot.x + plot.width * share;
    const y = plot.y + plot.height * 0.3;
    await page.mouse.move(x, y);
    const { box, distance } = await readoutNear(readout, x, y);
    expect(within(box, plot)).toBe(true);
    expect(within(box, { x: 0, y: 0, width: 375, height: 740 })).toBe(true);
    expect(distance).toBeLessThanOrEqual(20);
  }
  await expect(readout.locator('tr').first()).toHaveText(READ_TIME);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/chart-hover-375.png` });
});
