import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts'],
    // Playwright owns tests/e2e.
    exclude: ['tests/e2e/**', 'node_modules/**'],
    // Says once which service-backed suites are skipped, and fails a run whose services are named but down.
    globalSetup: ['tests/helpers/global-setup.ts'],
    // Kills what a test file's processes left behind, and removes its temporary folders.
    setupFiles: ['tests/helpers/setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
  },
});
