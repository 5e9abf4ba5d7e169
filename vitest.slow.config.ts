import { defineConfig } from 'vitest/config';
import { common, SHORT_HERE_LONG_IN_SLOW, SLOW_ONLY } from './vitest.config.js';

/** `npm run test:slow`: the long suites, and the long versions of those with a short one in `npm test`. */
export default defineConfig({
  test: {
    ...common,
    include: [...SLOW_ONLY, ...SHORT_HERE_LONG_IN_SLOW],
    env: { DORMBOARD_SLOW_TESTS: '1' },
  },
});
