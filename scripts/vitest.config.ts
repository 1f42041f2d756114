import { defineConfig } from 'vitest/config';

// Node-side tests of the scripts (npm run test:scripts). They start the local stack on the fixed
// ports 8787 and 9099, so one file at a time, never beside the browser tests.
export default defineConfig({
  test: {
    include: ['scripts/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 180_000,
    hookTimeout: 30_000,
  },
});
