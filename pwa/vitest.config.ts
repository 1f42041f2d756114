import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { compiledCatalogs } from './scripts/catalogs.ts';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  plugins: [react(), compiledCatalogs({ split: false })],
  resolve: {
    // The PWA plugin (which serves this virtual module) is a build concern; tests use a stand-in.
    alias: { 'virtual:pwa-register': fileURLToPath(new URL('src/testing/pwa-register.ts', import.meta.url)) },
  },
  test: {
    environment: 'happy-dom',
    // Each file in a VM context of its own inside a long-lived thread: the modules shared by every file (React,
    // the router, happy-dom) are not loaded again per file, and each file still starts on modules of its own
    // (measured alone: 51–60 s and 81–99 CPU-s, against 90 s and 163 with a fresh thread per file, and 76 s
    // against 94 for threads over forks before that). Not `isolate: false`: files would share module state
    // (the signed-in user, the query cache), and a dozen tests failed by the order files ran in.
    pool: 'vmThreads',
    // Two files at once, as many as this machine has cores (Vitest's default leaves one core idle: one file at a
    // time on 2 cores). Measured alone: 107 s with one, 70 s with two.
    maxWorkers: 2,
    // One bound for every test, generous: it catches a hang, not slowness. `npm test` runs this suite beside
    // others on two cores, where a test that takes 1 s alone has taken 7 s.
    testTimeout: 30_000,
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/testing/setup.ts'],
    restoreMocks: true,
    unstubGlobals: true,
  },
});
