import { defineConfig } from '@playwright/test';

// Drives Debian's Chromium (never a downloaded browser) against the real local stack,
// which global-setup starts on fresh state of its own and stops afterwards.
export default defineConfig({
  testDir: '.',
  globalSetup: './global-setup.ts',
  workers: 1,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: '../test-results',
  use: {
    baseURL: 'http://127.0.0.1:8787',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
});
