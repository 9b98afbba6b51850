// First, as in main.tsx: before the contract's schemas are built.
import '../zod-config';
import { CSRF_COOKIE } from '@coldtrace/contract';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { configureApiClient } from '../lib/api-client';
import { resetAppSettings } from '../lib/app-settings';
import { reportApiProblem, takeApiProblems } from './api';
import { clearTestQueryClients } from './render';

/**
 * Setup of the component tests (project web-dom, jsdom): a CSRF cookie so
 * state-changing calls go out at once, the API client's trip to /login
 * reported as a problem, and after each test: unmount, fail on the API's
 * problems, restore `fetch`, forget caches, display settings and storage
 * (the files of a worker share one module graph: vitest.config.ts).
 */

// findBy…/waitFor give up after 5 s, not 1 s: the CI machine's two cores are shared with
// the other test files. A passing test waits only for the event it looks for.
configure({ asyncUtilTimeout: 5000 });

configureApiClient({ redirectToLogin: () => reportApiProblem('The API client went to /login') });

beforeEach(() => {
  document.cookie = `${CSRF_COOKIE}=test-csrf-token`;
});

afterEach(() => {
  cleanup();
  clearTestQueryClients();
  const problems = takeApiProblems();
  vi.unstubAllGlobals();
  resetAppSettings();
  localStorage.clear();
  sessionStorage.clear();
  expect(problems, 'problems of the stubbed API').toEqual([]);
});
