import { createRequire } from 'node:module';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type * as OtlpExporter from '@opentelemetry/exporter-trace-otlp-http';
import type * as HttpInstrumentationModule from '@opentelemetry/instrumentation-http';
import type * as PgInstrumentationModule from '@opentelemetry/instrumentation-pg';
import type * as SdkNode from '@opentelemetry/sdk-node';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

/**
 * OpenTelemetry traces (docs/decisions/observability.md). Off unless
 * OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set:
 * then `tracing-init.ts`, imported first by `server.ts`, starts the official
 * Node SDK with the http and pg instrumentations before Fastify or `pg` load.
 * The SDK itself is loaded only then (`require`, synchronous, so it is in
 * place before the next import of `server.ts` runs): a server without the
 * variable loads none of it and pays nothing but the no-op API below.
 *
 * `http` and `pg` are instrumented by require hooks, so they must stay
 * external npm dependencies of a bundled build (they are: esbuild marks
 * node_modules external); code bundled into the server's own file is not
 * instrumented, which is why jobs get their span here, by hand.
 */

/** The variables that switch tracing on (the SDK reads the rest of OTEL_* itself). */
export function tracingWanted(env: Record<string, string | undefined> = process.env): boolean {
  const set = (name: string) => (env[name] ?? '').trim() !== '';
  if ((env.OTEL_SDK_DISABLED ?? '').trim().toLowerCase() === 'true') return false;
  if ((env.OTEL_TRACES_EXPORTER ?? '').trim().toLowerCase() === 'none') return false;
  return set('OTEL_EXPORTER_OTLP_ENDPOINT') || set('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
}

export interface TracingHandle {
  /** Flushes the spans still buffered and stops the SDK (idempotent). */
  shutdown(): Promise<void>;
}

/** What tests hand in instead of the OTLP exporter (an `InMemorySpanExporter`'s processor). */
export interface TracingOptions {
  spanProcessors?: SpanProcessor[];
  serviceName?: string;
}

/**
 * The started SDK, kept on the global object: a bundled server that is also
 * given `--import dist/tracing-init.js` holds two copies of this module, and
 * the second must not start a second SDK.
 */
const RUNNING = Symbol.for('coldtrace.tracing');
const slot = globalThis as { [RUNNING]?: TracingHandle };

/**
 * Starts the Node SDK: OTLP over HTTP (the SDK reads OTEL_EXPORTER_OTLP_* and
 * OTEL_SERVICE_NAME, default `coldtrace`), the http and pg instrumentations,
 * no OpenTelemetry metrics or logs (metrics are Prometheus', logs pino's).
 * Call before `http`, `fastify` or `pg` are loaded.
 */
export function startTracing(options: TracingOptions = {}): TracingHandle {
  const started = slot[RUNNING];
  if (started) return started;
  const require = createRequire(import.meta.url);
  // Type-only imports above; the modules themselves are loaded here, only when tracing is on.
  const { NodeSDK } = require('@opentelemetry/sdk-node') as typeof SdkNode;
  const { HttpInstrumentation } =
    require('@opentelemetry/instrumentation-http') as typeof HttpInstrumentationModule;
  const { PgInstrumentation } =
    require('@opentelemetry/instrumentation-pg') as typeof PgInstrumentationModule;
  const otlp = options.spanProcessors
    ? undefined
    : (require('@opentelemetry/exporter-trace-otlp-http') as typeof OtlpExporter);
  const sdk = new NodeSDK({
    serviceName: options.serviceName ?? (process.env.OTEL_SERVICE_NAME?.trim() || 'coldtrace'),
    ...(options.spanProcessors
      ? { spanProcessors: options.spanProcessors }
      : { traceExporter: new otlp!.OTLPTraceExporter() }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        // Health probes and scrapes every few seconds would drown the traces.
        ignoreIncomingRequestHook: (request) => isProbePath(request.url ?? ''),
      }),
      // Spans only under a request or a job: not pg-boss's polling every 2 s.
      new PgInstrumentation({ requireParentSpan: true, enhancedDatabaseReporting: false }),
    ],
  });
  sdk.start();
  let stopped: Promise<void> | undefined;
  const handle: TracingHandle = {
    shutdown: () => (stopped ??= sdk.shutdown().catch(() => undefined)),
  };
  slot[RUNNING] = handle;
  return handle;
}

/** The SDK was started in this process. */
export const tracingActive = (): boolean => slot[RUNNING] !== undefined;

/**
 * The request's server span (made by the http instrumentation, which knows no
 * routes) named by its route pattern, as OpenTelemetry's conventions ask:
 * `POST /api/records/:id/`, attribute `http.route`.
 */
export function nameRequestSpan(method: string, route: string | undefined): void {
  if (route === undefined) return;
  const span = trace.getActiveSpan();
  if (!span) return;
  span.setAttribute('http.route', route);
  span.updateName(`${method} ${route}`);
}

/** The active span's ids for a log line (none outside a span). */
export function activeTraceIds(): { trace_id?: string; span_id?: string } {
  const context = trace.getActiveSpan()?.spanContext();
  return context ? { trace_id: context.traceId, span_id: context.spanId } : {};
}

/** Paths no span is made for (probes and scrapes). */
export function isProbePath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return pathname === '/livez' || pathname === '/readyz' || pathname === '/metrics';
}

const tracer = (): Tracer => trace.getTracer('coldtrace');

/**
 * Runs one job's handler in a span `job <name>` (attributes: the job's id,
 * name and attempt), a root span of its own: the job's SQL is its children.
 * Without the SDK the API is a no-op and this costs a function call.
 */
export async function inJobSpan<T>(
  name: string,
  job: { id: string; retryCount: number },
  run: () => Promise<T>,
): Promise<T> {
  return tracer().startActiveSpan(
    `job ${name}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'pg-boss',
        'messaging.destination.name': name,
        'messaging.message.id': job.id,
        'coldtrace.job.retry_count': job.retryCount,
      },
    },
    // A root of its own: not a child of whatever the queue's polling loop carried.
    ROOT_CONTEXT,
    async (span) => {
      try {
        return await run();
      } catch (err) {
        span.recordException(err instanceof Error ? err : String(err));
        span.setStatus({ code: SpanStatusCode.ERROR, message: String(err) });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}
