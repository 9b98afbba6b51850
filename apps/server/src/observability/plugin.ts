import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { pendingMigrations } from '../db/migrate';
import { sendError } from '../http/errors';
import { poolOf } from '../jobs/queue';
import { AppError, notFoundSaying } from '../kernel/errors';
import { bearerMatches } from './bearer';
import { metricsText } from './cluster-metrics';
import { addScrapeSource, metrics } from './metrics';
import { poolSource, queueSource } from './sources';
import { nameRequestSpan, tracingActive } from './tracing';

/**
 * Observability of the app (docs/decisions/observability.md): the request
 * metrics of every route, the scrape sources of this app's pool and job
 * queue, and three paths outside /api/ that never fall to the web app:
 *
 * - `GET /livez`: the process answers (no database): 200 `{"status":"ok"}`;
 * - `GET /readyz`: the database answers, no migration is pending and the job
 *   queue runs: 200, else 503 `{"status":"unavailable","reason":...}`;
 * - `GET /metrics`: only with `Authorization: Bearer <METRICS_TOKEN>` (401
 *   otherwise); without METRICS_TOKEN it answers 404 (scrape METRICS_PORT).
 *
 * Registered before every route (its onResponse hook sees them all).
 */

/** The database must answer within this time for /readyz to say ready. */
export const READY_TIMEOUT_MS = 2_000;

export interface ObservabilityOptions {
  /** METRICS_TOKEN: /metrics on the main port answers with it only; undefined: 404. */
  metricsToken: string | undefined;
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

const sendJson = (reply: FastifyReply, status: number, body: object) =>
  reply
    .code(status)
    .header('cache-control', 'no-store')
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(body));

export const observability = fp<ObservabilityOptions>(
  async (app: FastifyInstance, { metricsToken }) => {
    // Route pattern (bounded), never the URL; no route matched (404, web app files): 'unmatched'.
    app.addHook('onResponse', async (request, reply) => {
      metrics.request(
        request.routeOptions.url ?? null,
        request.method,
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
    });

    // Traces on: the request's span gets its route (no hook at all otherwise).
    if (tracingActive()) {
      app.addHook('onRequest', async (request) => {
        nameRequestSpan(request.method, request.routeOptions.url);
      });
    }

    const pool = poolOf(app.db);
    const removers = [
      addScrapeSource(poolSource(pool)),
      addScrapeSource(queueSource(pool, () => app.jobs.names)),
    ];
    app.addHook('onClose', async () => {
      for (const remove of removers) remove();
    });

    // Migrations are never undone: once seen applied, not read again.
    let migrated = false;
    const notReady = async (): Promise<string | null> => {
      try {
        await withTimeout(app.db.execute(sql`select 1`), READY_TIMEOUT_MS, 'database');
      } catch (err) {
        return `database unreachable: ${err instanceof Error ? err.message : String(err)}`;
      }
      if (!migrated) {
        try {
          const pending = await withTimeout(
            pendingMigrations(app.db),
            READY_TIMEOUT_MS,
            'migrations',
          );
          if (pending.length > 0) return `migrations pending: ${pending.join(', ')}`;
          migrated = true;
        } catch (err) {
          return `migrations unknown: ${err instanceof Error ? err.message : String(err)}`;
        }
      }
      if (!app.jobs.running) return 'job queue not started';
      return null;
    };

    const hidden = { schema: { hide: true }, logLevel: 'warn' as const };
    app.get('/livez', hidden, async (_request, reply) => sendJson(reply, 200, { status: 'ok' }));
    app.get('/readyz', hidden, async (_request, reply) => {
      const reason = await notReady();
      if (reason === null) return sendJson(reply, 200, { status: 'ready' });
      void reply.header('retry-after', '5');
      return sendJson(reply, 503, { status: 'unavailable', reason });
    });
    app.get('/metrics', hidden, async (request, reply) => {
      if (metricsToken === undefined) {
        return sendError(
          reply,
          notFoundSaying('Metrics are not served on this port (set METRICS_TOKEN or METRICS_PORT)'),
        );
      }
      if (!bearerMatches(request.headers.authorization, metricsToken)) {
        void reply.header('www-authenticate', 'Bearer');
        return sendError(reply, new AppError('UNAUTHENTICATED', 'A metrics token is required.'));
      }
      const { contentType, body } = await metricsText();
      return reply.header('cache-control', 'no-store').type(contentType).send(body);
    });
  },
  { name: 'coldtrace-observability', fastify: '5.x' },
);
