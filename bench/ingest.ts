import { sql } from 'drizzle-orm';
import type pg from 'pg';
import {
  deviceToken,
  startBench,
  startServerProcess,
  type Bench,
  type BenchServerProcess,
} from './bench-server';
import { createRng, excursionEvent, temperatureSeries } from '../tools/simulator/src/index';
import { fmt } from './measure';

/**
 * Ingest through HTTP against a raw COPY of the same points, in one run on one
 * database: a throwaway embedded PostgreSQL (durable settings, as the product
 * runs) or DATABASE_URL (a scratch database is created in it and dropped).
 *
 * - ingest: RECORDS xt1 scans of a 10,000-point log each (one warm excursion,
 *   so the alarms and the summary have work to do), sent by CONCURRENCY
 *   clients with a device token to each of three servers on the same database:
 *   the app built in the bench process (which also runs the clients: the
 *   figures of earlier runs), and the real server process (`server.ts`) with
 *   WEB_CONCURRENCY=1 and =2. Each upload creates its record, merges the points
 *   into the series chunks, writes the scan and recomputes summary, trip and
 *   alarms, as in production.
 * - COPY: the same points as rows (record_id bigint, idx int, temp real) into
 *   a plain table, by CONCURRENCY connections, one COPY per record.
 * - storage: pg_total_relation_size of record_series_chunks (heap, TOAST and
 *   indexes) divided by the points stored.
 * - ratio: ingest over COPY, round by round (each round's COPY follows its
 *   ingest of the same points, so both see the same background load; within a
 *   round the three servers take turns), then the median of the rounds. The ratio of the two medians is printed too;
 *   on a shared machine it mixes rounds that saw different load.
 *
 * Targets of the issue on the 2-core machine: >= 250,000 points/s through
 * HTTP, <= 12 bytes per point, >= 0.5 of the COPY rate.
 */

const POINTS = 10_000;
const RECORDS = Number(process.env.BENCH_INGEST_RECORDS ?? 200);
const ROUNDS = 5;
const WARM_UP = 8;
const CONCURRENCY = 4;
const INTERVAL = 60;

/** The 10,000-point log of record `n`: 2-8 °C with one warm excursion. */
function log(n: number, start: number): number[] {
  const rng = createRng(n + 1);
  const warm = excursionEvent('warm', start + rng.float(0.2, 0.7) * POINTS * INTERVAL, rng);
  return temperatureSeries(
    {
      productClass: 'refrigerated',
      startSeconds: start,
      intervalSeconds: INTERVAL,
      points: POINTS,
      events: [warm],
    },
    rng,
  );
}

/** A log of values with three decimals spread over 70 °C: PostgreSQL cannot compress it much. */
function noise(n: number): number[] {
  const rng = createRng(1_000_000 + n);
  return Array.from({ length: POINTS }, () => Math.round(rng.float(-30, 40) * 1000) / 1000);
}

/** Upload bodies, serialized before the clock starts (the devices did that work). */
function uploads(
  count: number,
  tag: string,
  temperatures: (n: number, start: number) => number[] = log,
): { body: string; temps: number[] }[] {
  const start = Math.floor(Date.now() / 1000) - POINTS * INTERVAL - 3600;
  return Array.from({ length: count }, (_, n) => {
    const temps = temperatures(n, start);
    const serial = `${tag}-${String(n).padStart(4, '0')}`;
    const body = {
      tag_id: serial,
      tag_serial_number: serial,
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
      temps,
    };
    return { body: JSON.stringify(body), temps };
  });
}

async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T, i: number) => Promise<void>,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i]!, i);
      }
    }),
  );
}

