import { ERROR_CODES, type TErrorCode } from '@coldtrace/contract';

/**
 * The one error catalogue of the server (architecture convention 3). Throw an
 * `AppError` anywhere below a route; the HTTP error handler (`http/errors.ts`)
 * turns it into a `ZErrorReply` with the status the contract's `ERROR_CODES`
 * gives its code. 4xx replies say what and which field; 5xx replies never carry
 * internals.
 */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: TErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.statusCode = ERROR_CODES[code];
  }
}

/** Seconds a client is told to wait (Retry-After) while the database is unreachable. */
export const RETRY_AFTER_SECONDS = 5;

/** 503 while the database is away: the server is up and recovers by itself. */
export const serviceUnavailable = () =>
  new AppError(
    'SERVICE_UNAVAILABLE',
    'The service is temporarily unavailable (its database cannot be reached). Try again shortly.',
    undefined,
    { 'retry-after': String(RETRY_AFTER_SECONDS) },
  );

/**
 * 404 `NOT_FOUND`: "<what> not found", naming `field` (the parameter or body
 * field that held the id) when given.
 */
export function notFound(what: string, field?: string): AppError {
  return notFoundSaying(`${what} not found`, field);
}

/**
 * 404 `NOT_FOUND` in other words than "<what> not found" (several ids at once, a
 * lookup by something else than an id, a route or a file), naming `field` with
 * `fieldMessage` (the message itself by default) when given.
 */
export function notFoundSaying(message: string, field?: string, fieldMessage = message): AppError {
  return new AppError(
    'NOT_FOUND',
    message,
    field === undefined ? undefined : { [field]: fieldMessage },
  );
}

/** 403 `FORBIDDEN`: the caller is known but may not do this. */
export const forbidden = (message: string) => new AppError('FORBIDDEN', message);

/** A 400 `VALIDATION_ERROR` naming one field (checks the schema cannot express, e.g. a time zone). */
export const invalidField = (field: string, reason: string) =>
  new AppError('VALIDATION_ERROR', reason, { [field]: reason });
