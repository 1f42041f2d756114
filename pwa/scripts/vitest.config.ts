import { defineConfig } from 'vitest/config';

// Checks of the built PWA in pwa/dist (npm run test:build, after npm run build), in Node.
export default defineConfig({
  test: {
    include: ['pwa/scripts/**/*.test.ts'],
    environment: 'node',
  },
});
