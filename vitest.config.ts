import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Three test files at once, whatever the cores: Vitest's default is one fewer than the
    // cores (1 on the 2-core CI machine), and most server files wait on PostgreSQL or on a
    // child process, not on the CPU (the unit stage: 376 s with 1 worker, 188 s with 3).
    maxWorkers: 3,
    // The results for the validation report (npm run validation-report, docs/validation.md);
    // `--outputFile` on the command line writes them elsewhere.
    reporters: ['default', 'json'],
    outputFile: {
      json: `${process.env.VALIDATION_RESULTS_DIR ?? 'validation/out/results'}/vitest.json`,
    },
    projects: [
      { test: { name: 'contract', root: 'packages/contract', environment: 'node' } },
      { test: { name: 'domain', root: 'packages/domain', environment: 'node' } },
      {
        test: {
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
        },
      },
      { test: { name: 'tools', root: 'tools', environment: 'node' } },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          environment: 'node',
          include: ['src/**/*.test.{ts,tsx}'],
        },
      },
    ],
  },
});
