/**
 * npm run simulate -- [options]: drives a running Coldtrace server through its
 * public API the way phone apps, real-time (rt) gateways and nanotags do.
 * See --help.
 */
import { parseArgs } from 'node:util';
import { planFleet, type ShipmentPlan } from './src/index';
import {
  ApiClient,
  driveShipments,
  ensureDemoConfiguration,
  geoFence,
  reportRecord,
  type RecordReport,
  type ShipmentOutcome,
} from './src/http';

const HELP = `Coldtrace simulator: shipments as phone apps, rt gateways and nanotags upload them.

Usage: npm run simulate -- [options]

Signs in to a running server, issues a device token, creates the demo
configuration the organization lacks (travel locations, products, carriers),
then runs shipments of the three tag families:
  XT1_NFC_MU  phone scans with the growing log (each scan reads the whole log),
              start, shipment details, stop
  XT1_RT      configure, start, packets (out of order, some twice), stop;
              the dispatcher enters the trip times
  NanoTag     settings, first sample, frames with a position, status, battery
along routes between real places (Basel, Frankfurt, Memphis, Louisville,
Singapore, ...), with clean profiles, high excursions (warm dock), low
excursions (freezing), frozen (-20 °C) and controlled room temperature.

By default every upload is back-dated and sent at once, so shipments look
arrived, in transit or not yet departed. With --live the shipments in transit
log every few seconds and keep uploading as time passes (Ctrl-C stops).

Options:
  --url <url>            server (default http://localhost:8000, or SIMULATOR_URL)
  --email <e-mail>       user to sign in as (default ADMIN_EMAIL, else admin@coldtrace.local)
  --password <password>  password (default ADMIN_PASSWORD)
  --org <name>           organization to fill (default: the user's session organization)
  --shipments <n>        number of shipments (default 10)
  --seed <n>             seed: the same seed gives the same shipments (default 1)
  --prefix <text>        tag serial number prefix (default SIM<seed>; serial numbers are
                         unique across organizations, and re-running reuses the tags)
  --live                 keep sending in real time (in-transit shipments log every
                         --live-interval seconds)
  --live-interval <s>    seconds between points of live shipments (default 5)
  --concurrency <n>      uploads in flight at once (default 4)
  --in-order             send packets in order and once (default: shuffled, some twice)
  -h, --help             this help

Example:
  npm start                                       # in one terminal
  ADMIN_PASSWORD=... npm run simulate -- --shipments 20 --live
`;

function fail(message: string): never {
  process.stderr.write(`simulate: ${message}\n(see npm run simulate -- --help)\n`);
  process.exit(2);
}

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) fail(`--${name} must be a whole number, got '${value}'`);
  return n;
}

