import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config';
import { ALARM_RAISED_JOB, MAIL_SEND_JOB, WEBHOOK_DELIVER_JOB } from '../src/jobs/catalogue';
import { createTestApp, TEST_PASSWORD, type TestApp } from './helpers';
import { deviceUser, epoch, iso, serial, xt1Body, type DeviceUser } from './shipment-factories';
import { startReceiver, type Receiver } from './webhook-receiver';

/**
 * Observability (docs/decisions/observability.md): /metrics refused without
 * the token, /livez and /readyz never the web app, and every metric moves
 * when its event happens (scraped from the app, as Prometheus would).
 */

const TOKEN = 'metrics-token-for-tests-0123456789';
const XT1 = '/api/devices/xt1/';

/** The samples of a scrape: `name{labels}` → value. */
type Samples = { name: string; labels: Record<string, string>; value: number }[];

function parse(text: string): Samples {
  const samples: Samples = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = l[2]!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The sum of the samples of `name` whose labels include `labels`. */
function value(samples: Samples, name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    .reduce((sum, s) => sum + s.value, 0);
}

/** A tiny SMTP server refusing recipients whose address contains "refused". */
async function smtp(): Promise<{ url: string; close(): Promise<void> }> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.includes('refused')) {
        callback(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }));
      } else callback();
    },
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => callback());
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('observability configuration [FEAT-OBSERVABILITY]', () => {
  it('METRICS_PORT, METRICS_HOST and METRICS_TOKEN: off by default, loopback, checked', () => {
    expect(loadConfig({}).metrics).toEqual({
      port: undefined,
      host: '127.0.0.1',
      token: undefined,
    });
    expect(
      loadConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0', METRICS_TOKEN: TOKEN }).metrics,
    ).toEqual({ port: 9464, host: '0.0.0.0', token: TOKEN });
    let error: unknown;
    try {
      loadConfig({
        METRICS_PORT: 'x',
        METRICS_TOKEN: 'short',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'ftp://x',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual([
      expect.stringMatching(/^METRICS_PORT must be an integer/),
      'METRICS_TOKEN must be at least 16 characters',
      'OTEL_EXPORTER_OTLP_ENDPOINT: must be an http(s):// URL',
    ]);
  });
});

describe('observability [FEAT-OBSERVABILITY]', () => {
  let t: TestApp;
  let mail: Awaited<ReturnType<typeof smtp>>;
  let receiver: Receiver;
  let admin: DeviceUser;

  beforeAll(async () => {
    mail = await smtp();
    receiver = await startReceiver();
    t = await createTestApp({
      config: {
        metrics: { port: undefined, host: '127.0.0.1', token: TOKEN },
        mail: { smtpUrl: mail.url, from: 'Coldtrace <no-reply@ct.test>', retryDelaySeconds: 30 },
        webhooks: { allowPrivate: true, retryDelaySeconds: 30 },
      },
    });
    admin = await deviceUser(t, { role: 'Administrator' });
  });
  afterAll(async () => {
    await t?.close();
    await mail?.close();
    await receiver?.close();
  });

  const scrape = async (): Promise<Samples> => {
    const res = await t.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    return parse(res.body);
  };

  it('/metrics is refused without the token (401 JSON), and answers 404 JSON when no token is configured', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token' }, { authorization: TOKEN }]) {
      const res = await t.inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
    const other = await createTestApp();
    try {
      const res = await other.inject({ method: 'GET', url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).not.toContain('<html');
    } finally {
      await other.close();
    }
  });

  it('/livez answers without the database; /readyz checks database, migrations and queue; neither is the web app', async () => {
    const live = await t.inject({ method: 'GET', url: '/livez' });
    expect(live.statusCode).toBe(200);
    expect(live.json()).toEqual({ status: 'ok' });
    const ready = await t.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode, ready.body).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });

    // A queue that is not running: 503 with the reason.
    const other = await createTestApp();
    try {
      await other.app.jobs.stop();
      const res = await other.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ status: 'unavailable', reason: 'job queue not started' });
      // The pool closed: the database is unreachable, said first.
      await other.handle.close();
      const down = await other.inject({ method: 'GET', url: '/readyz' });
      expect(down.statusCode).toBe(503);
      expect(down.json().reason).toMatch(/^database unreachable/);
      expect((await other.inject({ method: 'GET', url: '/livez' })).statusCode).toBe(200);
    } finally {
      await other.app.close();
    }
  });

  it('requests move the request histogram of their route pattern, never of the raw URL', async () => {
    const before = await scrape();
    const labels = { route: '/api/auth/csrf/', method: 'GET', status_class: '2xx' };
    for (let i = 0; i < 3; i++) await t.inject({ method: 'GET', url: '/api/auth/csrf/?x=' + i });
    await t.inject({ method: 'GET', url: '/no/such/page-' + serial() });
    const after = await scrape();
    const count = 'coldtrace_http_request_duration_seconds_count';
    expect(value(after, count, labels) - value(before, count, labels)).toBe(3);
    expect(
      value(after, 'coldtrace_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }) -
        value(before, 'coldtrace_http_request_duration_seconds_bucket', { ...labels, le: '+Inf' }),
    ).toBe(3);
    // An unknown path is one 'unmatched' series; no label holds a URL with a query or an id.
    expect(value(after, count, { route: 'unmatched' })).toBeGreaterThan(0);
    const routes = after.filter((s) => s.name === count).map((s) => s.labels.route ?? '');
    expect(routes.some((r) => r.includes('?') || r.includes('page-'))).toBe(false);
  });

  it('an xt1 upload moves uploads and points; its excursion moves alarms raised and the notification delays; acknowledging moves acknowledged', async () => {
    const setting = await admin.client.post('/api/notifications/settings/', {
      notification_type: 'Alarm',
      status: 'Enabled',
      to_list: [`qa-${serial()}@example.test`],
    });
    expect(setting.statusCode, setting.body).toBe(200);
    const before = await scrape();
    const sn = serial();
    const start = epoch(new Date()) - 3600;
    const temps = [5, 5, 15, 15, 15, 5, 5, 5, 5, 5];
    const res = await admin.device.post(
      `${XT1}scans/`,
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start + 11 * 60), temps }),
    );
    expect(res.statusCode, res.body).toBe(200);
    // The same upload again (a replay): not counted.
    const again = await admin.device.post(
      `${XT1}scans/`,
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start + 11 * 60), temps }),
    );
    expect(again.statusCode, again.body).toBe(200);
    await t.app.jobs.waitForIdle([ALARM_RAISED_JOB, MAIL_SEND_JOB]);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string> = {}) =>
      value(after, name, labels) - value(before, name, labels);
    expect(moved('coldtrace_ingest_uploads_total', { device: 'xt1' })).toBe(1);
    expect(moved('coldtrace_ingest_points_total', { device: 'xt1' })).toBe(temps.length);
    expect(moved('coldtrace_alarms_raised_total', { kind: 'excursion' })).toBe(1);
    const delay = 'coldtrace_alarm_notification_delay_seconds_count';
    expect(moved(delay, { channel: 'bell' })).toBe(1);
    expect(moved(delay, { channel: 'email' })).toBe(1);
    expect(moved('coldtrace_alarm_notification_delay_seconds_sum')).toBeGreaterThan(0);

    const alarms = await admin.client.get(
      `${XT1}alarms/?record_id=${String(res.json().record_id)}&include_acknowledged=true`,
    );
    const ids = (alarms.json() as { id: string }[]).map((a) => a.id);
    expect(ids).toHaveLength(1);
    const ack = await admin.client.post(`${XT1}alarm-acknowledge/`, {
      alarm_ids: ids,
      comment: 'Checked the load',
      client_type: 'WEB',
      password: TEST_PASSWORD,
      meaning: 'REVIEWED',
    });
    expect(ack.statusCode, ack.body).toBe(200);
    const acked = await scrape();
    expect(
      value(acked, 'coldtrace_alarms_acknowledged_total') -
        value(after, 'coldtrace_alarms_acknowledged_total'),
    ).toBe(1);
  });

  it('a failing webhook and a refused e-mail move the failure counters', async () => {
    receiver.answer = () => 500;
    const hook = await admin.client.post('/api/integrations/webhooks/', {
      url: receiver.url.replace('/hook', '/failing'),
      events: ['alarm.raised'],
    });
    expect(hook.statusCode, hook.body).toBe(200);
    const refused = await t.createUser({ email: `refused-${serial()}@example.test` });
    const before = await scrape();

    const sn = serial();
    const start = epoch(new Date()) - 3600;
    const res = await admin.device.post(
      `${XT1}scans/`,
      xt1Body(sn, { start_time_seconds: start, timestamp: iso(start + 6 * 60), temps: [15, 15] }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const anonymous = t.client();
    const reset = await anonymous.post('/api/auth/password-reset/', { email: refused.email });
    expect(reset.statusCode, reset.body).toBe(204);

    // The first attempts fail; their retries wait 30 s (deferred): poll the metrics meanwhile.
    let after = before;
    const moved = (name: string, labels: Record<string, string> = {}) =>
      value(after, name, labels) - value(before, name, labels);
    const webhookFailures = () =>
      moved('coldtrace_webhook_delivery_failures_total', { final: 'false' });
    const mailFailures = () => moved('coldtrace_mail_failures_total', { final: 'false' });
    // The failed attempt is counted as it happens; its retry is queued as its transaction commits.
    const deferred = (job: string) =>
      moved('coldtrace_job_queue_depth', { job, state: 'deferred' });
    for (let waited = 0; waited < 20_000; waited += 200) {
      after = await scrape();
      const counts = [webhookFailures(), mailFailures(), deferred(WEBHOOK_DELIVER_JOB)];
      if ([...counts, deferred(MAIL_SEND_JOB)].every((n) => n >= 1)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(webhookFailures()).toBe(1);
    expect(mailFailures()).toBe(1);
    // Their retries are queued for later: the depth of deferred jobs moved too.
    expect(deferred(WEBHOOK_DELIVER_JOB)).toBe(1);
    expect(deferred(MAIL_SEND_JOB)).toBe(1);
  });

  it('a queued job moves the queue depth and the age of the oldest; the pool gauges and errors move', async () => {
    // An app whose queue sends but runs no worker: its job stays ready.
    const sender = await createTestApp({ jobs: { runWorkers: false } });
    try {
      const before = await scrape();
      await sender.app.jobs.send('alarm.no-data', {});
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const after = await scrape();
      const labels = { job: 'alarm.no-data', state: 'ready' };
      expect(
        value(after, 'coldtrace_job_queue_depth', labels) -
          value(before, 'coldtrace_job_queue_depth', labels),
      ).toBe(1);
      expect(
        value(after, 'coldtrace_job_queue_oldest_ready_seconds', { job: 'alarm.no-data' }),
      ).toBeGreaterThanOrEqual(1);
    } finally {
      await sender.close();
    }

    // Twelve queries on a pool of five: some wait for a connection.
    const pool = t.handle.pool;
    const busy = Promise.all(Array.from({ length: 12 }, () => pool.query('SELECT pg_sleep(0.3)')));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const during = await scrape();
    await busy;
    expect(value(during, 'coldtrace_db_pool_waiting')).toBeGreaterThan(0);
    expect(value(during, 'coldtrace_db_pool_connections')).toBeGreaterThanOrEqual(5);
    const errors = value(during, 'coldtrace_db_pool_errors_total');
    pool.emit('error', new Error('connection lost (test)'), undefined as never);
    expect(value(await scrape(), 'coldtrace_db_pool_errors_total') - errors).toBe(1);
  });

  it('exposes Node’s own metrics: memory and event-loop delay', async () => {
    const samples = await scrape();
    expect(value(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(samples.some((s) => s.name === 'nodejs_eventloop_lag_p99_seconds')).toBe(true);
    expect(value(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });
});
