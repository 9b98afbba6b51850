import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { benchUser, startBench } from './bench-server';
import { fmt } from './measure';

/**
 * The cost of live records per connected user (issue 14 item 6,
 * docs/decisions/live-records.md). BENCH_LIVE_RECORDS (10) running rt
 * records of two days of one-minute points each get a packet a minute
 * (spread out), through the API, for the whole run. Two phases of
 * BENCH_LIVE_SECONDS (30) each:
 * - baseline: the packets arrive, nobody watches (the idle server);
 * - polling: BENCH_LIVE_USERS (100) simulated users (a child process, so
 *   their own cost is not counted) each on a running record's page, asking
 *   what the page asks every BENCH_LIVE_INTERVAL_MS (10,000): the record,
 *   its alarms, its scans, the compact series (width 1500) and the bell,
 *   with a browser's session cookie and accept-encoding, started spread over
 *   the interval.
 * Server CPU is the bench process (the app in process, and the packet
 * sender, in both phases) plus the embedded PostgreSQL's processes (read
 * from /proc; not with DATABASE_URL). Printed: requests/s, p50/p95, server
 * CPU seconds per minute in each phase, the added CPU per user per minute,
 * the ratio polling/baseline, and the users one 2-core server holds at that
 * interval (at 70 % of both cores).
 */

const RECORDS = Number(process.env.BENCH_LIVE_RECORDS ?? 10);
const USERS = Number(process.env.BENCH_LIVE_USERS ?? 100);
const SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 30);
const INTERVAL_MS = Number(process.env.BENCH_LIVE_INTERVAL_MS ?? 10_000);
const POINT_SECONDS = 60;
const HISTORY_POINTS = 2 * 24 * 60;
const PACKET_POINTS = 1;
const CORES = 2;
const UTILIZATION = 0.7;

interface Rt {
  serial: string;
  start: number;
  recordId: string;
  next: number;
}

