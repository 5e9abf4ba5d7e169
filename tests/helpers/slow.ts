/**
 * `npm run test:slow` (vitest.slow.config.ts) sets DORMBOARD_SLOW_TESTS=1: suites that have a
 * long version (crash rounds, the 10,000-request fuzz run) run it then, and a short smoke
 * version in `npm test`.
 */
export const slowRun = process.env.DORMBOARD_SLOW_TESTS === '1';
