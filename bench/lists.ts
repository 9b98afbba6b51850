import { spawn } from 'node:child_process';
import cluster from 'node:cluster';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SESSION_COOKIE } from '@coldtrace/contract';
import { drizzle } from 'drizzle-orm/node-postgres';
import Fastify from 'fastify';
import pg from 'pg';
import { loadConfig, REPO_ROOT } from '../apps/server/src/config';
import type { Database } from '../apps/server/src/db/client';
import * as baseSchema from '../apps/server/src/db/schema';
import * as shipmentSchema from '../apps/server/src/db/schema-shipments';
import * as notificationsSchema from '../apps/server/src/db/schema-notifications';
import * as reportsSchema from '../apps/server/src/db/schema-reports';
import { createListsService } from '../apps/server/src/modules/lists/service';
import { benchUser, startBench, startServerProcess, type BenchServerProcess } from './bench-server';
import { fillRecords } from './fill-records';
import { fmt } from './measure';

/**
 * List throughput on a large organization (issue 13, item 4): the records
 * list (page 1, default order), a filtered search, the statistics summary,
 * the statistics of a month, the alarm list and the tag list (page 1, default order: each tag's latest
 * record), at 50 concurrent connections (autocannon, in its own process)
 * against the real server (`startServerProcess`, WEB_CONCURRENCY
 * processes, logging as in production) and against a bare Fastify + pg server
 * running the very SQL statements the app runs for that page (recorded from
 * the list calls; a statement the app prepares, the baseline prepares
 * under the same name), in the same run: req/s, p50/p99 and the ratio.
 * Before the load, UPLOADED_RECORDS running records are updated as uploads
 * update them, so the search reads a trigram index with pending entries.
 *
 * LISTS_RECORDS (default 1,000,000): the organization's size.
 * LISTS_SECONDS (default 5): seconds of load per call and server.
 * LISTS_PROCESSES (default 1, the server's default WEB_CONCURRENCY): server
 * processes on each side, each with as many database connections as the
 * app's processes open (DATABASE_POOL_SIZE, else config.ts
 * `defaultDatabasePoolSize`). Until 2026-11-30 the default was the cores (at
 * most 2); with PostgreSQL on the same two cores one process now gives every
 * call the lower p99 (list-performance.md, "One server process").
 * LISTS_WARMUP_SECONDS (default 10): load on each server before the first
 * call's rounds (1 s before every other call's).
 * LISTS_ROUNDS (default 3): rounds per call, the app and the bare server
 * alternated; each figure is the median of its rounds (one round's figures
 * moved by a quarter between runs on this shared machine).
 * LISTS_BEFORE_ROOT (optional): another checkout, installed (`npm ci`), of an
 * earlier commit with the same migrations; its server runs on the same
 * database and takes its turn in every round, and the figures say after/before.
 */

const CONNECTIONS = 50;

/** LISTS_BEFORE_ROOT: the earlier commit's checkout, compared in the same run. */
const BEFORE_ROOT = process.env.LISTS_BEFORE_ROOT;

/** Load on each freshly started server before the first call's rounds (LISTS_WARMUP_SECONDS). */
const WARMUP_SECONDS = Number(process.env.LISTS_WARMUP_SECONDS ?? 10);

/** The issue's targets for the records list, the search and the statistics (issue 13, item 4). */
const TARGET_RPS = 1_000;
const TARGET_P99 = 100;
const TARGET_RATIO = 0.5;

/** Records updated by uploads before the load (bench/lists.ts `listsBench`). */
const UPLOADED_RECORDS = 2_000;

/** autocannon's API in a child process: request n takes path n of LOAD_URLS (cycling). */
const ROTATING_LOAD = `
const autocannon = require(process.env.LOAD_MODULE);
const paths = JSON.parse(process.env.LOAD_URLS).map((u) => { const url = new URL(u); return url.pathname + url.search; });
let next = 0;
autocannon(
  {
    url: new URL(JSON.parse(process.env.LOAD_URLS)[0]).origin,
    connections: Number(process.env.LOAD_CONNECTIONS),
    ...(process.env.LOAD_AMOUNT
      ? { amount: Number(process.env.LOAD_AMOUNT) }
      : { duration: Number(process.env.LOAD_SECONDS) }),
    headers: { cookie: process.env.LOAD_COOKIE },
    requests: [{ setupRequest: (req) => ({ ...req, path: paths[next++ % paths.length] }) }],
  },
  (err, result) => {
    if (err) { console.error(err); process.exit(1); }
    process.stdout.write(JSON.stringify(result));
  },
);
`;