async function rtCall(baseUrl: string, token: string, path: string, body: unknown) {
  const res = await fetch(`${baseUrl}/api/devices/rt/${path}`, {
    method: 'POST',
    headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`rt ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { record_id?: string };
}

const temperature = (i: number) => Math.round((5 + 1.5 * Math.sin(i / 90)) * 100) / 100;

async function runningRecord(baseUrl: string, token: string, n: number): Promise<Rt> {
  const serial = `BENCH-LIVE-${n}`;
  const start = Math.floor(Date.now() / 1000) - HISTORY_POINTS * POINT_SECONDS;
  await rtCall(baseUrl, token, 'configure-action/', {
    tag_id: serial,
    high_threshold: 8,
    low_threshold: 2,
    measurement_interval: POINT_SECONDS,
    max_transmit_interval: 600,
  });
  const started = await rtCall(baseUrl, token, 'start-action/', {
    tag_id: serial,
    start_time_seconds: start,
  });
  for (let offset = 0; offset < HISTORY_POINTS; offset += 720) {
    const temps = Array.from({ length: Math.min(720, HISTORY_POINTS - offset) }, (_, k) =>
      temperature(offset + k),
    );
    await rtCall(baseUrl, token, 'packets/', {
      tag_id: serial,
      start_time_seconds: start,
      temperatures_offset_index: offset,
      temps,
    });
  }
  return { serial, start, recordId: started.record_id!, next: HISTORY_POINTS };
}

/** One packet a minute per record, spread out; stops when told. */
function sendPackets(baseUrl: string, token: string, records: Rt[]) {
  let stopped = false;
  let sent = 0;
  const every = (POINT_SECONDS * 1000) / records.length;
  const loop = (async () => {
    for (let k = 0; !stopped; k++) {
      const r = records[k % records.length]!;
      const temps = Array.from({ length: PACKET_POINTS }, (_, j) => temperature(r.next + j));
      await rtCall(baseUrl, token, 'packets/', {
        tag_id: r.serial,
        start_time_seconds: r.start,
        temperatures_offset_index: r.next,
        temps,
      });
      r.next += PACKET_POINTS;
      sent += 1;
      await new Promise((resolve) => setTimeout(resolve, every));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return sent;
    },
  };
}

/** CPU seconds (user + system) of the embedded PostgreSQL: the postmaster, its children and the reaped ones. */
function postgresCpu(postmaster: number | null): number {
  if (postmaster === null) return 0;
  const ticks = 100; // USER_HZ on Linux
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(entry);
    const ppid = Number(fields[1]);
    if (pid !== postmaster && ppid !== postmaster) continue;
    const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]));
    total += utime! + stime! + (pid === postmaster ? cutime! + cstime! : 0);
  }
  return total / ticks;
}

async function findPostmaster(databaseUrl: string): Promise<number | null> {
  if (process.env.DATABASE_URL !== undefined || os.platform() !== 'linux') return null;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'",
    );
    const checkpointer = rows[0]?.pid;
    if (checkpointer === undefined) return null;
    const stat = readFileSync(`/proc/${checkpointer}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } finally {
    await client.end();
  }
}

/** The simulated users, in a child process: plain http with keep-alive, one connection each. */
const USERS_SCRIPT = `
const http = require('node:http');
const { BASE, COOKIE, PAGES, USERS, INTERVAL_MS, DURATION_MS } = process.env;
const pages = JSON.parse(PAGES);
const users = Number(USERS), interval = Number(INTERVAL_MS), duration = Number(DURATION_MS);
const times = []; let errors = 0; let bytes = 0;
const get = (agent, path) => new Promise((resolve) => {
  const start = performance.now();
  http.get(BASE + path, { agent, headers: { cookie: COOKIE, 'accept-encoding': 'gzip, deflate, br' } }, (res) => {
    res.on('data', (c) => (bytes += c.length));
    res.on('end', () => { if (res.statusCode !== 200) errors++; times.push(performance.now() - start); resolve(); });
  }).on('error', () => { errors++; resolve(); });
});
const end = Date.now() + duration;
const user = async (u) => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const paths = pages[u % pages.length];
  await new Promise((r) => setTimeout(r, (u / users) * interval));
  while (Date.now() < end) {
    const started = Date.now();
    // The page's queries poll on one timer: asked together.
    await Promise.all(paths.map((p) => get(agent, p)));
    await new Promise((r) => setTimeout(r, Math.max(0, interval - (Date.now() - started))));
  }
  agent.destroy();
};
Promise.all(Array.from({ length: users }, (_, u) => user(u))).then(() => {
  times.sort((a, b) => a - b);
  const at = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))] || 0;
  process.stdout.write(JSON.stringify({ requests: times.length, errors, bytes, p50: at(0.5), p95: at(0.95) }));
});
`;

interface UsersResult {
  requests: number;
  errors: number;
  bytes: number;
  p50: number;
  p95: number;
}

function runUsers(env: Record<string, string>): Promise<UsersResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', USERS_SCRIPT], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out) as UsersResult) : reject(new Error(`users: ${code}`)),
    );
  });
}

/** Server CPU seconds (this process and PostgreSQL) spent while `during` runs. */
async function measured<T>(
  postmaster: number | null,
  during: () => Promise<T>,
): Promise<{ result: T; node: number; postgres: number; seconds: number }> {
  const cpu0 = process.cpuUsage();
  const pg0 = postgresCpu(postmaster);
  const t0 = performance.now();
  const result = await during();
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    result,
    node: (cpu.user + cpu.system) / 1e6,
    postgres: postgresCpu(postmaster) - pg0,
    seconds,
  };
}

