import http from 'node:http';
import { benchUser, startBench } from './bench-server';
import { fmt } from './measure';

/**
 * The chart's series (issue 13, docs/decisions/compact-series.md): one record
 * of BENCH_SERIES_POINTS points (60,000), uploaded through the API, read by
 * - the spec's aggregate (GET /api/devices/aggregate/record-temperatures/, an
 *   ISO timestamp and an index per point; the baseline), and
 * - the compact call the record page now reads (GET
 *   /api/devices/aggregate/record-series/ with width=1500, the columns a
 *   1280 px screen asks for: min/max per column, excursions exact).
 * Printed: bytes per point on the wire (plain, gzip, br: the body counted as
 * it arrives, not decoded), and the time per reply (request sent to last
 * byte) at 1 and 10 concurrent clients, p50 and p95, as the browser asks
 * (accept-encoding: gzip, deflate, br), the compact call against the
 * aggregate in the same run. Also the whole series without width and a
 * zoom window of 1 %, for reference. BENCH_SERIES_ROUNDS (requests per
 * client, 10) makes it longer.
 */

const POINTS = Number(process.env.BENCH_SERIES_POINTS ?? 60_000);
const ROUNDS = Number(process.env.BENCH_SERIES_ROUNDS ?? 10);
const INTERVAL = 60;
const WIDTH = 1500;
const BROWSER = 'gzip, deflate, br';

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

interface Reply {
  status: number;
  encoding: string;
  bytes: number;
  ms: number;
}

/** A GET whose body is counted as it arrives on the wire (fetch would decode it). */
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

const percentile = (values: readonly number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

/** `clients` loops of ROUNDS calls at once (after one warm-up call each); every call's time. */
async function concurrently(clients: number, fn: () => Promise<number>): Promise<number[]> {
  await Promise.all(Array.from({ length: clients }, () => fn()));
  const times: number[] = [];
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < ROUNDS; i++) times.push(await fn());
    }),
  );
  return times;
}

/** A 2-8 °C log (two decimals, as a logger sends) with a warm excursion every few days. */
function temperatures(): number[] {
  return Array.from({ length: POINTS }, (_, i) => {
    const day = (i * INTERVAL) / 86_400;
    const warm = Math.sin(day * Math.PI * 2) > 0.995 ? 4 : 0;
    return Math.round((5 + 2 * Math.sin(i / 300) + warm + Math.sin(i * 12.9898) * 0.3) * 100) / 100;
  });
}

async function uploadRecord(baseUrl: string, token: string, temps: number[]): Promise<string> {
  const start = Math.floor(Date.now() / 1000) - POINTS * INTERVAL - 3600;
  const headers = { authorization: `Token ${token}`, 'content-type': 'application/json' };
  const res = await fetch(`${baseUrl}/api/devices/xt1/scans/`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      tag_id: 'SERIES-BENCH-1',
      tag_serial_number: 'SERIES-BENCH-1',
      tag_type: 'XT1_NFC_MU',
      timestamp: new Date((start + POINTS * INTERVAL) * 1000).toISOString(),
      high_threshold: 8,
      low_threshold: 2,
      num_consecutive_excursions: 2,
      measurement_interval: INTERVAL,
      start_delay: 0,
      start_time_seconds: start,
      mobile_device_type: 'ANDROID',
      mobile_app_version: 'bench',
      temps,
    }),
  });
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${await res.text()}`);
  const list = await fetch(`${baseUrl}/api/devices/xt1/records/?page_size=1`, { headers });
  return ((await list.json()) as { id: string }[])[0]!.id;
}

export async function seriesBench(): Promise<void> {
  const bench = await startBench();
  try {
    const { token } = await benchUser(bench.handle);
    const temps = temperatures();
    const excursions = temps.filter((t) => t > 8 || t < 2).length;
    const recordId = await uploadRecord(bench.baseUrl, token, temps);
    const auth = { authorization: `Token ${token}` };
    const aggregate = `${bench.baseUrl}/api/devices/aggregate/record-temperatures/?record_ids=${recordId}`;
    const series = `${bench.baseUrl}/api/devices/aggregate/record-series/?record_id=${recordId}`;
    const overview = `${series}&width=${WIDTH}`;
    const body = (await (await fetch(overview, { headers: auth })).json()) as {
      temperatures: unknown[];
      bucket_size: number;
    };
    // A zoom of 1 % of the record (what a drag across a narrow span asks).
    const first = Date.now() / 1000 - POINTS * INTERVAL - 3600;
    const zoomFrom = new Date((first + POINTS * 0.5 * INTERVAL) * 1000).toISOString();
    const zoomTo = new Date((first + POINTS * 0.51 * INTERVAL) * 1000).toISOString();
    const zoom = `${overview}&from=${zoomFrom}&to=${zoomTo}`;

    console.log(
      `one record of ${fmt(POINTS, 0)} points (${fmt(excursions, 0)} beyond 2-8 °C); ` +
        `the overview at width ${WIDTH}: ${fmt(body.temperatures.length, 0)} values, ` +
        `${body.bucket_size} points per column`,
    );
    console.log("bytes per point on the wire (of the record's points):");
    const calls = [
      ['aggregate record-temperatures (baseline)', aggregate],
      [`record-series width=${WIDTH} (the chart)`, overview],
      ['record-series, every point (no width)', series],
      ['record-series, a 1 % zoom window', zoom],
    ] as const;
    for (const [name, url] of calls) {
      const cells: string[] = [];
      for (const encoding of ['identity', 'gzip', 'br']) {
        const r = await get(url, { ...auth, 'accept-encoding': encoding });
        if (r.status !== 200) throw new Error(`${name} answered ${r.status}`);
        const served = r.encoding === encoding ? '' : ` (sent ${r.encoding})`;
        cells.push(`${encoding} ${fmt(r.bytes / POINTS, 3)}${served}`);
      }
      console.log(`  ${name}: ${cells.join(', ')}`);
    }

    console.log(`time per reply (${ROUNDS} per client, accept-encoding: ${BROWSER}):`);
    const browser = { ...auth, 'accept-encoding': BROWSER };
    const timed = (url: string) => async () => {
      const r = await get(url, browser);
      if (r.status !== 200) throw new Error(`${url} answered ${r.status}`);
      return r.ms;
    };
    for (const clients of [1, 10]) {
      const old = await concurrently(clients, timed(aggregate));
      const now = await concurrently(clients, timed(overview));
      const p = (values: number[], q: number) => fmt(percentile(values, q), 1);
      console.log(
        `  ${clients} client${clients === 1 ? '' : 's'}: aggregate p50 ${p(old, 50)} ms p95 ${p(old, 95)} ms; ` +
          `record-series p50 ${p(now, 50)} ms p95 ${p(now, 95)} ms; ` +
          `ratio p50 ${fmt(percentile(now, 50) / percentile(old, 50), 3)}, ` +
          `p95 ${fmt(percentile(now, 95) / percentile(old, 95), 3)}`,
      );
      if (clients === 10) {
        const p95 = percentile(now, 95);
        console.log(
          `  target p95 < 100 ms at 10 clients: ${fmt(p95, 1)} ms (${p95 < 100 ? 'meets' : 'misses'})`,
        );
      }
    }
    const zoomTimes = await concurrently(1, timed(zoom));
    console.log(
      `  a 1 % zoom window, 1 client: p50 ${fmt(percentile(zoomTimes, 50), 1)} ms, p95 ${fmt(percentile(zoomTimes, 95), 1)} ms`,
    );
  } finally {
    agent.destroy();
    await bench.close();
  }
}