interface Call {
  name: string;
  /**
   * One of the calls the issue's targets name (records list, search, statistics):
   * 1,000 req/s (`rps`: the search 500, issue 38) and a p99 of 100 ms; `ratio`:
   * also 0.5 of the bare server (the records list).
   */
  target?: { ratio: boolean; rps?: number };
  /** The paths, one per variant; the load cycles through them. */
  paths: string[];
  /** The list call of variant `k` whose SQL the baseline replays. */
  run(
    service: ReturnType<typeof createListsService>,
    organizationId: string,
    k: number,
  ): Promise<unknown>;
}

/**
 * The search box with a tag's serial number (a person looking a tag up),
 * narrowed by a filter: a different serial number on each request, cycling
 * through SEARCH_SERIALS of them spread over the organization, so nothing
 * answers the same search twice in a row.
 */
const SEARCH_FILTER = 'trip_status__is=ARRIVED';
const SEARCH_SERIALS = 200;
const searchPath = (serial: string) =>
  `/api/devices/xt1/records/?page_number=1&page_size=20&filter=${encodeURIComponent(SEARCH_FILTER)}&search=${serial}`;
/**
 * The statistics of a month (the dashboard's date range): thirty whole days
 * from 90 days ago, inside the fill's two years (about 41,000 records).
 */
const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const MONTH = { start: isoDay(Date.now() - 90 * DAY_MS), end: isoDay(Date.now() - 61 * DAY_MS) };
const MONTH_UTC1 = {
  start: `${MONTH.start}T00:00:00+01:00`,
  end: `${MONTH.end}T23:59:59.999+01:00`,
};
const callsFor = (serials: string[]): Call[] => [
  {
    name: 'records list, page 1',
    target: { ratio: true },
    paths: ['/api/devices/xt1/records/?page_number=1&page_size=20'],
    run: (s, p) => s.records(p, { page_number: 1, page_size: 20 }),
  },
  {
    // Sorted by a column that has an index (a click on the Created header of
    // All Records, newest first). An order no index gives reads every record
    // (0.25 s alone): 50 users at once queue for seconds, and its queries
    // would still run in the next call's window (list-performance.md, "How it is measured").
    name: 'records list by created',
    paths: ['/api/devices/xt1/records/?page_number=1&page_size=20&order_by=-created'],
    run: (s, p) => s.records(p, { page_number: 1, page_size: 20, order_by: ['-created'] }),
  },
  {
    // The dashboard's "In alarm" card opens this list (its total from the kept counts).
    name: 'records in alarm',
    paths: [
      `/api/devices/xt1/records/?page_number=1&page_size=20&filter=${encodeURIComponent('computed_status__is=Alarm')}`,
    ],
    run: (s, p) =>
      s.records(p, { page_number: 1, page_size: 20, filter: 'computed_status__is=Alarm' }),
  },
  {
    name: 'filtered search',
    target: { ratio: false, rps: 500 },
    paths: serials.map(searchPath),
    run: (s, p, k) =>
      s.records(p, { page_number: 1, page_size: 20, filter: SEARCH_FILTER, search: serials[k] }),
  },
  {
    name: 'statistics summary',
    target: { ratio: false },
    paths: ['/api/devices/xt1/records/statistics/summary/'],
    run: (s, p) => s.summary(p),
  },
  {
    name: 'statistics of a month',
    target: { ratio: false },
    paths: [
      `/api/devices/xt1/records/statistics/filtered/?start_date=${MONTH.start}&end_date=${MONTH.end}`,
    ],
    run: (s, p) => s.filteredStatistics(p, MONTH.start, MONTH.end),
  },
  {
    // The same month in a zone an hour ahead of UTC (most of Europe in
    // winter): its ends are partial UTC days, whose records are read one by
    // one for the tags (list-performance.md, "Range statistics").
    name: 'statistics of a month, UTC+1',
    target: { ratio: false },
    paths: [
      `/api/devices/xt1/records/statistics/filtered/?start_date=${encodeURIComponent(MONTH_UTC1.start)}&end_date=${encodeURIComponent(MONTH_UTC1.end)}`,
    ],
    run: (s, p) => s.filteredStatistics(p, MONTH_UTC1.start, MONTH_UTC1.end),
  },
  {
    name: 'alarm list',
    paths: ['/api/devices/xt1/alarms/'],
    run: (s, p) => s.alarms(p, {}),
  },
  {
    name: 'tag list, page 1',
    paths: ['/api/devices/xt1/details/?page_number=1&page_size=20'],
    run: (s, p) => s.details(p, { page_number: 1, page_size: 20 }),
  },
];

