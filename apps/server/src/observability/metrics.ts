import client from 'prom-client';

/**
 * The server's Prometheus metrics (docs/decisions/observability.md). One
 * registry per process; the rest of the server reports events through
 * {@link metrics} (one line per hook, no prom-client type outside this
 * folder). Values read from elsewhere (the database pools, the job queue)
 * are collected when scraped, by the sources of {@link addScrapeSource}.
 *
 * Labels are bounded: a route is its pattern (`/api/records/:id/`), never the
 * URL; a device is xt1, rt or nanotag; a job is a catalogue name.
 */

export const registry = new client.Registry();

/** Upper bounds (seconds) of the request latency buckets: 5 ms to 10 s. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Upload to alarm notification: 100 ms to an hour (an e-mail retried for long lands in +Inf). */
const NOTIFY_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900, 3600];

const httpDuration = new client.Histogram({
  name: 'coldtrace_http_request_duration_seconds',
  help: 'HTTP requests by route pattern, method and status class: duration in seconds (_count: the requests)',
  labelNames: ['route', 'method', 'status_class'] as const,
  buckets: REQUEST_BUCKETS,
  registers: [registry],
});

const uploads = new client.Counter({
  name: 'coldtrace_ingest_uploads_total',
  help: 'Device uploads committed (a replay of a stored upload is not counted), by device kind',
  labelNames: ['device'] as const,
  registers: [registry],
});

const points = new client.Counter({
  name: 'coldtrace_ingest_points_total',
  help: 'Temperature points added to records by committed uploads (points already stored are not counted), by device kind',
  labelNames: ['device'] as const,
  registers: [registry],
});

const alarmsRaised = new client.Counter({
  name: 'coldtrace_alarms_raised_total',
  help: 'Alarms raised (counted when their alarm.raised job has run), by kind',
  labelNames: ['kind'] as const,
  registers: [registry],
});

const alarmsAcknowledged = new client.Counter({
  name: 'coldtrace_alarms_acknowledged_total',
  help: 'Alarms acknowledged (committed)',
  registers: [registry],
});

const alarmNotify = new client.Histogram({
  name: 'coldtrace_alarm_notification_delay_seconds',
  help: 'From the upload that raised an alarm to its notification: bell (the in-app notification committed) or email (handed to the SMTP server)',
  labelNames: ['channel'] as const,
  buckets: NOTIFY_BUCKETS,
  registers: [registry],
});

const webhookFailures = new client.Counter({
  name: 'coldtrace_webhook_delivery_failures_total',
  help: 'Webhook delivery attempts that failed (each attempt; final: retries exhausted)',
  labelNames: ['final'] as const,
  registers: [registry],
});

const mailFailures = new client.Counter({
  name: 'coldtrace_mail_failures_total',
  help: 'E-mail delivery attempts the SMTP server refused or that failed (each attempt; final: retries exhausted)',
  labelNames: ['final'] as const,
  registers: [registry],
});

const dbErrors = new client.Counter({
  name: 'coldtrace_db_pool_errors_total',
  help: 'Database connections lost (pool and checked-out client errors)',
  registers: [registry],
});

export type DeviceKind = 'xt1' | 'rt' | 'nanotag';
export type NotificationChannel = 'bell' | 'email';

/** What the server reports; tests read the registry, modules only call these. */
export interface Metrics {
  /** A request answered: its route pattern (null: no route matched), method, status and duration. */
  request(route: string | null, method: string, status: number, seconds: number): void;
  /** An upload committed, with the points it added. */
  upload(device: DeviceKind, pointsAdded: number): void;
  alarmsRaised(kind: string, count?: number): void;
  alarmsAcknowledged(count: number): void;
  /** Seconds from the raising upload to the notification. */
  alarmNotified(channel: NotificationChannel, seconds: number): void;
  webhookFailed(final: boolean): void;
  mailFailed(final: boolean): void;
  databaseError(): void;
}

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

export const metrics: Metrics = {
  request(route, method, status, seconds) {
    httpDuration.observe(
      { route: route ?? 'unmatched', method, status_class: statusClass(status) },
      seconds,
    );
  },
  upload(device, pointsAdded) {
    uploads.inc({ device });
    if (pointsAdded > 0) points.inc({ device }, pointsAdded);
  },
  alarmsRaised(kind, count = 1) {
    if (count > 0) alarmsRaised.inc({ kind }, count);
  },
  alarmsAcknowledged(count) {
    if (count > 0) alarmsAcknowledged.inc(count);
  },
  alarmNotified(channel, seconds) {
    alarmNotify.observe({ channel }, Math.max(0, seconds));
  },
  webhookFailed(final) {
    webhookFailures.inc({ final: String(final) });
  },
  mailFailed(final) {
    mailFailures.inc({ final: String(final) });
  },
  databaseError() {
    dbErrors.inc();
  },
};

