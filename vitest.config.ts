import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // Three test files at once, whatever the cores: Vitest's default is one fewer than the
    // cores (1 on the 2-core CI machine), and most server files wait on PostgreSQL or on a
    // child process, not on the CPU (the unit stage: 376 s with 1 worker, 188 s with 3).
    maxWorkers: 3,
    projects: [
      { test: { name: 'contract', root: 'packages/contract', environment: 'node' } },
      { test: { name: 'domain', root: 'packages/domain', environment: 'node' } },
      {
        test: {
          name: 'server',
          root: 'apps/server',
          environment: 'node',
          globalSetup: ['./test/global-setup.ts'],
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