interface Statement {
  text: string;
  values: unknown[];
  /** The name of a prepared (server-side) statement, as the app sent it: the baseline names it too. */
  name?: string;
}

/** The statements `call` sends to PostgreSQL, recorded from a pool that passes them on. */
async function recordStatements(
  pool: pg.Pool,
  organizationId: string,
  call: Call,
  k: number,
): Promise<Statement[]> {
  const seen: Statement[] = [];
  const recording = new Proxy(pool, {
    get(target, key, receiver) {
      if (key !== 'query') return Reflect.get(target, key, receiver) as unknown;
      return (
        config: string | { text: string; values?: unknown[]; name?: string },
        values?: unknown[],
      ) => {
        if (typeof config === 'string') seen.push({ text: config, values: values ?? [] });
        else {
          const { text, name } = config;
          seen.push({ text, values: config.values ?? values ?? [], ...(name ? { name } : {}) });
        }
        return (target.query as (...a: unknown[]) => unknown)(config, values);
      };
    },
  });
  const schema = { ...baseSchema, ...shipmentSchema, ...notificationsSchema, ...reportsSchema };
  const db = drizzle({ client: recording, schema }) as unknown as Database;
  await call.run(createListsService(db), organizationId, k);
  return seen;
}

interface Load {
  rps: number;
  total: number;
  p50: number;
  p99: number;
  errors: number;
}

/** Each figure's median over the rounds (errors: their sum). */
function medianLoad(loads: Load[]): Load {
  const median = (pick: (l: Load) => number) => {
    const sorted = loads.map(pick).sort((a, b) => a - b);
    const mid = sorted.length >> 1;
    return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  };
  return {
    rps: median((l) => l.rps),
    total: median((l) => l.total),
    p50: median((l) => l.p50),
    p99: median((l) => l.p99),
    errors: loads.reduce((n, l) => n + l.errors, 0),
  };
}

/**
 * autocannon in its own process, so it does not share the event loop with
 * either server; with several URLs (of one origin) each request takes the next.
 */
