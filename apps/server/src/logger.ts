import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { pino, type LoggerOptions } from 'pino';
import type { LogLevel } from './config';
import { activeTraceIds, tracingActive } from './observability/tracing';

/** Never a password, token, cookie or key in a log line. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrftoken"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'password',
  '*.password',
  '*.new_password',
  '*.old_password',
  '*.new_password_confirm',
  '*.token',
  '*.private_key',
];

const REDACTED = '[redacted]';

/**
 * The one-time links of spec section 2 carry their secret in the path
 * (`/passwordreset/{uuid}/{token}`, `/welcome/{uuid}/{token}`), and so do
 * invitations (`/invitation/{uuid}/{token}`): a request log line keeps the uuid
 * and hides the token. `/welcome/passwordresetconfirm` has
 * no token and stays as it is.
 */
const SECRET_LINK_PATH = /^(\/(?:passwordreset|welcome|invitation)\/[^/?#]+\/)[^/?#]+/;

export function redactUrl(url: string): string {
  return url.replace(SECRET_LINK_PATH, `$1${REDACTED}`);
}

/** Fastify's request serializer, with the secret of a one-time link hidden. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: typeof request.url === 'string' ? redactUrl(request.url) : request.url,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The status of a reply, as Fastify's own serializer writes it. */
const serializeReply = (reply: FastifyReply) => ({ statusCode: reply.statusCode });

/**
 * One log line per request, written when it completes: the request (method,
 * redacted URL, host, address), the status and the time taken, as an access
 * log (nginx, pino-http). Fastify's default writes a second line as each
 * request comes in; that line now comes at `debug` only (LOG_LEVEL=debug, to
 * see a request that never completes). Half the log's volume, and each line
 * costs its serialization, the redaction and a write: the server spends
 * 1-3 % less CPU on a records list page (docs/decisions/list-performance.md,
 * "Request log line"). Errors are logged as before, with the request.
 *
 * The completed line is written by a child of the server's logger without
 * the redaction pass: nothing on it can hold a secret, since its request and
 * reply are serializers' own few fields (no header, no body) and the URL's
 * one-time secret is hidden by `redactUrl`. The pass walked REDACT_PATHS'
 * wildcards through each of the line's objects on every request, a tenth of
 * the CPU of a small call (docs/decisions/list-performance.md,
 * "Request log line"). Every other line (errors, the incoming line) keeps the redaction.
 */
export class RequestLog extends LogController {
  private readonly completed: FastifyBaseLogger;

  constructor(logger: FastifyBaseLogger) {
    super();
    // The serializers are named here, not inherited, so that the line without
    // redaction holds their few fields whatever logger the app is given.
    this.completed = logger.child(
      {},
      { serializers: { req: serializeRequest, res: serializeReply }, redact: { paths: [] } },
    );
  }

  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (this.isLogDisabled(request)) return;
    const responseTime = reply.elapsedTime;
    if (error)
      reply.log.error({ req: request, res: reply, responseTime, err: error }, 'request errored');
    else
      this.completed.info(
        { [this.requestIdLogLabel]: request.id, req: request, res: reply, responseTime },
        'request completed',
      );
  }
}

/** Fields of a PostgreSQL error that name what failed without any value. */
const PG_FIELDS = [
  'code',
  'severity',
  'constraint',
  'table',
  'column',
  'schema',
  'routine',
] as const;

/** Keys of an error that hold the values of a failed query (drizzle: `params`). */
const PARAMETER_KEYS = ['params', 'parameters'] as const;

/** The parameter lists along an error's cause chain. */
function parameterListsOf(err: unknown): unknown[][] {
  const lists: unknown[][] = [];
  const seen = new Set<unknown>();
  for (let e = err; e !== null && typeof e === 'object' && !seen.has(e);) {
    seen.add(e);
    for (const key of PARAMETER_KEYS) {
      const value = (e as Record<string, unknown>)[key];
      if (Array.isArray(value)) lists.push(value);
    }
    e = (e as { cause?: unknown }).cause;
  }
  return lists;
}

/** Every string a parameter holds (arrays and objects flattened), long enough to be worth hiding. */
function parameterStrings(lists: unknown[][]): string[] {
  const out = new Set<string>();
  const visit = (value: unknown, depth: number): void => {
    if (typeof value === 'string') {
      if (value.length >= 3) out.add(value);
    } else if (value !== null && typeof value === 'object' && depth < 5) {
      for (const v of Object.values(value)) visit(v, depth + 1);
    }
  };
  for (const list of lists) visit(list, 0);
  // Longest first, so a value containing another is hidden whole.
  return [...out].sort((a, b) => b.length - a.length);
}

function scrubText(text: string, lists: unknown[][], values: string[]): string {
  let out = text;
  // drizzle's DrizzleQueryError message: "Failed query: <sql>\nparams: <values joined by ,>".
  for (const list of lists) out = out.split(`\nparams: ${String(list)}`).join('');
  for (const value of values) out = out.split(value).join(REDACTED);
  return out;
}

/**
 * pino's error serializer, without the values of a failed query: a drizzle
 * error's `params` (and the copy of them in its message and stack) and a
 * PostgreSQL error's `detail` (e.g. "Key (email)=(ada@example.com) already
 * exists") are removed; the SQL text, the error code and the constraint stay.
 */
export function serializeError(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as unknown;
  if (out === null || typeof out !== 'object' || out === err) return out;
  const record = out as Record<string, unknown>;
  const lists = parameterListsOf(err);
  const values = parameterStrings(lists);
  for (const key of PARAMETER_KEYS) {
    if (key in record) record[key] = REDACTED;
  }
  if (typeof record.detail === 'string') record.detail = REDACTED;
  // A query error wraps PostgreSQL's: keep its code and names (never its detail) on the line.
  const cause = (err as { cause?: unknown } | null)?.cause as Record<string, unknown> | undefined;
  if (cause && typeof cause.code === 'string' && typeof cause.severity === 'string') {
    record.pg = Object.fromEntries(
      PG_FIELDS.filter((k) => typeof cause[k] === 'string').map((k) => [k, cause[k]]),
    );
  }
  for (const key of ['message', 'stack'] as const) {
    const text = record[key];
    if (typeof text === 'string') record[key] = scrubText(text, lists, values);
  }
  return out;
}

/**
 * With tracing on, every line written under a span (a request's, a job's)
 * carries its `trace_id` and `span_id`, so that a log line leads to its trace
 * and a trace to its lines (OpenTelemetry's log correlation, the field names of
 * its pino instrumentation). Without tracing no mixin runs.
 */
export function loggerOptions(
  level: LogLevel,
  pretty = process.stdout.isTTY === true,
  withTraceIds = tracingActive(),
): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: { err: serializeError, req: serializeRequest },
    ...(withTraceIds ? { mixin: activeTraceIds } : {}),
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}