// Node's own: memory, CPU, event-loop delay (`nodejs_eventloop_lag_*`), GC, handles.
client.collectDefaultMetrics({ register: registry });

/**
 * Something read when the metrics are scraped (a database pool, the job
 * queue): `collect` sets its gauges; answers a function that removes it (the
 * app's close). Several sources of a kind (tests build several apps) add up.
 */
export interface ScrapeSource {
  collect(): Promise<PoolStats | QueueStats[]> | PoolStats;
}

export interface PoolStats {
  kind: 'pool';
  total: number;
  idle: number;
  waiting: number;
}

export interface QueueStats {
  kind: 'queue';
  job: string;
  /** Runnable now (created or retry, start time reached). */
  ready: number;
  /** Waiting for a later start (a retry's back-off, a scheduled reminder). */
  deferred: number;
  active: number;
  /** Seconds the oldest runnable job has waited since it became runnable; 0: none. */
  oldestReadySeconds: number;
}

const sources = new Set<ScrapeSource>();

export function addScrapeSource(source: ScrapeSource): () => void {
  sources.add(source);
  return () => sources.delete(source);
}

async function collected(): Promise<{ pools: PoolStats[]; queues: QueueStats[] }> {
  const pools: PoolStats[] = [];
  const queues: QueueStats[] = [];
  await Promise.all(
    [...sources].map(async (source) => {
      try {
        const stats = await source.collect();
        if (Array.isArray(stats)) queues.push(...stats);
        else pools.push(stats);
      } catch {
        // A source that cannot answer (database down) leaves its gauges out of this scrape.
      }
    }),
  );
  return { pools, queues };
}

/** One collection per scrape, shared by the gauges that read it. */
let current: Promise<{ pools: PoolStats[]; queues: QueueStats[] }> | undefined;
const once = () =>
  (current ??= collected().finally(() => setImmediate(() => (current = undefined))));

const poolGauge = (name: string, help: string, pick: (s: PoolStats) => number) =>
  new client.Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      const { pools } = await once();
      this.set(pools.reduce((sum, s) => sum + pick(s), 0));
    },
  });

poolGauge(
  'coldtrace_db_pool_connections',
  'Database connections open (pg Pool totalCount)',
  (s) => s.total,
);
poolGauge(
  'coldtrace_db_pool_idle',
  'Database connections open and idle (pg Pool idleCount)',
  (s) => s.idle,
);
poolGauge(
  'coldtrace_db_pool_waiting',
  'Queries waiting for a database connection (pg Pool waitingCount)',
  (s) => s.waiting,
);

// The queue is one per database: every process reads the same rows, so processes are not
// added up (aggregator `max`) when the cluster's metrics are merged.
new client.Gauge({
  name: 'coldtrace_job_queue_depth',
  help: 'Jobs not finished, by job name and state (ready: runnable now; deferred: later start; active: running)',
  labelNames: ['job', 'state'] as const,
  aggregator: 'max',
  registers: [registry],
  async collect() {
    const { queues } = await once();
    this.reset();
    for (const q of queues) {
      this.inc({ job: q.job, state: 'ready' }, q.ready);
      this.inc({ job: q.job, state: 'deferred' }, q.deferred);
      this.inc({ job: q.job, state: 'active' }, q.active);
    }
  },
});

new client.Gauge({
  name: 'coldtrace_job_queue_oldest_ready_seconds',
  help: 'Seconds the oldest runnable job of each name has waited since it became runnable (0: none waiting)',
  labelNames: ['job'] as const,
  aggregator: 'max',
  registers: [registry],
  async collect() {
    const { queues } = await once();
    const oldest = new Map<string, number>();
    for (const q of queues)
      oldest.set(q.job, Math.max(oldest.get(q.job) ?? 0, q.oldestReadySeconds));
    this.reset();
    for (const [job, seconds] of oldest) this.set({ job }, seconds);
  },
});

/** The metrics text of this process (Prometheus exposition format). */
export async function scrape(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
