import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Page } from '@playwright/test';
import { benchUser, startBench } from './bench-server';
import { fmt } from './measure';

/**
 * The web app as a user's browser meets it (headless Debian Chromium):
 * - the JavaScript the first route (/, the dashboard, signed in) loads, gzip;
 * - the whole app's JavaScript, gzip;
 * - the time to draw the temperature chart of a 100,000-point record on the
 *   record page (User Timing `coldtrace:chart-draw`: plot made to first draw),
 *   against a baseline in the same page: one plain canvas polyline of the same
 *   points.
 * Aims of the records-screens issue: first route <= 250 kB gzip, chart < 150 ms.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'apps/web/dist');
const POINTS = 100_000;
const INTERVAL = 60;
const DRAWS = 5;

const gzipKb = (bytes: Buffer) => gzipSync(bytes, { level: 9 }).length / 1024;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;

function build(): void {
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`web build failed:\n${result.stdout}${result.stderr}`);
}

function wholeAppKb(): { kb: number; files: number } {
  const assets = path.join(DIST, 'assets');
  const files = readdirSync(assets).filter((f) => f.endsWith('.js'));
  const kb = files.reduce((sum, f) => sum + gzipKb(readFileSync(path.join(assets, f))), 0);
  return { kb, files: files.length };
}

/** A 2-8 °C log with a warm afternoon every few days, so the chart has excursions to shade. */
function temperatures(): number[] {
  return Array.from({ length: POINTS }, (_, i) => {
    const day = (i * INTERVAL) / 86_400;
    const warm = Math.sin(day * Math.PI * 2) > 0.97 ? 4 : 0;
    return Math.round((5 + 2 * Math.sin(i / 300) + warm + Math.sin(i * 12.9898) * 0.3) * 100) / 100;
  });
}

async function uploadRecord(baseUrl: string, token: string): Promise<string> {
  const start = Math.floor(Date.now() / 1000) - POINTS * INTERVAL - 3600;
  const body = {
    tag_id: 'WEB-BENCH-1',
    tag_serial_number: 'WEB-BENCH-1',
    tag_type: 'XT1_NFC_MU',
    timestamp: new Date((start + POINTS * INTERVAL) * 1000).toISOString(),
    high_threshold: 8,
    low_threshold: 2,
    num_consecutive_excursions: 2,
    measurement_interval: INTERVAL,
    start_delay: 0,
    start_time_seconds: start,
    latitude: 47.5596,
    longitude: 7.5886,
    mobile_device_type: 'ANDROID',
    mobile_app_version: 'bench',
    temps: temperatures(),
  };
  const headers = { authorization: `Token ${token}`, 'content-type': 'application/json' };
  const res = await fetch(`${baseUrl}/api/devices/xt1/scans/`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  const list = await fetch(`${baseUrl}/api/devices/xt1/records/?page_size=1`, { headers });
  const records = (await list.json()) as { id: string }[];
  return records[0]!.id;
}

/** Baseline: the same points as one polyline on a canvas of the chart's size, in this page. */
async function baselineMs(page: Page): Promise<number> {
  return page.evaluate((points) => {
    const canvas = document.createElement('canvas');
    canvas.width = 1200;
    canvas.height = 360;
    document.body.append(canvas);
    const ys = Array.from({ length: points }, (_, i) => 5 + 2 * Math.sin(i / 300));
    const start = performance.now();
    const ctx = canvas.getContext('2d')!;
    ctx.beginPath();
    for (let i = 0; i < points; i++) {
      const x = (i / points) * canvas.width;
      const y = canvas.height - ((ys[i]! - 2) / 6) * canvas.height;
      if (i === 0) ctx.moveTo(x, y);
      else ctx.lineTo(x, y);
    }
    ctx.stroke();
    ctx.getImageData(0, 0, 1, 1); // wait for the drawing to be done
    const ms = performance.now() - start;
    canvas.remove();
    return ms;
  }, POINTS);
}

export async function webBench(): Promise<void> {
  build();
  const whole = wholeAppKb();
  const bench = await startBench({ webDist: DIST });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const { token, sessionCookie } = await benchUser(bench.handle);
    const recordId = await uploadRecord(bench.baseUrl, token);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addCookies([{ name: 'sessionid', value: sessionCookie, url: bench.baseUrl }]);
    const page = await context.newPage();

    // First route: every script the dashboard loads on a cold cache.
    const scripts: Promise<{ name: string; kb: number }>[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      const name = new URL(response.url()).pathname.replace('/assets/', '');
      scripts.push(response.body().then((body) => ({ name, kb: gzipKb(body) })));
    });
    await page.goto(`${bench.baseUrl}/`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.waitForLoadState('networkidle');
    const firstRoute = (await Promise.all(scripts)).sort((a, b) => b.kb - a.kb);
    const firstRouteKb = firstRoute.reduce((sum, s) => sum + s.kb, 0);

    // The chart of the 100,000-point record, drawn DRAWS times (a reload each).
    const draws: number[] = [];
    const loads: number[] = [];
    for (let i = 0; i < DRAWS; i++) {
      const t0 = Date.now();
      await page.goto(`${bench.baseUrl}/recorddetails/${recordId}`);
      const handle = await page.waitForFunction(
        () => performance.getEntriesByName('coldtrace:chart-draw')[0]?.duration,
        undefined,
        { timeout: 60_000 },
      );
      loads.push(Date.now() - t0);
      draws.push(Number(await handle.jsonValue()));
    }
    const baselines: number[] = [];
    for (let i = 0; i < DRAWS; i++) baselines.push(await baselineMs(page));
    const draw = median(draws);
    const baseline = median(baselines);

    console.log(
      `first route (/ signed in): ${fmt(firstRouteKb)} kB gzip in ${firstRoute.length} scripts (aim <= 250)`,
    );
    console.log(
      `  largest: ${firstRoute
        .slice(0, process.env.BENCH_WEB_ALL ? undefined : 6)
        .map((s) => `${s.name} ${fmt(s.kb)}`)
        .join(', ')}`,
    );
    console.log(`whole app: ${fmt(whole.kb)} kB gzip in ${whole.files} scripts`);
    console.log(
      `chart, ${fmt(POINTS, 0)} points: draw ${fmt(draw)} ms median of ${DRAWS} ` +
        `(${draws.map((d) => fmt(d, 0)).join(', ')}; aim < 150), ` +
        `page open to drawn ${fmt(median(loads), 0)} ms`,
    );
    console.log(
      `baseline, one canvas polyline of the same points: ${fmt(baseline)} ms; ` +
        `chart / baseline ${fmt(draw / baseline, 2)}`,
    );
  } finally {
    await browser.close();
    await bench.close();
  }
}
