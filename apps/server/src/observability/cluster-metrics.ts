import cluster from 'node:cluster';
import { createServer, type Server } from 'node:http';
import client from 'prom-client';
import { bearerMatches } from './bearer';
import { registry, scrape } from './metrics';

/**
 * The metrics of several server processes (WEB_CONCURRENCY > 1,
 * docs/decisions/observability.md): one answer for the whole server, merged
 * by prom-client's AggregatorRegistry in the primary (counters and
 * histograms added up, the queue gauges and event-loop figures by their own
 * rule). The main port is shared round-robin, so a worker asked for /metrics
 * asks the primary (IPC) for the merged text instead of answering its own;
 * METRICS_PORT is served by the primary. One process: its own registry.
 */

const ASK = 'coldtrace:metrics-ask';
const ANSWER = 'coldtrace:metrics-answer';
const ASK_TIMEOUT_MS = 5_000;

interface Answer {
  type: typeof ANSWER;
  id: number;
  body?: string;
  error?: string;
}

if (cluster.isWorker) {
  // A worker answers prom-client's requests from the primary with this registry.
  client.AggregatorRegistry.setRegistries([registry]);
  new client.AggregatorRegistry();
}

let asked = 0;
const waiting = new Map<number, (answer: Answer) => void>();
let listening = false;

function askPrimary(): Promise<string> {
  if (!listening) {
    listening = true;
    process.on('message', (message: Answer) => {
      if (message?.type === ANSWER) waiting.get(message.id)?.(message);
    });
  }
  const id = ++asked;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error('the primary process did not answer with the metrics'));
    }, ASK_TIMEOUT_MS);
    waiting.set(id, (answer) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (answer.body !== undefined) resolve(answer.body);
      else reject(new Error(answer.error ?? 'no metrics'));
    });
    process.send!({ type: ASK, id });
  });
}

let aggregator: client.AggregatorRegistry<'text/plain; version=0.0.4; charset=utf-8'> | undefined;

/** The metrics this process answers: the whole cluster's when it is part of one. */
export async function metricsText(): Promise<{ contentType: string; body: string }> {
  if (cluster.isWorker && process.send) {
    return { contentType: registry.contentType, body: await askPrimary() };
  }
  if (aggregator)
    return { contentType: aggregator.contentType, body: await aggregator.clusterMetrics() };
  return scrape();
}

export interface MetricsEndpointOptions {
  /** METRICS_PORT; undefined: no metrics server. */
  port: number | undefined;
  host: string;
  /** METRICS_TOKEN: asked on the metrics port too when set. */
  token: string | undefined;
  /** This is the primary of a cluster (WEB_CONCURRENCY > 1): merge the workers' metrics. */
  clustered: boolean;
  log: { info(msg: string): void; warn(obj: object, msg: string): void };
}

export interface MetricsEndpoint {
  /** The port listened on (undefined: none). */
  port: number | undefined;
  close(): Promise<void>;
}

/**
 * Called once by `server.ts` (single process, or the primary): the cluster's
 * aggregation when `clustered`, and the metrics server on METRICS_PORT (bound
 * to METRICS_HOST, 127.0.0.1 unless set) answering `GET /metrics`.
 */
export async function startMetricsEndpoint(opts: MetricsEndpointOptions): Promise<MetricsEndpoint> {
  if (opts.clustered) {
    aggregator ??= new client.AggregatorRegistry();
    cluster.on('message', (worker, message: { type?: string; id?: number }) => {
      if (message?.type !== ASK) return;
      const id = message.id;
      metricsText().then(
        ({ body }) => worker.isConnected() && worker.send({ type: ANSWER, id, body }),
        (err: unknown) =>
          worker.isConnected() && worker.send({ type: ANSWER, id, error: String(err) }),
      );
    });
  }
  if (opts.port === undefined) return { port: undefined, close: async () => undefined };
  const server: Server = createServer((request, response) => {
    const pathname = (request.url ?? '/').split('?')[0];
    const json = (status: number, body: object, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
      response.end(JSON.stringify(body));
    };
    if (pathname !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      json(404, { code: 'NOT_FOUND', message: 'Only GET /metrics is served on this port' });
      return;
    }
    if (opts.token !== undefined && !bearerMatches(request.headers.authorization, opts.token)) {
      json(
        401,
        { code: 'UNAUTHENTICATED', message: 'A metrics token is required.' },
        { 'www-authenticate': 'Bearer' },
      );
      return;
    }
    metricsText().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : body);
      },
      (err: unknown) => {
        opts.log.warn({ err }, 'metrics scrape failed');
        json(503, { code: 'SERVICE_UNAVAILABLE', message: 'The metrics could not be collected.' });
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  opts.log.info(`Metrics at http://${opts.host}:${port}/metrics`);
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
