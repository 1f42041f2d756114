import { defineConfig } from 'vitest/config';

// Tests of the Node scripts themselves (the deploy guard), run in Node.
export default defineConfig({
  test: { include: ['scripts/**/*.test.ts'], environment: 'node' },
});
