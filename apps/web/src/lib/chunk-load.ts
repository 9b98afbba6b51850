import { CHUNK_LOAD_TIMEOUT_MS } from '@coldtrace/contract';

/** A lazily loaded script chunk that failed or did not arrive in time (spec section 8). */
export class ChunkLoadError extends Error {
  override readonly name = 'ChunkLoadError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/**
 * Loads a chunk (a dynamic `import()`), failing with a `ChunkLoadError` when it
 * fails or has not arrived after 120 s.
 */
export function loadChunk<T>(
  load: () => Promise<T>,
  timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(
        new ChunkLoadError(
          `Loading a part of the application timed out after ${timeoutMs / 1000} s`,
        ),
      );
    }, timeoutMs);
    load().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (cause: unknown) => {
        clearTimeout(timer);
        const detail = cause instanceof Error ? `: ${cause.message}` : '';
        reject(new ChunkLoadError(`Loading a part of the application failed${detail}`, { cause }));
      },
    );
  });
}