/**
 * The most bytes of one write of log lines: whole lines up to PIPE_BUF
 * (Linux: 4096), so that a write to a pipe that several server processes
 * share (a container's or a service manager's standard output) is atomic and
 * their lines never interleave mid-line, as when each line was written alone.
 */
export const LOG_WRITE_MAX_BYTES = 4096;
/** Bytes of log lines gathered before a write (list-performance.md, "Log batching"). */
export const LOG_BUFFER_BYTES = 3584;
/** How often what is gathered is written (sonic-boom's periodicFlush). */
export const LOG_FLUSH_MS = 1000;

/**
 * The server's logger. Lines go to standard output (`dest`: another file
 * descriptor or a path, for tests) in writes of whole lines, from
 * LOG_BUFFER_BYTES up to LOG_WRITE_MAX_BYTES, off the event loop, instead of
 * one write per line: under load a write was a tenth of a small call's CPU
 * (list-performance.md, "Log batching"). A line waits about LOG_FLUSH_MS
 * (what a write under way at a tick leaves goes at the next); an error or
 * fatal line is written at once with everything before it, or as soon as a
 * write under way is done; the lines still gathered are written when the
 * process exits (pino's exit hook, `process.exit` included). A process killed
 * outright (SIGKILL, out of memory) loses at most its last second or two of
 * request lines. A terminal gets pino-pretty as before.
 */
export function createLogger(level: LogLevel, dest: number | string = 1) {
  const options = loggerOptions(level);
  if (options.transport) return pino(options);
  const destination = pino.destination({
    dest,
    sync: false,
    minLength: LOG_BUFFER_BYTES,
    maxWrite: LOG_WRITE_MAX_BYTES,
    // sonic-boom's own timer (unref'd): whatever is gathered, every LOG_FLUSH_MS.
    periodicFlush: LOG_FLUSH_MS,
  });
  // An error line asks for a write at once; when a write is under way (the
  // flush is then a no-op), again as soon as the destination is idle.
  let errorWaiting = false;
  destination.on('drain', () => {
    if (!errorWaiting) return;
    errorWaiting = false;
    destination.flush();
  });
  return pino(
    {
      ...options,
      hooks: {
        // Children (the request lines' logger too) share their parent's hooks.
        logMethod(args, method, lineLevel) {
          method.apply(this, args);
          if (lineLevel >= pino.levels.values.error!) {
            errorWaiting = true;
            destination.flush();
          }
        },
      },
    },
    destination,
  );
}
