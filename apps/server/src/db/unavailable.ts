/**
 * Is `error` (or what caused it, e.g. the pg error inside Drizzle's
 * `DrizzleQueryError`) the database being unreachable, rather than a fault of
 * the query? Those become 503 SERVICE_UNAVAILABLE with Retry-After
 * (`http/errors.ts`), never a 500.
 */

/** Node socket errors of a connection that cannot be made or was cut. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs: 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03
 * cannot_connect_now (starting up, shutting down, recovering), 53300
 * too_many_connections; class 08 connection exceptions.
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** Messages of node-postgres (no code) when a connection ends or cannot be had in time. */
const MESSAGES = [
  /Connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /Client has encountered a connection error and is not queryable/i,
  /Connection is not open|not queryable/i,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (SOCKET_CODES.has(code) || SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code))
        return true;
      // A Unix socket whose file is gone (PostgreSQL down or restarting): connect ENOENT.
      if (code === 'ENOENT' && (current as { syscall?: unknown }).syscall === 'connect') {
        return true;
      }
    }
    // Drizzle's wrapper quotes the query and its parameters in its message: its cause decides.
    const quotesQuery = 'query' in current;
    if (!quotesQuery && MESSAGES.some((m) => m.test((current as Error).message))) return true;
    current = current.cause;
  }
  return false;
}
