import { describe, expect, it, vi } from 'vitest';
import { ChunkLoadError } from './chunk-load';
import { lazyPart } from './lazy-part';

const Part = () => null;

describe('lazyPart [SPEC-8]', () => {
  it('loads the code once however often it is preloaded', async () => {
    const importPart = vi.fn(() => Promise.resolve(Part));
    const part = lazyPart(importPart);
    expect(importPart).not.toHaveBeenCalled();
    part.preload();
    part.preload();
    await expect(part.load()).resolves.toBe(Part);
    expect(importPart).toHaveBeenCalledTimes(1);
  });

  it('forgets a failed load: the next use tries again', async () => {
    const importPart = vi
      .fn<() => Promise<typeof Part>>()
      .mockRejectedValueOnce(new Error('Failed to fetch module'))
      .mockResolvedValueOnce(Part);
    const part = lazyPart(importPart);
    await expect(part.load()).rejects.toBeInstanceOf(ChunkLoadError);
    await expect(part.load()).resolves.toBe(Part);
    expect(importPart).toHaveBeenCalledTimes(2);
  });

  it('a failed preload is silent', async () => {
    const part = lazyPart(() => Promise.reject(new Error('offline')));
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    part.preload();
    await new Promise((resolve) => setTimeout(resolve, 0));
    process.off('unhandledRejection', unhandled);
    expect(unhandled).not.toHaveBeenCalled();
  });
});
