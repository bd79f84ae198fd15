import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['test/support/no-leaked-handles.ts'],
          execArgv: ['--expose-gc'],
          // Property tests run thousands of cases; two busy cores need more than 5 s.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          environment: 'node',
          setupFiles: ['test/support/no-leaked-handles.ts'],
          execArgv: ['--expose-gc'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'reliability',
          include: ['test/reliability/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['test/support/no-leaked-handles.ts'],
          execArgv: ['--expose-gc'],
          testTimeout: 180_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
