import { startTracing, tracingWanted } from './tracing';

/**
 * Imported first by `server.ts`, before anything that loads `http`, Fastify or
 * `pg`: starts the OpenTelemetry SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set
 * (synchronously: the require hooks are in place before the next import of
 * `server.ts` is evaluated). Without it, nothing of the SDK is loaded.
 *
 * A bundle (one ES module) evaluates every external import (`pg`, `fastify`)
 * before any of its own code, this module's included: a bundled server is
 * started with this module as a preload of its own, `node --import
 * ./dist/tracing-init.js ./dist/server.js` (the copy inside the bundle then
 * finds the SDK started and does nothing).
 */
export const tracing = tracingWanted() ? startTracing() : undefined;
