import { configDefaults, defineConfig } from 'vitest/config';
import { DurationSequencer } from './tools/test-order.ts';

const server = {
  name: 'server',
  root: 'apps/server',
  environment: 'node',
  globalSetup: ['./test/global-setup.ts'],
  // One module graph per worker, not per file: importing the server (Fastify, Drizzle,
  // the contract's schemas) again for each of its 112 files was a third of the stage's
  // worker time (import 254 s of 700; the stage 255 s → 181 s). Every file builds its
  // own app on its own database (`createTestApp`), and no test stubs a module or the
  // clock, so nothing a file does reaches the next one.
  isolate: false,
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

/** Server test files that run in a module graph of their own (see the project below). */
const OWN_MODULE_GRAPH = ['test/queries-sql.test.ts'];

export default defineConfig({
  test: {
    // Three test files at once, whatever the cores: Vitest's default is one fewer than the
    // cores (1 on the 2-core CI machine), and most server files wait on PostgreSQL or on a
    // child process, not on the CPU (the unit stage: 376 s with 1 worker, 188 s with 3).
    maxWorkers: 3,
    // Longest files first where Vitest has no results of its own (tools/test-order.ts).
    sequence: { sequencer: DurationSequencer },
    // The results for the validation report (npm run validation-report, docs/validation.md);
    // `--outputFile` on the command line writes them elsewhere.
    reporters: ['default', 'json'],
    outputFile: {
      json: `${process.env.VALIDATION_RESULTS_DIR ?? 'validation/out/results'}/vitest.json`,
    },
    projects: [
      { test: { name: 'contract', root: 'packages/contract', environment: 'node' } },
      { test: { name: 'domain', root: 'packages/domain', environment: 'node' } },
      { test: { ...server, exclude: [...configDefaults.exclude, ...OWN_MODULE_GRAPH] } },
      // Files whose result depends on module-level state being fresh (the list SQL they
      // record takes the first-page caches as a new server has them): a graph of their own.
      { test: { ...server, name: 'server-isolated', isolate: true, include: OWN_MODULE_GRAPH } },
      { test: { name: 'tools', root: 'tools', environment: 'node' } },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          environment: 'node',
          include: ['src/**/*.test.ts'],
        },
      },
      // Component tests (docs/decisions/test-suite.md, "Component tests"): React components
      // rendered with Testing Library in jsdom, inside the app's providers, the API stubbed.
      {
        test: {
          name: 'web-dom',
          root: 'apps/web',
          environment: 'jsdom',
          include: ['src/**/*.test.tsx'],
          setupFiles: ['./src/test/setup.ts'],
          // One module graph per worker (as the server's): importing MUI, the contract and
          // Testing Library again for each file was a quarter of the time. setup.ts resets what
          // a test leaves behind (the DOM, fetch, caches, settings, storage).
          isolate: false,
        },
      },
    ],
  },
});
