/** `npm start`: build the PWA, then run the clinic locally on the developer's own data. */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { SEED_ACCOUNTS } from './seed-data.ts';
import { startStack } from './stack.ts';

const STATE_DIR = '.wrangler/state';

execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
mkdirSync(STATE_DIR, { recursive: true });
console.log('\nStarting the auth emulator and the Worker…');
const stack = await startStack({
  stateDir: STATE_DIR,
  authExportDir: '.firebase-emulator',
  logFile: `${STATE_DIR}/dev.log`,
});

console.log(`
  The clinic is running at ${stack.url}
  Auth emulator: http://127.0.0.1:9099   Logs: ${STATE_DIR}/dev.log

  Seed accounts:
${SEED_ACCOUNTS.map((a) => `    ${a.role.padEnd(8)} ${a.email.padEnd(22)} ${a.password}`).join('\n')}

  Ctrl-C stops both. \`npm run reset\` deletes the local data.
`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping…');
    await stack.stop();
    process.exit(0);
  });
}
