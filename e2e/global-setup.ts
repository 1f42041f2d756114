import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_PORT, AUTH_PORT, portInUse, startStack } from '../scripts/stack.ts';

/** A fresh clinic for the browser tests, apart from the developer's own data. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const chromium = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  if (!existsSync(chromium)) {
    throw new Error(
      `Chromium not found at ${chromium}: install it with \`apt-get install -y chromium\` or set CHROME_PATH`,
    );
  }
  if (!existsSync('pwa/dist/shell.html')) throw new Error('Build the PWA first: npm run build');
  for (const port of [APP_PORT, AUTH_PORT]) {
    if (await portInUse(port)) throw new Error(`Port ${port} is busy (is \`npm start\` running?); stop it and retry`);
  }
  const stateDir = mkdtempSync(join(tmpdir(), 'clinic-e2e-'));
  process.env.E2E_STATE_DIR = stateDir;
  const stack = await startStack({
    stateDir,
    logFile: join(stateDir, 'stack.log'),
    // The specs book as the seed patient across files and leave bookings unpaid; the limit of
    // unpaid bookings itself is tested in the Worker tests. The calendar's edges pin the clinic's
    // clock per request (platform/clock.ts), as they pin the browser's.
    vars: { MAX_UNPAID_BOOKINGS: '50', ALLOW_TEST_CLOCK: 'true' },
  });
  return async () => {
    await stack.stop();
    rmSync(stateDir, { recursive: true, force: true });
  };
}
