import { defineConfig } from '@playwright/test';

/**
 * The specs that change what every other spec sees (the clinic's hours, closures, doctors and
 * policy, the approved testimonials; a cron run at a future time, which releases every unpaid
 * booking's hold; the seed admin's sign-out, which ends every session of that admin) run alone,
 * after the others; the others work on data of their own (their own accounts, or their own days of
 * the seed patient) and run two at a time.
 */
const CLINIC_WIDE = [
  'schedule',
  'money',
  'waitlist',
  'recall',
  'doctors',
  'reviews',
  'home',
  'owner',
  'desk-offline',
  'journeys',
].map((spec) => `${spec}.spec.ts`);

/**
 * Debian's Chromium (never a downloaded browser), as its headless shell: the same engine without the desktop
 * browser around it, which Playwright itself runs headless by default (a tenth less time and CPU here than
 * the full browser in headless mode).
 */
export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium-headless-shell';

// Drives it against the real local stack, which global-setup starts on fresh state of its own and stops afterwards.
export default defineConfig({
  testDir: '.',
  globalSetup: './global-setup.ts',
  workers: 2,
  projects: [
    { name: 'own data', testIgnore: CLINIC_WIDE, workers: 2 },
    { name: 'clinic-wide', testMatch: CLINIC_WIDE, workers: 1, dependencies: ['own data'] },
  ],
  // Generous: a timeout here catches a hang, not slowness (axe with every rule takes seconds a page on a busy
  // 2-core machine, and the stack shares those cores).
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  outputDir: '../test-results',
  use: {
    baseURL: 'http://127.0.0.1:8787',
    // No service worker unless a spec asks (`test.use({ serviceWorkers: 'allow' })`, the specs that go offline):
    // in every new context it would precache the whole app (1.7 MB, 124 files), which the others do not test.
    serviceWorkers: 'block',
    // As a patient who asked the system for less motion: spinners turn once instead of repainting every frame
    // while a page waits, and transitions end at once (the responsive sweep: Chromium's CPU 127 s → 83 s).
    reducedMotion: 'reduce',
    // No trace unless asked (`npm run test:e2e -- --trace retain-on-failure`): recording one for every test, to keep
    // the failures', made Chromium's screencast the biggest part of its CPU (the responsive sweep: Chromium 83 s
    // with traces, 52 s with DOM snapshots only, 38 s without; the run 138, 134 and 119 s).
    trace: 'off',
    launchOptions: {
      executablePath: CHROME_PATH,
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
