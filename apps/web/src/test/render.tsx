import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import type { QueryClient } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import userEvent, { PointerEventsCheckLevel, type UserEvent } from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { AppProviders } from '../app/providers';
import { createQueryClient } from '../lib/query-client';

/**
 * Renders a component as the app does (app/providers.tsx: the app's theme,
 * CssBaseline, the shared error handler, a query client) inside a memory
 * router, so its real hooks run: queries go through the API client to the
 * stubbed `fetch` (api.ts).
 *
 * The styles are made from the real theme as in the app, but written into a
 * detached element: jsdom lays nothing out, and with MUI's stylesheet in the
 * document every `getComputedStyle` (MUI's autosizing text areas, Testing
 * Library's accessible names) matched all its rules, which took most of the
 * tests' time. No test here depends on a style.
 */

/** A style cache whose <style> elements stay out of the document. */
const detachedStyles = () => createCache({ key: 'css', container: document.createElement('div') });

const clients = new Set<QueryClient>();

/** The app's query client, without retries (an error shows at once) and without gc timers. */
export function createTestQueryClient(): QueryClient {
  const client = createQueryClient();
  const defaults = client.getDefaultOptions();
  client.setDefaultOptions({
    queries: { ...defaults.queries, retry: false, gcTime: Infinity },
    mutations: { ...defaults.mutations, retry: false },
  });
  clients.add(client);
  return client;
}

/** Forgets every query client of the test (setup.ts, after each test). */
export function clearTestQueryClients(): void {
  for (const client of clients) client.clear();
  clients.clear();
}

export interface AppRender extends RenderResult {
  /** user-event, without delays between keystrokes. */
  user: UserEvent;
  queryClient: QueryClient;
  router: ReturnType<typeof createMemoryRouter>;
}

export function renderInApp(
  ui: ReactElement,
  {
    route = '/',
    path = '*',
    queryClient = createTestQueryClient(),
  }: { route?: string; path?: string; queryClient?: QueryClient } = {},
): AppRender {
  const router = createMemoryRouter([{ path, element: ui }], { initialEntries: [route] });
  const user = userEvent.setup({ delay: null, pointerEventsCheck: PointerEventsCheckLevel.Never });
  const view = render(
    <CacheProvider value={detachedStyles()}>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={router} />
      </AppProviders>
    </CacheProvider>,
  );
  return { ...view, user, queryClient, router };
}

/**
 * Puts text in a field as a paste (one input event): typing key by key into
 * MUI's autosizing text areas costs a layout pass per key, for nothing the
 * test checks. `user.type` stays for keys (Enter, Tab).
 */
export async function fill(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  await user.clear(field);
  if (text !== '') await user.paste(text);
}
