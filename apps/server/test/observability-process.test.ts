import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from './smtp-sink';
import { useServerProcesses } from './server-process';

/**
 * The real server process (`server.ts`, which imports the tracing set-up
 * first) with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a receiver here: a
 * request, its SQL (pg) and a job arrive as spans over OTLP/HTTP (JSON, the
 * exporter's default). A child process, because the require hooks must be in
 * place before `http` and `pg` load, which in Vitest's shared module graph
 * they already are. METRICS_PORT is checked on the same process.
 */

interface OtlpSpan {
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  attributes: { key: string; value: Record<string, unknown> }[];
}

interface OtlpBody {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue?: string } }[] };
    scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[];
  }[];
}

const METRICS_TOKEN = 'trace-test-metrics-token-0123';

describe('traces and the metrics port of a server process [FEAT-OBSERVABILITY]', () => {
  // The in-process app on the same database runs no worker: the server process runs the job.
  const servers = useServerProcesses('tracing', { jobs: { runWorkers: false } });
  const bodies: OtlpBody[] = [];
  let collector: http.Server;
  let collectorUrl = '';

  beforeAll(async () => {
    collector = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url === '/v1/traces') {
          bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpBody);
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', () => resolve()));
    collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => collector.close(() => resolve()));
  });

  const spans = () =>
    bodies.flatMap((b) =>
      b.resourceSpans.flatMap((r) =>
        r.scopeSpans.flatMap((s) => s.spans.map((span) => ({ ...span, scope: s.scope.name }))),
      ),
    );
  const attribute = (span: OtlpSpan, key: string) => {
    const v = span.attributes.find((a) => a.key === key)?.value;
    return v ? Object.values(v)[0] : undefined;
  };

  it('exports a request span, the SQL under it and a job span; serves METRICS_PORT', async () => {
    const port = await freePort();
    const metricsPort = await freePort();
    const server = await servers.start(port, {
      OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'coldtrace-test',
      LOG_LEVEL: 'info',
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN,
    });
    const base = `http://127.0.0.1:${port}`;

    // A request that reads the database (the session check).
    const csrf = await fetch(`${base}/api/auth/csrf/`);
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const token = /csrftoken=([^;]+)/.exec(cookie)?.[1] ?? '';
    // A job: a password reset request queues `password.reset-request`.
    const reset = await fetch(`${base}/api/auth/password-reset/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-csrftoken': token },
      body: JSON.stringify({ email: 'nobody@example.test' }),
    });
    expect(reset.status, await reset.text()).toBe(204);

    const deadline = Date.now() + 15_000;
    const want = () => {
      const all = spans();
      const request = all.find(
        (s) => s.kind === 2 && attribute(s, 'http.route') === '/api/auth/password-reset/',
      );
      const sql =
        request && all.find((s) => s.traceId === request.traceId && s.scope.includes('pg'));
      const job = all.find((s) => s.name === 'job password.reset-request');
      const jobSql = job && all.find((s) => s.traceId === job.traceId && s.scope.includes('pg'));
      return { request, sql, job, jobSql };
    };
    while (Date.now() < deadline && Object.values(want()).some((s) => s === undefined)) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const found = want();
    expect(found.request, JSON.stringify(spans().map((s) => [s.name, s.scope]))).toBeDefined();
    expect(found.request!.name).toBe('POST /api/auth/password-reset/');
    expect(found.sql).toBeDefined();
    expect(found.job).toBeDefined();
    expect(attribute(found.job!, 'messaging.message.id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(found.jobSql).toBeDefined();
    const service = bodies[0]!.resourceSpans[0]!.resource.attributes.find(
      (a) => a.key === 'service.name',
    );
    expect(service?.value.stringValue).toBe('coldtrace-test');
    // Probes and scrapes make no spans: a request after the probe arrives, the probe does not
    // (the batch processor exports spans in the order they end).
    await fetch(`${base}/livez`);
    await fetch(`${base}/api/auth/csrf/?after=livez`);
    const pathOf = (s: OtlpSpan) => attribute(s, 'url.path') ?? attribute(s, 'http.target');
    const afterProbe = () =>
      spans().find((s) => String(attribute(s, 'url.query') ?? pathOf(s)).includes('after=livez'));
    while (Date.now() < deadline + 15_000 && afterProbe() === undefined) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(afterProbe(), JSON.stringify(spans().map((s) => s.attributes))).toBeDefined();
    expect(spans().some((s) => String(pathOf(s)).startsWith('/livez'))).toBe(false);

    // METRICS_PORT: 127.0.0.1 only, the token asked there too.
    const refused = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(refused.status).toBe(401);
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(scraped.status).toBe(200);
    const text = await scraped.text();
    expect(text).toContain('coldtrace_http_request_duration_seconds_count{route="/api/auth/csrf/"');
    expect(text).toContain('coldtrace_job_queue_depth{');
    // The main port: the same metrics with the token; /metrics and /readyz are never the web app.
    const main = await fetch(`${base}/metrics`, {
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(main.status).toBe(200);
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });

    server.child.kill('SIGTERM');
    await server.exited;
    // Each log line written under a span carries its trace: the request's line leads to its trace.
    const lines = server.output
      .join('')
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const requestLine = lines.find(
      (l) => (l.req as { url?: string } | undefined)?.url === '/api/auth/password-reset/',
    );
    expect(requestLine, server.output.join('')).toMatchObject({
      trace_id: found.request!.traceId,
      span_id: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
  }, 60_000);

  it('WEB_CONCURRENCY=2: one answer for the whole server, on METRICS_PORT and on the main port', async () => {
    const port = await freePort();
    const metricsPort = await freePort();
    const server = await servers.start(port, {
      WEB_CONCURRENCY: '2',
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN,
    });
    const count = (text: string) =>
      Number(
        /coldtrace_http_request_duration_seconds_count\{route="\/api\/auth\/session\/",method="GET",status_class="4xx"\} (\d+)/.exec(
          text,
        )?.[1] ?? 0,
      );
    const auth = { headers: { authorization: `Bearer ${METRICS_TOKEN}` } };
    // New connections each time, handed round-robin to the two workers.
    for (let i = 0; i < 10; i++) {
      await fetch(`http://127.0.0.1:${port}/api/auth/session/`, {
        headers: { connection: 'close' },
      });
    }
    const merged = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`, auth)).text();
    expect(count(merged)).toBe(10);
    // Two processes' memory, added up; the queue's gauges not doubled (aggregated by max).
    expect(merged).toContain('process_resident_memory_bytes');
    const viaMain = await fetch(`http://127.0.0.1:${port}/metrics`, auth);
    expect(viaMain.status).toBe(200);
    expect(count(await viaMain.text())).toBe(10);
    server.child.kill('SIGTERM');
    await server.exited;
  }, 60_000);
});
