import { ModelShapeError } from '@coldtrace/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { shouldRetry } from './query-client';

describe('query retries [SPEC-9.6]', () => {
  it('never retries a 4xx', () => {
    expect(shouldRetry(0, new ApiError(400, 'VALIDATION_ERROR', 'x'))).toBe(false);
    expect(shouldRetry(0, new ApiError(404, 'NOT_FOUND', 'x'))).toBe(false);
  });

  it('never retries a reply of the wrong shape', () => {
    expect(shouldRetry(0, new ModelShapeError('User', { id: 'Missing' }))).toBe(false);
  });

  it('retries a 5xx once', () => {
    expect(shouldRetry(0, new ApiError(500, 'INTERNAL', 'x'))).toBe(true);
    expect(shouldRetry(1, new ApiError(500, 'INTERNAL', 'x'))).toBe(false);
  });
});
