import { ZErrorReply } from '@coldtrace/contract';

/**
 * An error reply of the API (a 4xx or 5xx that came with a response), passed on
 * to the caller. `code`, `message` and `fields` come from the server's
 * `{ code, message, fields? }` body when it has that shape.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  /** Builds the error from a failed response's status and (possibly non-JSON) body. */
  static fromReply(status: number, statusText: string, body: unknown): ApiError {
    const parsed = ZErrorReply.safeParse(body);
    if (parsed.success) {
      return new ApiError(status, parsed.data.code, parsed.data.message, parsed.data.fields ?? {});
    }
    const message = statusText
      ? `Request failed with status ${status} (${statusText})`
      : `Request failed with status ${status}`;
    return new ApiError(status, `HTTP_${status}`, message);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