async function load(
  urls: string | string[],
  cookie: string,
  seconds: number,
  amount?: number,
): Promise<Load> {
  const list = typeof urls === 'string' ? [urls] : urls;
  const bin = path.join(REPO_ROOT, 'node_modules/autocannon/autocannon.js');
  const length = amount === undefined ? ['-d', String(seconds)] : ['-a', String(amount)];
  const child =
    list.length === 1
      ? spawn(
          process.execPath,
          [bin, '-j', '-c', String(CONNECTIONS), ...length, '-H', `cookie=${cookie}`, list[0]!],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        )
      : spawn(process.execPath, ['--input-type=commonjs', '-e', ROTATING_LOAD], {
          stdio: ['ignore', 'pipe', 'pipe'],
          env: {
            ...process.env,
            LOAD_MODULE: path.join(REPO_ROOT, 'node_modules/autocannon'),
            LOAD_URLS: JSON.stringify(list),
            LOAD_COOKIE: cookie,
            LOAD_CONNECTIONS: String(CONNECTIONS),
            LOAD_SECONDS: String(seconds),
            ...(amount === undefined ? {} : { LOAD_AMOUNT: String(amount) }),
          },
        });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`autocannon exited with ${code}: ${err}`);
  const r = JSON.parse(out) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
  };
  return {
    rps: r.requests.average,
    total: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    errors: r.non2xx + r.errors,
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** The bare baseline as a process (`--lists-baseline`), with `processes` workers. */
async function startBaseline(
  databaseUrl: string,
  statements: Statement[][][],
  processes: number,
): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'coldtrace-lists-'));
  const file = path.join(dir, 'statements.json');
  await writeFile(file, JSON.stringify(statements));
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'bench/lists.ts'), '--lists-baseline'],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        LISTS_DATABASE_URL: databaseUrl,
        LISTS_STATEMENTS: file,
        LISTS_PORT: String(port),
        LISTS_PROCESSES: String(processes),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  for (let waited = 0; (output.match(/listening/g) ?? []).length < processes; waited += 50) {
    if (waited > 60_000) throw new Error(`the baseline did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The bare baseline: GET /<n>/<k> runs variant k of call n's statements in
 * order and answers the last one's rows as JSON.
 */
function bareServer(pool: pg.Pool, statements: Statement[][][]) {
  const app = Fastify({ logger: false });
  app.get<{ Params: { n: string; k: string } }>('/:n/:k', async (request, reply) => {
    let rows: unknown[] = [];
    for (const s of statements[Number(request.params.n)]![Number(request.params.k)]!) {
      rows = (
        await pool.query({ text: s.text, values: s.values, ...(s.name ? { name: s.name } : {}) })
      ).rows;
    }
    void reply.header('x-total-count', String(rows.length));
    return rows;
  });
  return app;
}

const cpuMs = (ms: number) => (Number.isNaN(ms) ? 'no request answered' : `${fmt(ms, 3)} ms`);

/** CPU time of this process per request answered while autocannon loads `url` for `seconds`. */
async function cpuPerRequest(urls: string[], cookie: string, seconds: number): Promise<number> {
  await load(urls, cookie, 1); // warm-up
  const before = process.cpuUsage();
  const { total } = await load(urls, cookie, seconds);
  const used = process.cpuUsage(before);
  // No request answered within the load (a call slower than seconds / connections): not a figure.
  return total === 0 ? Number.NaN : (used.user + used.system) / 1000 / total;
}

interface CallResult {
  call: string;
  app: Load;
  /** The server of LISTS_BEFORE_ROOT, when given. */
  before?: Load;
  base: Load;
  /** Each round's req/s: app/bare, or app/before/bare. */
  rounds: string;
}

interface Servers {
  app: { baseUrl: string };
  before?: { baseUrl: string };
  baseline: { baseUrl: string };
}

/** One call's rounds on each server in turn, after a warm-up; the medians. */
async function measureCall(
  call: Call,
  index: number,
  servers: Servers,
  cookie: string,
  seconds: number,
  rounds: number,
): Promise<CallResult> {
  const urlsOf = (server: { baseUrl: string }) => call.paths.map((p) => `${server.baseUrl}${p}`);
  const appUrl = urlsOf(servers.app);
  const beforeUrl = servers.before ? urlsOf(servers.before) : undefined;
  const baseUrl = call.paths.map((_, k) => `${servers.baseline.baseUrl}/${index}/${k}`);
  const sides = [appUrl, ...(beforeUrl ? [beforeUrl] : []), baseUrl];
  // Warm-up. The servers start cold: in five runs without it the first call's
  // first round was its lowest of three every time (by 12-23 %), while V8 still
  // compiled the paths every call shares, so every server gets WARMUP_SECONDS of
  // load on the first call before it is measured.
  for (const urls of sides) await load(urls, cookie, index === 0 ? WARMUP_SECONDS : 1);
  const loads: Load[][] = sides.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [side, urls] of sides.entries())
      loads[side]!.push(await load(urls, cookie, seconds));
  }
  const apps = loads[0]!;
  const bases = loads.at(-1)!;
  return {
    call: call.name,
    app: medianLoad(apps),
    ...(beforeUrl ? { before: medianLoad(loads[1]!) } : {}),
    base: medianLoad(bases),
    rounds: apps.map((_, r) => loads.map((side) => fmt(side[r]!.rps, 0)).join('/')).join(', '),
  };
}

/** The baseline server process. */
async function baselineMain(): Promise<void> {
  const processes = Number(process.env.LISTS_PROCESSES ?? 1);
  if (cluster.isPrimary && processes > 1) {
    for (let i = 0; i < processes; i++) cluster.fork();
    process.on('SIGTERM', () => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.kill('SIGTERM');
      process.exit(0);
    });
    return;
  }
  const statements = JSON.parse(
    await readFile(process.env.LISTS_STATEMENTS!, 'utf8'),
  ) as Statement[][][];
  // The same connections per process as the app's server processes, read as they read
  // them (their environment is this one's: DATABASE_POOL_SIZE, else config.ts's default).
  const { databasePoolSize } = loadConfig({
    WEB_CONCURRENCY: String(processes),
    DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE,
  });
  const pool = new pg.Pool({
    connectionString: process.env.LISTS_DATABASE_URL,
    max: databasePoolSize,
  });
  const app = bareServer(pool, statements);
  await app.listen({ port: Number(process.env.LISTS_PORT), host: '127.0.0.1' });
  process.stdout.write('listening\n');
  process.on(
    'SIGTERM',
    () =>
      void app
        .close()
        .then(() => pool.end())
        .then(() => process.exit(0)),
  );
}

export async function listsBench(): Promise<void> {
  const size = Number(process.env.LISTS_RECORDS ?? 1_000_000);
  const seconds = Number(process.env.LISTS_SECONDS ?? 5);
  const processes = Number(process.env.LISTS_PROCESSES ?? 1);
  const rounds = Math.max(1, Number(process.env.LISTS_ROUNDS ?? 3));
  const bench = await startBench();
  try {
    const { sessionCookie } = await benchUser(bench.handle);
    const { rows } = await bench.handle.pool.query<{ id: string }>(
      "SELECT id FROM organizations WHERE name = 'Bench Organization'",
    );
    const organizationId = rows[0]!.id;
    const filled = await fillRecords(bench.handle.pool, organizationId, size);
    console.log(
      `filled ${fmt(filled.records, 0)} records (${fmt(filled.tags, 0)} tags, ${fmt(filled.scans, 0)} scans, ` +
        `${fmt(filled.alarms, 0)} alarms, ${fmt(filled.openAlarms, 0)} unacknowledged) in ${fmt(filled.seconds)} s`,
    );
    // SEARCH_SERIALS serial numbers of as many tags, spread over the
    // organization's tags. (Until 2026-11-30 every (size / SEARCH_SERIALS)th
    // record's: the fill gives each tag every 50,000th record, so that was
    // only 10 tags, whose 200 records the search read again and again.)
    const { rows: picked } = await bench.handle.pool.query<{ serial: string }>(
      `SELECT serial_number AS serial FROM (
         SELECT serial_number, row_number() OVER (ORDER BY id) AS n FROM tags WHERE organization_id = $1
       ) t WHERE n % $2 = 0 ORDER BY n LIMIT $3`,
      [organizationId, Math.max(1, Math.floor(filled.tags / SEARCH_SERIALS)), SEARCH_SERIALS],
    );
    // Serial numbers are unique in an organization: this checks that the pick found as many tags.
    const wanted = Math.min(SEARCH_SERIALS, filled.tags);
    if (new Set(picked.map((r) => r.serial)).size < wanted) {
      throw new Error(
        `the search needs ${wanted} different serial numbers, found ${picked.length}`,
      );
    }
    const CALLS = callsFor(picked.map((r) => r.serial));
    const statements: Statement[][][] = [];
    for (const call of CALLS) {
      const variants: Statement[][] = [];
      for (const k of call.paths.keys()) {
        variants.push(await recordStatements(bench.handle.pool, organizationId, call, k));
      }
      statements.push(variants);
      console.log(
        `  ${call.name}: ${variants[0]!.length} statement(s)` +
          (variants.length > 1 ? `, ${variants.length} variants` : ''),
      );
    }
    const cookie = `${SESSION_COOKIE}=${sessionCookie}`;
    const results: CallResult[] = [];
    // Uploads since the last vacuum, as on a live server: each updates its
    // record's row (not a HOT update), so the search's trigram index holds
    // their entries in its pending list, which every search reads through.
    await bench.handle.pool.query(
      `UPDATE records SET last_action_taken = now() WHERE id IN (
         SELECT id FROM records WHERE organization_id = $1 AND active ORDER BY random() LIMIT $2)`,
      [organizationId, UPLOADED_RECORDS],
    );
    // The fill's writes on disk before any load, so neither side pays for them.
    await bench.handle.pool.query('CHECKPOINT');
    // Every server up (an idle one costs nothing); per call the app, the
    // earlier commit's server (LISTS_BEFORE_ROOT) and the baseline in turn, so
    // drift in the shared machine's load hits them alike. None runs while
    // another is loaded.
    const server = await startServerProcess(bench, processes);
    const servers: BenchServerProcess[] = [server];
    try {
      // The server put the terms of use in place as it started: the bench user agrees to them.
      await bench.handle.pool.query(
        `INSERT INTO tos_agreements (user_id, tos_id)
         SELECT u.id, t.id FROM users u CROSS JOIN terms_of_service t WHERE u.username = 'bench' AND t.active
         ON CONFLICT DO NOTHING`,
      );
      const before = BEFORE_ROOT
        ? await startServerProcess(bench, processes, BEFORE_ROOT)
        : undefined;
      if (before) servers.push(before);
      const baseline = await startBaseline(bench.databaseUrl, statements, processes);
      servers.push(baseline);
      for (const [i, call] of CALLS.entries()) {
        results.push(
          await measureCall(call, i, { app: server, before, baseline }, cookie, seconds, rounds),
        );
      }
    } finally {
      for (const s of servers.reverse()) await s.close();
    }
    console.log(
      `${fmt(size, 0)} records, ${CONNECTIONS} connections, ${seconds} s each, ${processes} server process(es) per side, ` +
        `median of ${rounds} round(s) (${BEFORE_ROOT ? 'app, before and bare' : 'app and bare'} in turn)`,
    );
    // Less noisy on a shared machine: CPU time per request of the app and of the
    // bare server, both in this process (the app as startBench builds it, without logging).
    const bare = bareServer(bench.handle.pool, statements);
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareAddress = bare.server.address() as AddressInfo;
    const cpu: { call: string; app: number; base: number }[] = [];
    try {
      for (const [i, call] of CALLS.entries()) {
        cpu.push({
          call: call.name,
          app: await cpuPerRequest(
            call.paths.map((p) => `${bench.baseUrl}${p}`),
            cookie,
            seconds,
          ),
          base: await cpuPerRequest(
            call.paths.map((_, k) => `http://127.0.0.1:${bareAddress.port}/${i}/${k}`),
            cookie,
            seconds,
          ),
        });
      }
    } finally {
      await bare.close();
    }
    const figures = (l: Load) =>
      `${fmt(l.rps, 0).padStart(6)} req/s p50 ${fmt(l.p50)} ms p99 ${fmt(l.p99)} ms` +
      `${l.errors ? ` (${l.errors} errors)` : ''}`;
    for (const { call, app, before, base, rounds: each } of results) {
      console.log(
        `  ${call.padEnd(30)} app ${figures(app)} | bare ${figures(base)} | ratio ${fmt(app.rps / base.rps, 2)}` +
          (before
            ? ` | before ${figures(before)}, ratio ${fmt(before.rps / base.rps, 2)} | after/before ${fmt(app.rps / before.rps, 2)}`
            : '') +
          (rounds > 1 ? ` | rounds ${before ? 'app/before/bare' : 'app/bare'} ${each}` : ''),
      );
    }
    // The targets (issue 13): at least TARGET_RPS req/s with a p99 of at most TARGET_P99 ms,
    // and for the records list at least TARGET_RATIO of the bare server, in this run.
    const verdict = (ok: boolean) => (ok ? 'meets' : 'MISSES');
    console.log(
      `Targets: ${fmt(TARGET_RPS, 0)} req/s, p99 ≤ ${TARGET_P99} ms; the records list also ≥ ${TARGET_RATIO} of the bare server`,
    );
    for (const { call, app, base } of results) {
      const target = CALLS.find((c) => c.name === call)?.target;
      if (!target) continue;
      const ratio = app.rps / base.rps;
      const rps = target.rps ?? TARGET_RPS;
      console.log(
        `  ${call.padEnd(30)} ${verdict(app.rps >= rps)} the req/s (${fmt(rps, 0)}), ` +
          `${verdict(app.p99 <= TARGET_P99)} the p99` +
          (target.ratio ? `, ${verdict(ratio >= TARGET_RATIO)} the ratio` : '') +
          `${base.rps < rps || base.p99 > TARGET_P99 ? ' (the bare server misses the req/s or the p99 too)' : ''}`,
      );
    }
    console.log(`CPU per request in this process (${seconds} s of load each, 50 connections)`);
    for (const { call, app, base } of cpu) {
      console.log(
        `  ${call.padEnd(30)} app ${cpuMs(app)} | bare ${cpuMs(base)} | ratio ${Number.isNaN(base / app) ? '—' : fmt(base / app, 2)}`,
      );
    }
  } finally {
    await bench.close();
  }
}

if (process.argv.includes('--lists-baseline')) await baselineMain();
