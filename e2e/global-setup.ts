import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_PORT, AUTH_PORT, portInUse, startStack } from '../scripts/stack.ts';
import { CHROME_PATH } from './playwright.config.ts';

/** A fresh clinic for the browser tests, apart from the developer's own data. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!existsSync(CHROME_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROME_PATH}: install it with \`apt-get install -y chromium-headless-shell\` or set CHROME_PATH`,
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
    const failures = serverErrorsIn(readFileSync(join(stateDir, 'stack.log'), 'utf8'));
    rmSync(stateDir, { recursive: true, force: true });
    // Nothing a browser sends may end in a server error, whatever the spec asserted.
    if (failures.length > 0) {
      throw new Error(
        `The Worker answered ${failures.length} server error(s) during the browser tests:\n${failures.join('\n')}`,
      );
    }
  };
}

/** The request lines of wrangler's log that answered 5xx ("[wrangler:info] GET /api/x 500 Internal Server Error (3ms)"). */
export function serverErrorsIn(log: string): string[] {
  return log.split('\n').filter((line) => /\b(GET|HEAD|POST|PUT|DELETE|PATCH) \S+ 5\d\d\b/.test(line));
}
