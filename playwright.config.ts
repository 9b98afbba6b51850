import { defineConfig, devices } from '@playwright/test';
import { existsSync } from 'node:fs';
import path from 'node:path';

const PORT = Number(process.env.E2E_PORT ?? 8123);

/**
 * Debian's Chromium headless shell (`chromium-headless-shell`, the same
 * engine and version as the `chromium` package, without the windowed
 * browser's UI) when installed: what Playwright itself runs headless by
 * default. The browser was most of the stage's CPU (508 s in a 580 s run);
 * the shell runs the stage in 372–380 s against 446–456 s for the full
 * browser (docs/decisions/test-suite.md). `CHROMIUM_PATH` chooses another.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const CHROMIUM =
  process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');
export const E2E_ADMIN = { email: 'admin@coldtrace.local', password: 'e2e-admin-Password-1' };

/**
 * Browser tests: the real server (embedded PostgreSQL in a fresh data folder,
 * seeded on first start) serving the built web app, driven through Debian's
 * Chromium. `npm run test:e2e` builds the web app first.
 */
export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // The list, and the results for the validation report (docs/validation.md): one file per
  // run, as e2e/shards.mjs runs shards side by side (E2E_RESULTS_FILE names each).
  reporter: [
    ['list'],
    [
      'json',
      {
        outputFile: path.join(
          process.env.VALIDATION_RESULTS_DIR ?? 'validation/out/results',
          process.env.E2E_RESULTS_FILE ?? 'playwright.json',
        ),
      },
    ],
  ],
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    // As a user who asked the system for less motion: menus and dialogs appear where
    // they stay (theme.ts), so no click lands on a menu still growing.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: {
    command: 'node e2e/start-server.mjs',
    url: `http://127.0.0.1:${PORT}/api/auth/csrf/`,
    timeout: 120_000,
    reuseExistingServer: false,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      ADMIN_EMAIL: E2E_ADMIN.email,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      EMBEDDED_PG_PORT: String(PORT + 1),
      LOG_LEVEL: 'warn',
    },
  },
});
