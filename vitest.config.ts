import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { clientConstants } from './vite.config';

/**
 * `npm run test:slow` only (vitest.slow.config.ts): suites of minutes, or of several processes.
 * Suites that have a long and a short version (tests/helpers/slow.ts) are in both configs.
 */
export const SLOW_ONLY = [
  'tests/api/image-memory.test.ts',
  'tests/api/two-processes.test.ts',
  'tests/api/admin-cli-databases.test.ts',
  'tests/api/export-memory.test.ts',
];
export const SHORT_HERE_LONG_IN_SLOW = ['tests/api/crash-safety.test.ts', 'tests/api/fuzz.test.ts', 'tests/api/read-your-writes.test.ts'];

/** What both configs share. */
export const common: NonNullable<ViteUserConfig['test']> = {
  // Says once which service-backed suites are skipped, and fails a run whose services are named but down.
  globalSetup: ['tests/helpers/global-setup.ts'],
  // Kills what a test file's processes left behind, and removes its temporary folders.
  setupFiles: ['tests/helpers/setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
  maxWorkers: 2,
};

export default defineConfig({
  // The client's tests (tests/client) run the client's code, built with the client's constants.
  define: clientConstants,
  test: {
    ...common,
    include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/client/**/*.test.tsx'],
    // The client's tests (tests/client) name happy-dom per file; this is the page they run at.
    environmentOptions: { happyDOM: { url: 'http://localhost:3000/' } },
    // Playwright owns tests/e2e.
    exclude: ['tests/e2e/**', 'node_modules/**', ...SLOW_ONLY],
  },
});