export async function liveBench(): Promise<void> {
  const bench = await startBench();
  try {
    const { token, sessionCookie } = await benchUser(bench.handle);
    const records: Rt[] = [];
    for (let n = 0; n < RECORDS; n++) records.push(await runningRecord(bench.baseUrl, token, n));
    const postmaster = await findPostmaster(bench.databaseUrl);
    const pages = records.map(({ recordId: id }) => [
      `/api/devices/xt1/record/?record_id=${id}`,
      `/api/devices/xt1/alarms/?record_id=${id}&include_acknowledged=true&include_dismissed=true&include_closed=true`,
      `/api/devices/xt1/records/scans/?record_ids=${id}`,
      `/api/devices/aggregate/record-series/?record_id=${id}&width=1500`,
      '/api/devices/xt1/notifications/?page_number=1&page_size=100',
    ]);
    console.log(
      `${RECORDS} running rt records of ${fmt(HISTORY_POINTS, 0)} points, a packet a minute each; ` +
        `${USERS} users polling ${pages[0]!.length} calls every ${INTERVAL_MS / 1000} s; ${SECONDS} s per phase`,
    );
    const sleep = (s: number) => new Promise((resolve) => setTimeout(resolve, s * 1000));

    const idle = await measured(postmaster, async () => {
      const packets = sendPackets(bench.baseUrl, token, records);
      await sleep(SECONDS);
      return packets.stop();
    });
    const polling = await measured(postmaster, async () => {
      const packets = sendPackets(bench.baseUrl, token, records);
      const users = await runUsers({
        BASE: bench.baseUrl,
        COOKIE: `sessionid=${sessionCookie}`,
        PAGES: JSON.stringify(pages),
        USERS: String(USERS),
        INTERVAL_MS: String(INTERVAL_MS),
        DURATION_MS: String(SECONDS * 1000),
      });
      await packets.stop();
      return users;
    });
    if (polling.result.errors > 0) throw new Error(`${polling.result.errors} requests failed`);

    const perMinute = (cpu: number, seconds: number) => (cpu * 60) / seconds;
    const idleCpu = perMinute(idle.node + idle.postgres, idle.seconds);
    const pollCpu = perMinute(polling.node + polling.postgres, polling.seconds);
    const users = polling.result;
    // The users' added CPU: the phase's CPU less the idle rate over the same time, per request,
    // times what one user asks a minute (the phase's wall time includes the users' start).
    const extra = polling.node + polling.postgres - (idleCpu / 60) * polling.seconds;
    const perRequest = extra / users.requests;
    const callsPerUserMinute = pages[0]!.length * (60_000 / INTERVAL_MS);
    const perUser = perRequest * callsPerUserMinute;
    const rps = users.requests / SECONDS;
    const capacity = (CORES * 60 * UTILIZATION) / perUser;
    console.log(
      `baseline (packets only): ${fmt(idle.result, 0)} packets, server CPU ${fmt(idleCpu, 2)} s/min ` +
        `(node ${fmt(perMinute(idle.node, idle.seconds), 2)}, postgres ${fmt(perMinute(idle.postgres, idle.seconds), 2)})`,
    );
    console.log(
      `polling: ${fmt(users.requests, 0)} requests, ${fmt(rps, 1)} req/s (${fmt(rps / USERS, 2)} per user), ` +
        `p50 ${fmt(users.p50, 1)} ms, p95 ${fmt(users.p95, 1)} ms, ${fmt(users.bytes / users.requests, 0)} bytes/reply on the wire; ` +
        `server CPU ${fmt(pollCpu, 2)} s/min (node ${fmt(perMinute(polling.node, polling.seconds), 2)}, ` +
        `postgres ${fmt(perMinute(polling.postgres, polling.seconds), 2)}), ${fmt(perRequest * 1000, 2)} ms per request`,
    );
    console.log(
      `per connected user: ${fmt(perUser * 1000, 1)} ms server CPU per minute (${fmt(callsPerUserMinute, 0)} requests), ` +
        `${fmt(((users.bytes / users.requests) * callsPerUserMinute) / 1024, 1)} kB per minute; ` +
        `CPU with the users / idle: ${fmt(pollCpu / idleCpu, 1)}x; ` +
        `one 2-core server (70 % busy) holds about ${fmt(capacity, 0)} users at ${INTERVAL_MS / 1000} s`,
    );
  } finally {
    await bench.close();
  }
}
