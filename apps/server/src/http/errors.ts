import {
  describeIssue,
  issuesToFields,
  type TErrorCode,
  type TErrorReply,
} from '@coldtrace/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { isDatabaseUnavailable } from '../db/unavailable';
import { AppError, serviceUnavailable } from '../kernel/errors';

export function sendError(reply: FastifyReply, error: AppError): FastifyReply {
  const body: TErrorReply = { code: error.code, message: error.message };
  if (error.fields && Object.keys(error.fields).length > 0) body.fields = error.fields;
  if (error.headers) void reply.headers(error.headers);
  return reply.code(error.statusCode).send(body);
}

interface ValidationItem {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** Rebuild the Zod issues fastify-type-provider-zod put in `error.validation`. */
function toIssues(validation: ValidationItem[], context: string): z.core.$ZodIssue[] {
  return validation.map((v) => {
    const path = v.instancePath.split('/').filter((p) => p !== '');
    return {
      ...(v.params ?? {}),
      code: v.keyword,
      message: v.message ?? 'Invalid value',
      // An issue about the whole body (e.g. no body at all) names `body`.
      path: path.length > 0 ? path : [context],
    } as unknown as z.core.$ZodIssue;
  });
}

const CONTEXT_NAMES: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'headers',
};

/** Map any error reaching Fastify to an `AppError` (logging the unexpected ones). */
export function toAppError(error: unknown, request: FastifyRequest, bodyLimit: number): AppError {
  if (error instanceof AppError) return error;
  const err = error as FastifyError & { validationContext?: string };

  if (hasZodFastifySchemaValidationErrors(err)) {
    const context = CONTEXT_NAMES[err.validationContext ?? 'body'] ?? 'body';
    const issues = toIssues(err.validation as unknown as ValidationItem[], context);
    const fields = issuesToFields(issues);
    return new AppError(
      'VALIDATION_ERROR',
      `Invalid request ${context}: ${issues.map(describeIssue).join('; ')}`,
      fields,
    );
  }

  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('INVALID_JSON', 'The request body is not valid JSON', {
        body: 'Not valid JSON',
      });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('INVALID_JSON', 'The request body is empty', { body: 'Empty body' });
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      // A route may raise the limit (the device uploads do).
      const limit = request.routeOptions?.bodyLimit ?? bodyLimit;
      return new AppError(
        'PAYLOAD_TOO_LARGE',
        `The request body is larger than the limit of ${limit} bytes`,
        { body: `Larger than ${limit} bytes` },
      );
    }
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        'UNSUPPORTED_MEDIA_TYPE',
        `Content-Type '${String(request.headers['content-type'] ?? '')}' is not supported: send application/json`,
        { body: 'Unsupported content type' },
      );
    case 'FST_ERR_RESPONSE_SERIALIZATION':
      request.log.error(
        { err, issues: (err.cause as { issues?: unknown } | undefined)?.issues },
        'reply does not match its schema',
      );
      return new AppError('INTERNAL', 'Internal server error');
    default:
      break;
  }

  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const code: TErrorCode =
      status === 404
        ? 'NOT_FOUND'
        : status === 405
          ? 'METHOD_NOT_ALLOWED'
          : status === 413
            ? 'PAYLOAD_TOO_LARGE'
            : status === 415
              ? 'UNSUPPORTED_MEDIA_TYPE'
              : status === 429
                ? 'THROTTLED'
                : 'BAD_REQUEST';
    // Fastify's own 4xx messages describe the request, never the server.
    const message =
      typeof err.code === 'string' && err.code.startsWith('FST_') ? err.message : 'Bad request';
    return new AppError(code, message);
  }
  if (isDatabaseUnavailable(err)) {
    // Not the query's fault: logged without the query or its parameters.
    request.log.warn(
      { code: (err.cause as { code?: unknown } | undefined)?.code ?? err.code },
      'database unavailable: answered 503',
    );
    return serviceUnavailable();
  }
  request.log.error({ err }, 'unhandled error');
  return new AppError('INTERNAL', 'Internal server error');
}

export function installErrorHandler(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error, request, bodyLimit);
    if (appError.statusCode < 500) {
      request.log.info({ code: appError.code, status: appError.statusCode }, appError.message);
    }
    return sendError(reply, appError);
  });
}