const { values } = (() => {
  try {
    return parseArgs({
      options: {
        url: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        org: { type: 'string' },
        shipments: { type: 'string' },
        seed: { type: 'string' },
        prefix: { type: 'string' },
        live: { type: 'boolean', default: false },
        'live-interval': { type: 'string' },
        concurrency: { type: 'string' },
        'in-order': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      allowPositionals: false,
    });
  } catch (err) {
    fail(err instanceof Error ? err.message : String(err));
  }
})();

if (values.help) {
  process.stdout.write(HELP);
  process.exit(0);
}

const url = values.url ?? process.env.SIMULATOR_URL ?? 'http://localhost:8000';
const email = values.email ?? process.env.ADMIN_EMAIL ?? 'admin@coldtrace.local';
const password = values.password ?? process.env.ADMIN_PASSWORD;
if (!password) fail('no password: pass --password or set ADMIN_PASSWORD');
const shipments = positiveInt('shipments', values.shipments, 10);
const seed = positiveInt('seed', values.seed, 1);
const liveInterval = positiveInt('live-interval', values['live-interval'], 5);
if (liveInterval < 1) fail('--live-interval must be at least 1');
const concurrency = Math.max(1, positiveInt('concurrency', values.concurrency, 4));
const prefix = values.prefix ?? `SIM${seed}`;
if (!/^[A-Za-z0-9._-]{1,40}$/.test(prefix)) fail('--prefix: letters, digits, . _ - only');

const log = (message: string) => process.stdout.write(`${message}\n`);
const time = () => new Date().toISOString().slice(11, 19);

async function main(): Promise<number> {
  const client = new ApiClient({ baseUrl: url });
  try {
    await client.login(email, password!);
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    const reason =
      cause !== undefined
        ? `${cause} (is the server running? start it with npm start)`
        : err instanceof Error
          ? err.message
          : String(err);
    fail(`cannot sign in to ${url} as ${email}: ${reason}`);
  }
  const org = values.org !== undefined ? await client.useOrganization(values.org) : undefined;
  await client.issueToken(`simulator (seed ${seed})`, 7);
  log(`signed in to ${url} as ${email}${org ? ` in ${org.name}` : ''}; device token issued`);

  const config = await ensureDemoConfiguration(client);
  const c = config.created;
  log(
    `configuration: ${c.locations} travel locations, ${c.products} products, ${c.carriers} carriers created` +
      ' (existing ones kept)',
  );
  const fence = await geoFence(client);
  if (fence) {
    log(
      `geo-fence: depart beyond ${fence.departure_radius_meters} m (${fence.num_points_to_depart} samples), ` +
        `arrive within ${fence.arrival_radius_meters} m (${fence.num_points_to_arrive} samples)`,
    );
  }

  const plans = planFleet(
    {
      seed,
      now: Date.now() / 1000,
      serialPrefix: prefix,
      live: values.live ? { intervalSeconds: liveInterval } : undefined,
    },
    shipments,
  );
  const abort = new AbortController();
  let stoppingSince = 0;
  process.on('SIGINT', () => {
    // npm and tsx pass Ctrl-C on as well: one press can arrive more than once.
    if (abort.signal.aborted) {
      if (Date.now() - stoppingSince > 1500) process.exit(130);
      return;
    }
    stoppingSince = Date.now();
    log('stopping (Ctrl-C again to quit at once)...');
    abort.abort();
  });
  const started = Date.now();
  const outcomes = await driveShipments(client, plans, config.locationIds, {
    live: values.live,
    concurrency,
    seed,
    signal: abort.signal,
    // Live: small gateway buffers, so packets trickle in every few seconds.
    delivery: values['in-order']
      ? { window: 1, duplicateRate: 0 }
      : values.live
        ? { window: 2, duplicateRate: 0.1 }
        : undefined,
    onStep(plan, step, result) {
      if (!result.ok) log(`${time()} ${plan.serial} ${step.call.path} FAILED: ${result.error}`);
      else if (values.live && step.at > started / 1000) {
        const points = step.points > 0 ? ` +${step.points} points` : '';
        log(
          `${time()} ${plan.serial} ${step.call.path}${points} -> record ${result.recordId ?? '-'}`,
        );
      }
    },
  });
  const seconds = (Date.now() - started) / 1000;

  const reports = new Map<string, RecordReport>();
  for (const o of outcomes) {
    if (o.recordId !== undefined && !reports.has(o.recordId)) {
      reports.set(o.recordId, await reportRecord(client, o.recordId));
    }
  }
  printSummary(outcomes, reports, seconds);
  return outcomes.some((o) => o.errors.length > 0) ? 1 : 0;
}

function pad(text: string | number, width: number): string {
  return String(text).padEnd(width);
}

function printSummary(
  outcomes: ShipmentOutcome[],
  reports: Map<string, RecordReport>,
  seconds: number,
): void {
  log('');
  log(
    `${pad('tag', 15)}${pad('profile', 13)}${pad('plan', 11)}${pad('record', 8)}${pad('points', 8)}` +
      `${pad('status', 7)}${pad('trip', 13)}${pad('active', 7)}alarms (high/low/cumulative)`,
  );
  for (const o of outcomes) {
    const r = o.recordId !== undefined ? reports.get(o.recordId) : undefined;
    const p: ShipmentPlan = o.plan;
    log(
      `${pad(p.serial, 15)}${pad(p.profile, 13)}${pad(p.state, 11)}${pad(o.recordId ?? '-', 8)}` +
        `${pad(r?.numberOfPoints ?? 0, 8)}${pad(r?.status ?? '-', 7)}${pad(r?.tripStatus ?? '-', 13)}` +
        `${pad(r ? (r.active ? 'yes' : 'no') : '-', 7)}` +
        (r ? `${r.alarms.high}/${r.alarms.low}/${r.alarms.cumulative}` : '-'),
    );
    for (const e of o.errors.slice(0, 3)) log(`    error: ${e}`);
  }
  const all = [...reports.values()];
  const sum = (f: (r: RecordReport) => number) => all.reduce((s, r) => s + f(r), 0);
  const uploads = outcomes.reduce((s, o) => s + o.uploads, 0);
  const repeats = outcomes.reduce((s, o) => s + o.repeats, 0);
  const sent = outcomes.reduce((s, o) => s + o.pointsSent, 0);
  const pending = outcomes.reduce((s, o) => s + o.pending, 0);
  const errors = outcomes.reduce((s, o) => s + o.errors.length, 0);
  log('');
  log(
    `records:   ${all.length} (${all.filter((r) => r.active).length} active, ${all.filter((r) => !r.active).length} stopped)`,
  );
  log(
    `points:    ${sum((r) => r.numberOfPoints).toLocaleString('en-US')} stored (${sent.toLocaleString('en-US')} sent in ${uploads} uploads, ${repeats} of them repeats)`,
  );
  log(
    `alarms:    ${sum((r) => r.alarms.high)} high, ${sum((r) => r.alarms.low)} low, ${sum((r) => r.alarms.cumulative)} cumulative` +
      ` on ${all.filter((r) => r.status === 'Alarm').length} records`,
  );
  log(
    `trips:     ${['NOT_DEPARTED', 'IN_TRANSIT', 'ARRIVED'].map((s) => `${all.filter((r) => r.tripStatus === s).length} ${s.toLowerCase().replace('_', ' ')}`).join(', ')}`,
  );
  log(
    `time:      ${seconds.toFixed(1)} s; ${pending} uploads still in the future; ${errors} errors`,
  );
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      `simulate: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
