import { expect, test, type Page, type Response } from '@playwright/test';
import { apiSignIn, iso, post, xt1Upload } from './api';
import { signIn } from './fixtures';

/**
 * A long record's chart (issue 13): the page loads the compact series reduced
 * to the screen's pixel columns (not one object per point), draws it with its
 * excursion, gap and thresholds, and a zoom fetches the window at full
 * resolution. 30,000 points one minute apart between 4 and 6 °C, 30 points at
 * 9 °C from index 15,000, and a gap of 100 points at 20,000.
 */

const SHOTS = process.env.E2E_SCREENSHOTS;
const run = Date.now().toString(36);
const SERIAL = `E2E-LS-${run}`;
const INTERVAL = 60;
const COUNT = 30_000;
const GAP = { from: 20_000, length: 100 };
const temperature = (i: number) =>
  i >= 15_000 && i < 15_030 ? 9 : Math.round((5 + Math.sin(i / 400)) * 100) / 100;
const POINTS = COUNT - GAP.length;

let recordId: string;
let start: number;

test.beforeAll(async ({ playwright }, testInfo) => {
  test.setTimeout(120_000);
  const api = await playwright.request.newContext({ baseURL: testInfo.project.use.baseURL });
  try {
    await apiSignIn(api);
    start = Math.floor(Date.now() / 1000 / 60) * 60 - (COUNT + 60) * INTERVAL;
    const common = { ...xt1Upload(SERIAL, start, INTERVAL), mobile_app_version: '3.2.1' };
    const started = (await post(api, '/api/devices/xt1/start-action/', {
      ...common,
      timestamp: iso(start),
    })) as { record_id: string };
    recordId = started.record_id;
    const temps = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, k) => temperature(from + k));
    // Two scans around the gap: points 0..19,999 and 20,100..29,999.
    await post(api, '/api/devices/xt1/scans/', {
      ...common,
      timestamp: iso(start + GAP.from * INTERVAL),
      temps: temps(0, GAP.from),
    });
    await post(api, '/api/devices/xt1/scans/', {
      ...common,
      timestamp: iso(start + COUNT * INTERVAL),
      temperatures_offset_index: GAP.from + GAP.length,
      temps: temps(GAP.from + GAP.length, COUNT),
    });
  } finally {
    await api.dispose();
  }
});

const isSeries = (response: Response) =>
  response.url().includes('/api/devices/aggregate/record-series/') && response.status() === 200;

async function openRecord(page: Page) {
  const overview = page.waitForResponse((r) => isSeries(r) && !r.url().includes('from='));
  await page.goto(`/recorddetails/${recordId}`);
  await signIn(page);
  const reply = await (await overview).json();
  const chart = page.getByRole('application', {
    name: new RegExp(`^Temperature chart of ${POINTS.toLocaleString('en-US')} points`),
  });
  await expect(chart.locator('canvas')).toBeVisible();
  return { chart, reply };
}

test('a long record draws from the reduced series and zooms to every point [FEAT-COMPACT-SERIES, FEAT-CHART]', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const { chart, reply } = await openRecord(page);
  const card = page.getByRole('region', { name: 'Temperature', exact: true });

  await test.step('the overview is reduced on the server, the excursion and the gap kept', async () => {
    expect(reply.reduced).toBe(true);
    expect(reply.length).toBe(COUNT);
    expect(reply.point_count).toBe(POINTS);
    expect(reply.temperatures.length).toBeLessThan(2 * 4000 + 100);
    expect(reply.temperatures.length).toBeLessThan(COUNT / 4);
    const at = (i: number) => reply.temperatures[reply.indices.indexOf(i)];
    for (let i = 15_000; i < 15_030; i++) expect(at(i)).toBe(9);
    expect(reply.temperatures.filter((v: number | null) => v === null).length).toBeGreaterThan(0);
    await expect(card.getByRole('figure')).toContainText(
      'drawn as the lowest and highest per pixel column',
    );
    await expect(chart).toHaveAttribute('aria-label', /1 excursion|No excursion|excursion/);
    if (SHOTS) {
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/long-series-1280.png` });
    }
  });

  await test.step('dragging across a narrow span fetches that window at full resolution', async () => {
    const over = chart.locator('.u-over');
    const box = (await over.boundingBox())!;
    // The excursion is at the middle of the series (index 15,000 of 30,000): 1.5 % around it.
    const window = page.waitForResponse((r) => isSeries(r) && r.url().includes('from='));
    await page.mouse.move(box.x + box.width * 0.493, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.508, box.y + box.height / 2, { steps: 6 });
    await page.mouse.up();
    const zoomed = await (await window).json();
    expect(zoomed.reduced).toBe(false);
    expect(zoomed.from_index).toBeLessThanOrEqual(15_000);
    expect(zoomed.to_index).toBeGreaterThanOrEqual(15_029);
    expect(zoomed.temperatures.length).toBe(zoomed.to_index - zoomed.from_index + 1);
    await expect(card.getByRole('figure')).toContainText('every point of the zoomed span drawn');
    await expect(card.getByRole('button', { name: 'Reset zoom' })).toBeEnabled();
    // Every minute is drawn now: the cursor 6 px further right reads another minute.
    const legend = chart.locator('.u-legend');
    const readTime = async (x: number) => {
      await page.mouse.move(box.x + x, box.y + box.height / 2);
      return (await legend.locator('tr').first().textContent()) ?? '';
    };
    const times = new Set<string>();
    for (const x of [200, 206, 212, 218]) times.add(await readTime(x));
    expect(times.size).toBe(4);
    await page.mouse.move(0, 0);
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/long-series-zoomed-1280.png` });
    // The keyboard reads the points drawn: Home goes to the first point of the record.
    await chart.focus();
    await page.keyboard.press('Home');
    await expect(card.getByRole('status')).toHaveText(/^Point 1 of \d[\d,]*: .*, 5\.0 °C\.$/);
    await card.getByRole('button', { name: 'Reset zoom' }).click();
    await expect(card.getByRole('button', { name: 'Reset zoom' })).toBeDisabled();
  });

  await test.step('the data table lists every point, asked of the server when shown', async () => {
    const full = page.waitForResponse((r) => isSeries(r) && !r.url().includes('width='));
    await card.getByRole('button', { name: 'Show data table' }).click();
    expect((await (await full).json()).reduced).toBe(false);
    const table = card.getByRole('table', {
      name: new RegExp(`^Temperature readings: ${POINTS.toLocaleString('en-US')} points`),
    });
    await expect(table).toBeVisible();
    await expect(table.locator('tbody tr')).toHaveCount(25);
  });
});

test('a long record on a phone [FEAT-COMPACT-SERIES, FEAT-CHART]', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  const { chart, reply } = await openRecord(page);
  expect(reply.reduced).toBe(true);
  await expect(chart.locator('canvas')).toBeVisible();
  const canvas = (await chart.locator('canvas').boundingBox())!;
  expect(canvas.width).toBeLessThanOrEqual(375);
  if (SHOTS) {
    await chart.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/long-series-375.png` });
  }
});
