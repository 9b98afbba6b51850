import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { benchUser, startBench } from './bench-server';
import { fmt } from './measure';

/**
 * Compression of replies (issue 13), on the product as it runs (COMPRESSION on):
 * - the series reply of a 60,000-point record (GET
 *   /api/devices/aggregate/record-temperatures/, the record uploaded through the
 *   API): bytes on the wire plain, gzip and br; time per reply (request sent to
 *   last byte received, not decoded) at 1 and 10 concurrent clients, compressed
 *   against plain in the same run; and what the same body costs to compress in
 *   this process at other brotli qualities and gzip levels (why quality 4);
 * - the first route (/ signed in, the dashboard, listed by Chromium): bytes of
 *   its files plain, gzip and br (the build's precompressed copies), and the
 *   time to fetch them all at 1 and 10 concurrent clients.
 * Loopback has no bandwidth limit, so it shows the server's cost only; the
 * transfer time saved is derived for a few link speeds.
 * BENCH_COMPRESSION_POINTS (60000) and BENCH_COMPRESSION_ROUNDS (requests per
 * client, 8) make it bigger; BENCH_COMPRESSION_BUILD=1 rebuilds the web app.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIST = path.join(ROOT, 'apps/web/dist');
const POINTS = Number(process.env.BENCH_COMPRESSION_POINTS ?? 60_000);
const ROUNDS = Number(process.env.BENCH_COMPRESSION_ROUNDS ?? 8);
const INTERVAL = 60;
const ENCODINGS = ['identity', 'gzip', 'br'] as const;
type Encoding = (typeof ENCODINGS)[number];
/** Link speeds (Mbit/s) for the derived transfer time. */
const LINKS = [10, 50, 200];

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

interface Reply {
  status: number;
  encoding: string;
  bytes: number;
  ms: number;
}

/** A GET whose body is counted as it arrives on the wire (no decoding, unlike fetch). */
function get(url: string, headers: Record<string, string>): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const request = http.get(url, { agent, headers }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          encoding: String(response.headers['content-encoding'] ?? 'identity'),
          bytes,
          ms: performance.now() - start,
        }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

function getBody(url: string, headers: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { ...headers, 'accept-encoding': 'identity' } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve(Buffer.concat(chunks)));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** `clients` loops of `rounds` calls of `fn` at once; each call's time, and the calls per second. */
async function concurrently(
  clients: number,
  rounds: number,
  fn: () => Promise<number>,
): Promise<{ times: number[]; perSecond: number }> {
  await fn(); // warm-up
  const times: number[] = [];
  const start = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < rounds; i++) times.push(await fn());
    }),
  );
  return { times, perSecond: (times.length * 1000) / (performance.now() - start) };
}

function ensureBuilt(): void {
  if (!process.env.BENCH_COMPRESSION_BUILD && existsSync(path.join(DIST, 'index.html.br'))) return;
  const result = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`web build failed:\n${result.stdout}${result.stderr}`);
}

/** A 2-8 °C log with a warm afternoon every few days (two decimals, as a logger sends). */
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
    tag_id: 'COMPRESSION-BENCH-1',
    tag_serial_number: 'COMPRESSION-BENCH-1',
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
  return ((await list.json()) as { id: string }[])[0]!.id;
}

/** The files the first route (/, signed in) loads, as Chromium requests them. */
async function firstRouteFiles(baseUrl: string, sessionCookie: string): Promise<string[]> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const context = await browser.newContext();
    await context.addCookies([{ name: 'sessionid', value: sessionCookie, url: baseUrl }]);
    const page = await context.newPage();
    const files = new Set<string>();
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.origin === baseUrl && !url.pathname.startsWith('/api/')) files.add(url.pathname);
    });
    await page.goto(`${baseUrl}/`);
    await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
    await page.waitForLoadState('networkidle');
    return [...files];
  } finally {
    await browser.close();
  }
}

const kb = (bytes: number) => `${fmt(bytes / 1024)} kB`;
const wireMs = (bytes: number, mbit: number) => (bytes * 8) / (mbit * 1000);

function levelTable(body: Buffer): string[] {
  const time = (f: () => Buffer) => {
    f();
    const start = performance.now();
    const out = f();
    return { bytes: out.length, ms: performance.now() - start };
  };
  const rows: string[] = [];
  for (const q of [1, 2, 3, 4, 5, 11]) {
    const r = time(() =>
      brotliCompressSync(body, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: q,
          [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      }),
    );
    rows.push(`br q${q}: ${kb(r.bytes)} (${fmt(r.bytes / POINTS, 2)} B/point) in ${fmt(r.ms)} ms`);
  }
  for (const level of [1, 6, 9]) {
    const r = time(() => gzipSync(body, { level }));
    rows.push(
      `gzip ${level}: ${kb(r.bytes)} (${fmt(r.bytes / POINTS, 2)} B/point) in ${fmt(r.ms)} ms`,
    );
  }
  return rows;
}

