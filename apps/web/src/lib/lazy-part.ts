import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { loadChunk } from './chunk-load';

/** A part of a screen whose code loads on first use: a menu, a popover, a dialog. */
export interface LazyPart<P> {
  /** The component; render it inside `<Suspense>`. */
  Component: LazyExoticComponent<ComponentType<P>>;
  /** Loads the code once (again after a failure); what `Component` and `preload` use. */
  load: () => Promise<ComponentType<P>>;
  /**
   * Starts loading the code ahead of use (on hover or focus of what opens it),
   * so that it is usually there by the click. Safe to call any number of times.
   */
  preload: () => void;
}

/**
 * A lazily loaded part, with the chunk time-out of the pages (spec section 8).
 * A failed load is forgotten: the next one tries again. A failure while
 * rendering reaches the error boundary as a `ChunkLoadError`.
 */
export function lazyPart<P extends object>(
  importPart: () => Promise<ComponentType<P>>,
): LazyPart<P> {
  let loading: Promise<ComponentType<P>> | null = null;
  const load = () => {
    loading ??= loadChunk(importPart).catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };
  return {
    Component: lazy(async () => ({ default: await load() })),
    load,
    preload: () => {
      load().catch(() => undefined);
    },
  };
}

/** Style of a button whose part is still loading after a click (it is also `aria-busy`). */
export const loadingButtonSx = { opacity: 0.6, cursor: 'progress' } as const;
