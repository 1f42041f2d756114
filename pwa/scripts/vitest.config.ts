import { defineConfig } from 'vitest/config';

// Checks of the built PWA in pwa/dist (npm run test:build, after npm run build), in Node.
export default defineConfig({
  test: {
    include: ['pwa/scripts/**/*.test.ts'],
    environment: 'node',
    // A bound that catches a hang, not slowness (as the PWA's own tests, docs/testing.md): reading and
    // parsing every built file beside the Worker's suite on two cores took 5.6 s where it takes 1.6 alone.
    testTimeout: 30_000,
  },
});