export async function compressionBench(): Promise<void> {
  ensureBuilt();
  const bench = await startBench({ webDist: DIST });
  try {
    const { token, sessionCookie } = await benchUser(bench.handle);
    const recordId = await uploadRecord(bench.baseUrl, token);
    const cookie = { cookie: `sessionid=${sessionCookie}` };
    const seriesUrl = `${bench.baseUrl}/api/devices/aggregate/record-temperatures/?record_ids=${recordId}`;
    const accept = (encoding: Encoding) => ({ ...cookie, 'accept-encoding': encoding });

    // The series reply: bytes per encoding.
    const series: Record<Encoding, Reply> = {} as Record<Encoding, Reply>;
    for (const encoding of ENCODINGS) {
      const reply = await get(seriesUrl, accept(encoding));
      if (reply.status !== 200) throw new Error(`series answered ${reply.status}`);
      if (reply.encoding !== encoding) {
        throw new Error(`asked ${encoding}, the series came ${reply.encoding}`);
      }
      series[encoding] = reply;
    }
    console.log(`series reply, ${fmt(POINTS, 0)} points (bytes on the wire):`);
    for (const encoding of ENCODINGS) {
      const { bytes } = series[encoding];
      console.log(
        `  ${encoding.padEnd(8)} ${kb(bytes).padStart(11)}  ${fmt(bytes / POINTS, 2)} B/point  ` +
          `${fmt(series.identity.bytes / bytes, 1)}x smaller than plain`,
      );
    }

    // The series reply: time per reply, compressed against plain.
    for (const clients of [1, 10]) {
      const runs = {} as Record<Encoding, { times: number[]; perSecond: number }>;
      for (const encoding of ENCODINGS) {
        runs[encoding] = await concurrently(clients, ROUNDS, async () => {
          const r = await get(seriesUrl, accept(encoding));
          if (r.status !== 200) throw new Error(`series answered ${r.status}`);
          return r.ms;
        });
      }
      const plain = runs.identity;
      console.log(`series reply, ${clients} client(s), ${ROUNDS} requests each (loopback):`);
      for (const encoding of ENCODINGS) {
        const run = runs[encoding];
        const p50 = percentile(run.times, 50);
        const p95 = percentile(run.times, 95);
        console.log(
          `  ${encoding.padEnd(8)} p50 ${fmt(p50, 0)} ms, p95 ${fmt(p95, 0)} ms, ${fmt(run.perSecond)} req/s` +
            (encoding === 'identity'
              ? ''
              : `; p50 / plain ${fmt(p50 / percentile(plain.times, 50), 2)}, ` +
                `req/s / plain ${fmt(run.perSecond / plain.perSecond, 2)}`),
        );
      }
      if (clients === 1) {
        const plainP50 = percentile(plain.times, 50);
        const brP50 = percentile(runs.br.times, 50);
        const links = LINKS.map(
          (mbit) =>
            `${mbit} Mbit/s: plain ${fmt(plainP50 + wireMs(series.identity.bytes, mbit), 0)} ms, ` +
            `br ${fmt(brP50 + wireMs(series.br.bytes, mbit), 0)} ms`,
        );
        console.log(`  with the transfer at ${links.join('; ')}`);
      }
    }

    // What the same body costs to compress, per level, in this process (one core).
    const body = await getBody(seriesUrl, cookie);
    console.log(`series body compressed in-process (${kb(body.length)} plain):`);
    for (const row of levelTable(body)) console.log(`  ${row}`);

    // The first route's files.
    const files = await firstRouteFiles(bench.baseUrl, sessionCookie);
    const totals: Record<Encoding, number> = { identity: 0, gzip: 0, br: 0 };
    for (const file of files) {
      for (const encoding of ENCODINGS) {
        const r = await get(`${bench.baseUrl}${file}`, accept(encoding));
        if (r.status !== 200) throw new Error(`${file} answered ${r.status}`);
        totals[encoding] += r.bytes;
      }
    }
    console.log(`first route (/ signed in): ${files.length} files (html, scripts, styles, icon):`);
    for (const encoding of ENCODINGS) {
      console.log(
        `  ${encoding.padEnd(8)} ${kb(totals[encoding]).padStart(11)}  ` +
          `${fmt(totals.identity / totals[encoding], 1)}x smaller than plain`,
      );
    }
    for (const clients of [1, 10]) {
      const runs = {} as Record<Encoding, { times: number[]; perSecond: number }>;
      for (const encoding of ['identity', 'br'] as const) {
        runs[encoding] = await concurrently(clients, ROUNDS, async () => {
          const start = performance.now();
          await Promise.all(files.map((f) => get(`${bench.baseUrl}${f}`, accept(encoding))));
          return performance.now() - start;
        });
      }
      const plainP50 = percentile(runs.identity.times, 50);
      const brP50 = percentile(runs.br.times, 50);
      console.log(
        `  all files at once, ${clients} client(s): plain p50 ${fmt(plainP50, 1)} ms, ` +
          `br p50 ${fmt(brP50, 1)} ms; br / plain ${fmt(brP50 / plainP50, 2)}`,
      );
    }
    console.log(
      `  transfer at ${LINKS.map(
        (mbit) =>
          `${mbit} Mbit/s: plain ${fmt(wireMs(totals.identity, mbit), 0)} ms, br ${fmt(wireMs(totals.br, mbit), 0)} ms`,
      ).join('; ')}`,
    );
  } finally {
    agent.destroy();
    await bench.close();
  }
}