async function send(baseUrl: string, token: string, body: string): Promise<void> {
  const res = await fetch(`${baseUrl}/api/devices/xt1/scans/`, {
    method: 'POST',
    headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
    body,
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`upload answered ${res.status}: ${text.slice(0, 300)}`);
}

/** COPY ... FROM STDIN over the pg protocol (pg has no helper for it; pg-copy-streams is not a dependency). */
function copyFrom(client: pg.PoolClient, text: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed: unknown;
    const submittable = {
      submit(connection: { query(text: string): void }) {
        connection.query(text);
      },
      handleCopyInResponse(connection: {
        sendCopyFromChunk(chunk: Buffer): void;
        endCopyFrom(): void;
      }) {
        for (let i = 0; i < data.length; i += 65_536) {
          connection.sendCopyFromChunk(data.subarray(i, i + 65_536));
        }
        connection.endCopyFrom();
      },
      handleCommandComplete() {},
      handleError(err: unknown) {
        failed = err;
      },
      handleReadyForQuery() {
        if (failed) reject(failed instanceof Error ? failed : new Error(String(failed)));
        else resolve();
      },
    };
    (client as unknown as { query(q: unknown): void }).query(submittable);
  });
}

/** COPY the points of `batch` (record ids from `firstId`) by CONCURRENCY connections; seconds taken. */
async function copyBatch(
  bench: Bench,
  batch: readonly { temps: number[] }[],
  firstId: number,
): Promise<number> {
  const data = batch.map((u, n) =>
    Buffer.from(u.temps.map((t, i) => `${firstId + n}\t${i}\t${t}\n`).join('')),
  );
  const clients = await Promise.all(
    Array.from({ length: CONCURRENCY }, () => bench.handle.pool.connect()),
  );
  try {
    const start = performance.now();
    let next = 0;
    await Promise.all(
      clients.map(async (client) => {
        while (next < data.length) {
          const chunk = data[next++]!;
          await copyFrom(client, 'COPY raw_points (record_id, idx, temp) FROM STDIN', chunk);
        }
      }),
    );
    return (performance.now() - start) / 1000;
  } finally {
    for (const client of clients) client.release();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

interface Server {
  label: string;
  baseUrl: string;
}

interface Round {
  ingest: number;
  copy: number;
}

export async function ingestBench(): Promise<void> {
  const bench = await startBench();
  const processes: BenchServerProcess[] = [];
  try {
    const token = await deviceToken(bench.handle);
    const db = bench.handle.db;
    await db.execute(sql`create table raw_points (record_id bigint, idx int, temp real)`);
    for (const count of [1, 2]) processes.push(await startServerProcess(bench, count));
    const servers: Server[] = [
      { label: 'app in the bench process', baseUrl: bench.baseUrl },
      { label: 'server process, WEB_CONCURRENCY=1', baseUrl: processes[0]!.baseUrl },
      { label: 'server process, WEB_CONCURRENCY=2', baseUrl: processes[1]!.baseUrl },
    ];

    // Warm-up (JIT, pools, first inserts; both paths; every worker), then rounds that
    // alternate ingest and COPY of the same points, so background load hits both alike.
    for (const [s, server] of servers.entries()) {
      const warm = uploads(WARM_UP, `WARM${s}`);
      await inParallel(warm, CONCURRENCY, (u) => send(server.baseUrl, token, u.body));
      await copyBatch(bench, warm, 1_000_000 + s * WARM_UP);
    }
    const perRound = Math.max(1, Math.round(RECORDS / ROUNDS));
    const rounds: Round[][] = servers.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [s, server] of servers.entries()) {
        const batch = uploads(perRound, `BENCH${s}R${round}`);
        const t0 = performance.now();
        await inParallel(batch, CONCURRENCY, (u) => send(server.baseUrl, token, u.body));
        const ingestSeconds = (performance.now() - t0) / 1000;
        const copySeconds = await copyBatch(
          bench,
          batch,
          (round * servers.length + s) * perRound + 1,
        );
        rounds[s]!.push({
          ingest: (perRound * POINTS) / ingestSeconds,
          copy: (perRound * POINTS) / copySeconds,
        });
      }
    }

    const [stored] = (
      await db.execute<{ points: string; records: string; alarms: string }>(sql`
        select
          (select coalesce(sum(number_of_points), 0) from records)::text as points,
          (select count(*) from records)::text as records,
          (select count(*) from alarms)::text as alarms`)
    ).rows;
    const points = Number(stored!.points);
    await db.execute(sql`vacuum analyze record_series_chunks`);
    await db.execute(sql`vacuum analyze raw_points`);
    const [size] = (
      await db.execute<{ total: string; heap: string; toast: string; indexes: string }>(sql`
        select
          pg_total_relation_size('record_series_chunks')::text as total,
          pg_relation_size('record_series_chunks')::text as heap,
          coalesce(pg_total_relation_size(nullif(c.reltoastrelid, 0)), 0)::text as toast,
          pg_indexes_size('record_series_chunks')::text as indexes
        from pg_class c where c.oid = 'record_series_chunks'::regclass`)
    ).rows;
    const [raw] = (
      await db.execute<{ total: string; rows: string }>(sql`
        select pg_total_relation_size('raw_points')::text as total, count(*)::text as rows from raw_points`)
    ).rows;

    // Worst case: logs PostgreSQL cannot compress (full-precision noise).
    for (const u of uploads(8, 'NOISE', noise)) await send(bench.baseUrl, token, u.body);
    await db.execute(sql`vacuum analyze record_series_chunks`);
    const [after] = (
      await db.execute<{ total: string }>(
        sql`select pg_total_relation_size('record_series_chunks')::text as total`,
      )
    ).rows;
    const noiseBytesPerPoint = (Number(after!.total) - Number(size!.total)) / (8 * POINTS);

    const bytesPerPoint = Number(size!.total) / points;
    const verdict = (ok: boolean) => (ok ? 'meets' : 'MISSES');
    console.log(
      `${ROUNDS} rounds of ${perRound} uploads of ${fmt(POINTS, 0)} points (xt1 scans, ` +
        `${CONCURRENCY} at a time) to each of ${servers.length} servers, each followed by a ` +
        `COPY of the same points (${CONCURRENCY} connections); ` +
        `${stored!.records} records, ${stored!.alarms} alarms stored`,
    );
    for (const [s, server] of servers.entries()) {
      const mine = rounds[s]!;
      const ingestRate = median(mine.map((r) => r.ingest));
      const copyRate = median(mine.map((r) => r.copy));
      const ratio = median(mine.map((r) => r.ingest / r.copy));
      console.log(`${server.label}:`);
      console.log(
        `  rounds (ingest / COPY points/s): ${mine.map((r) => `${fmt(r.ingest, 0)} / ${fmt(r.copy, 0)}`).join('; ')}`,
      );
      console.log(
        `  ingest points/s: ${fmt(ingestRate, 0)} median (${verdict(ingestRate >= 250_000)} the 250,000 target); ` +
          `COPY ${fmt(copyRate, 0)} median`,
      );
      console.log(
        `  ratio:           ${fmt(ratio, 2)} median of the rounds (${verdict(ratio >= 0.5)} the 0.5 target; ` +
          `ratio of the medians ${fmt(ingestRate / copyRate, 2)})`,
      );
    }
    console.log(
      `bytes/point:     ${fmt(bytesPerPoint, 2)} (${verdict(bytesPerPoint <= 12)} the 12 target): ` +
        `pg_total_relation_size(record_series_chunks) = ${fmt(Number(size!.total) / 1024, 0)} KiB ` +
        `(heap ${fmt(Number(size!.heap) / 1024, 0)} + TOAST ${fmt(Number(size!.toast) / 1024, 0)} + ` +
        `indexes ${fmt(Number(size!.indexes) / 1024, 0)} KiB) for ${fmt(points, 0)} points ` +
        '(TOAST included; 0.1 °C readings compress well, PostgreSQL compresses each chunk)',
    );
    console.log(
      `bytes/point of incompressible logs (noise with 3 decimals): ${fmt(noiseBytesPerPoint, 2)}`,
    );
    console.log(
      `(the raw COPY table takes ${fmt(Number(raw!.total) / Number(raw!.rows), 1)} bytes/point, without an index)`,
    );
  } finally {
    for (const server of processes) await server.close();
    await bench.close();
  }
}
