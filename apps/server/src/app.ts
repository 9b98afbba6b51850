import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { fastifyTrustProxy, type RuntimeConfig } from './config';
import { RequestLog } from './logger';
import type { Database } from './db/client';
import './kernel/context';
import { registerCompression } from './http/compression';
import { closeOnClientError } from './http/client-errors';
import { installErrorHandler, sendError, toAppError } from './http/errors';
import { registerOpenApi } from './http/openapi';
import { securityHeaders } from './http/security-headers';
import { registerWebApp } from './http/web-app';
import { createJobQueue, poolOf } from './jobs/queue';
import { observability } from './observability/plugin';
import { registerWorkers } from './workers';
import { alarmMailModule } from './modules/alarm-mail/plugin';
import { integrationsRoutes } from './modules/integrations/plugin';
import { alarmsRoutes } from './modules/alarms/plugin';
import { auditRoutes } from './modules/audit/plugin';
import { auditReviewRoutes } from './modules/audit-review/plugin';
import { evidenceRoutes } from './modules/evidence/plugin';
import { authRoutes } from './modules/identity/plugin';
import { createPasswordHasher } from './modules/identity';
import { principalResolver } from './modules/identity';
import { configurationRoutes } from './modules/configuration/plugin';
import { recomputeRecord } from './modules/ingest';
import { ingestRoutes } from './modules/ingest/plugin';
import { keysRoutes } from './modules/identity/plugin';
import { kpisRoutes } from './modules/kpis/plugin';
import { legalRoutes } from './modules/legal/plugin';
import { termsGate } from './modules/legal';
import { notificationsRoutes } from './modules/notifications/plugin';
import { passwordRoutes, secondFactorRoutes } from './modules/identity/plugin';
import { recordsRoutes } from './modules/records/plugin';
import { listsRoutes } from './modules/lists/plugin';
import { reportsRoutes } from './modules/reports/plugin';
import { reviewRoutes } from './modules/review/plugin';
import { calibrationRoutes } from './modules/calibration/plugin';
import { displayRulesRoutes } from './modules/display-rules/plugin';
import { healthRoutes } from './modules/health/plugin';
import { tagAssignmentRoutes } from './modules/tag-assignment/plugin';
import { tokenRoutes } from './modules/identity/plugin';
import { usersRoutes } from './modules/users/plugin';

export interface AppOptions {
  config: RuntimeConfig;
  db: Database;
  /** Job queue tuning: tests poll faster; a process may send jobs without running workers. */
  jobs?: { pollingIntervalSeconds?: number; runWorkers?: boolean };
}

/**
 * The whole product as one Fastify plugin (fastify/demo style): the API of
 * the contract's calls, its OpenAPI document and the built web app. It holds
 * no state that matters in memory, so several instances can share a database.
 */
export const coldtraceApp = fp<AppOptions>(
  async (app, { config, db, jobs }) => {
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    app.decorate('config', config);
    app.decorate('db', db);
    app.decorate('passwords', createPasswordHasher(config.argon2));
    app.decorateRequest('principal', null);
    // Who is calling: the auth module answers, `registerCall` asks.
    await app.register(principalResolver);
    app.decorate('jobs', createJobQueue(poolOf(db), app.log, jobs));
    // Every job's worker, from the job catalogue (`workers.ts`). Workers start
    // when the app is ready; they stop (finishing the jobs in hand) before the
    // database pool closes.
    registerWorkers(app);
    app.addHook('onReady', async () => app.jobs.start());
    app.addHook('onClose', async () => app.jobs.stop());

    installErrorHandler(app, config.bodyLimitBytes);
    // Request metrics of every route below, /livez, /readyz and /metrics (never the web app).
    await app.register(observability, { metricsToken: config.metrics.token });

    // JSON only (plus no body at all): other content types answer 415. An empty
    // JSON body counts as no body, so body-less POSTs work from any client.
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      if (body === '' || (typeof body === 'string' && body.trim() === '')) {
        done(null, undefined);
        return;
      }
      parseJson(request, body as string, done);
    });

    await app.register(cookie);
    // CSP, HSTS over https, nosniff, frame and referrer policies on every reply.
    await app.register(securityHeaders, { mapTileUrl: config.mapTileUrl });
    // br or gzip replies as the client asks (COMPRESSION=off: a proxy compresses instead).
    // Before any route: it hooks the routes added after it.
    if (config.compression) await registerCompression(app);

    app.addHook('onSend', async (request, reply, payload) => {
      void reply.header('x-request-id', request.id);
      if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
        void reply.header('cache-control', 'no-store');
      }
      return payload;
    });

    await registerOpenApi(app);
    await app.register(termsGate);
    await app.register(authRoutes);
    await app.register(legalRoutes);
    await app.register(passwordRoutes);
    await app.register(secondFactorRoutes);
    await app.register(recordsRoutes);
    await app.register(listsRoutes);
    await app.register(configurationRoutes);
    await app.register(ingestRoutes);
    await app.register(tokenRoutes);
    // Alarms get ingest's recompute here (ingest calls the alarm lifecycle: no loop).
    await app.register(alarmsRoutes, { recomputeRecord });
    await app.register(notificationsRoutes);
    await app.register(auditRoutes);
    await app.register(auditReviewRoutes);
    await app.register(evidenceRoutes);
    await app.register(alarmMailModule);
    await app.register(reportsRoutes);
    await app.register(reviewRoutes);
    await app.register(calibrationRoutes);
    await app.register(displayRulesRoutes);
    await app.register(usersRoutes);
    await app.register(keysRoutes);
    await app.register(tagAssignmentRoutes);
    await app.register(integrationsRoutes);
    await app.register(kpisRoutes);
    await app.register(healthRoutes);
    await registerWebApp(app, config.webDist);
  },
  { name: 'coldtrace', fastify: '5.x' },
);

export interface BuildAppOptions extends AppOptions {
  /** The pino logger; none (silent) when absent, as in tests. */
  logger?: FastifyBaseLogger;
}

/** Build the app without listening: `server.ts` listens, tests use `app.inject`. */
export async function buildApp({
  config,
  db,
  logger,
  jobs,
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(logger
      ? { loggerInstance: logger, logController: new RequestLog(logger) }
      : { logger: false }),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: config.bodyLimitBytes,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Errors raised before routing (e.g. a malformed URL) answer the catalogue's shape too.
    frameworkErrors: (error, request, reply) => {
      void sendError(reply, toAppError(error, request, config.bodyLimitBytes));
    },
    // A request Node could not even parse (431, 400, 408): `Connection: close`, then closed.
    clientErrorHandler: closeOnClientError,
  });
  await app.register(coldtraceApp, { config, db, ...(jobs ? { jobs } : {}) });
  return app;
}
