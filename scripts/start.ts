/**
 * `npm start`: build the PWA, then run the clinic locally on the developer's own data, until
 * SIGINT (Ctrl-C), SIGTERM or SIGHUP. Flags, for the test that stops it (scripts/start.test.ts):
 * `--skip-build` uses the existing pwa/dist; `--state-dir DIR` keeps all data in DIR instead.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SEED_ACCOUNTS } from './seed-data.ts';
import { AUTH_PORT, HOST, type Stack, startStack } from './stack.ts';

const { values: flags } = parseArgs({
  options: { 'skip-build': { type: 'boolean' }, 'state-dir': { type: 'string' } },
});
const stateDir = flags['state-dir'] ?? '.wrangler/state';
const authExportDir = flags['state-dir'] ? join(stateDir, 'auth') : '.firebase-emulator';

// Stop everything on any of these, also while starting. (Were this process killed outright, each
// child's guard, scripts/child-guard.ts, stops that child.)
let stack: Stack | undefined;
let stopping = false;
async function stop(why: string) {
  if (stopping) return;
  stopping = true;
  console.log(`\nStopping (${why})…`);
  await stack?.stop();
  process.exit(0);
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(signal));
// Whoever started us (npm, a shell, a process manager) is gone without a signal reaching us (it was
// killed, or a shell between it and us did not pass the signal on): stop too, as Ctrl-C would.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void stop('its parent process ended');
}, 1000).unref();

if (!flags['skip-build']) execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
mkdirSync(stateDir, { recursive: true });
console.log('\nStarting the auth emulator and the Worker…');
stack = await startStack({ stateDir, authExportDir, logFile: `${stateDir}/dev.log` });

console.log(`
  The clinic is running at ${stack.url}
  Auth emulator: http://${HOST}:${AUTH_PORT}   Logs: ${stateDir}/dev.log

  Seed accounts:
${SEED_ACCOUNTS.map((a) => `    ${a.role.padEnd(8)} ${a.email.padEnd(22)} ${a.password}`).join('\n')}

  Ctrl-C stops both. \`npm run reset\` deletes the local data.
`);
