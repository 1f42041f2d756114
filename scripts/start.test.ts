// `npm start` leaves nothing behind: started exactly as a user starts it (`npm start`, without the
// build, on a state folder of its own), then npm's own process signalled (SIGTERM, as a container
// stop, systemd or a CI runner sends, which npm forwards) or killed with SIGKILL, no process of that
// run remains and ports 8787 and 9099 are free. (npm forwards SIGINT and SIGTERM only: SIGHUP to npm
// alone ends npm as SIGKILL does, so the SIGKILL case covers it; a closed terminal sends SIGHUP to
// npm start's own process too, which start.ts handles on the same line as SIGTERM.) Binds those ports: run it under the shared lock.
// Linux only: it finds the run's processes by an environment mark in /proc.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, expect, it, vi } from 'vitest';
import { APP_PORT, AUTH_PORT, HOST, portInUse } from './stack.ts';

const root = new URL('..', import.meta.url).pathname;
const MARK = 'CLINIC_START_TEST_RUN';

interface RunningProcess {
  pid: number;
  command: string;
}

/** Every live process that inherited `MARK=run` (children inherit the environment, workerd included). */
function processesOf(run: string): RunningProcess[] {
  const found: RunningProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`${MARK}=${run}`)) continue;
      found.push({ pid: Number(entry), command: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ') });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

interface Run {
  id: string;
  stateDir: string;
  start: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}
let current: Run | undefined;

/** `npm start`, as a user types it, resolved once it prints that the clinic is running. */
async function startClinic(): Promise<Run> {
  const id = randomUUID();
  const stateDir = mkdtempSync(join(tmpdir(), 'clinic-start-'));
  const start = spawn('npm', ['start', '--', '--skip-build', '--state-dir', stateDir], {
    cwd: root,
    env: { ...process.env, [MARK]: id },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    start.once('exit', (code, signal) => resolve({ code, signal })),
  );
  current = { id, stateDir, start, exited };
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('The clinic is running at')) resolve();
    };
    start.stdout.on('data', onData);
    start.stderr.on('data', onData);
    void exited.then(({ code }) =>
      reject(new Error(`npm start exited (${code}) before the clinic ran:\n${output}\n(log: ${stateDir}/dev.log)`)),
    );
  });
  return current;
}

beforeAll(async () => {
  if (!existsSync(join(root, 'pwa/dist/shell.html'))) throw new Error('Build the PWA first: npm run build');
  for (const port of [APP_PORT, AUTH_PORT]) {
    if (await portInUse(port)) throw new Error(`Port ${port} is busy (is \`npm start\` running?); stop it and retry`);
  }
});

afterEach(() => {
  if (!current) return;
  // Only when a test failed does anything remain: end it so no orphan outlives the test.
  for (const { pid } of processesOf(current.id)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  rmSync(current.stateDir, { recursive: true, force: true });
  current = undefined;
});

/** The clinic answers, and its processes (the emulator, wrangler and workerd) carry the run's mark. */
async function expectRunning(run: Run) {
  expect((await fetch(`http://${HOST}:${APP_PORT}/api/health`)).status).toBe(200);
  expect((await fetch(`http://${HOST}:${AUTH_PORT}/`)).ok).toBe(true);
  const commands = processesOf(run.id).map((p) => p.command);
  expect(commands).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/scripts\/start\.ts/),
      expect.stringMatching(/firebase\.js emulators:start/),
      expect.stringMatching(/wrangler\.js dev/),
      expect.stringMatching(/\bworkerd\b.* serve /),
    ]),
  );
}

/** Waits (up to the guard's 10 s grace and more) until no process of the run is left, then checks the ports. */
async function expectNothingLeft(run: Run) {
  await vi.waitFor(() => expect(processesOf(run.id)).toEqual([]), { timeout: 30_000, interval: 200 });
  expect(await portInUse(APP_PORT)).toBe(false);
  expect(await portInUse(AUTH_PORT)).toBe(false);
}

it('SIGTERM to npm stops npm start with the auth emulator, wrangler and workerd, and frees the ports', async () => {
  const run = await startClinic();
  await expectRunning(run);
  run.start.kill('SIGTERM');
  await run.exited;
  await expectNothingLeft(run);
});

it('when npm is killed with SIGKILL, what it started stops by itself and frees the ports', async () => {
  const run = await startClinic();
  await expectRunning(run);
  run.start.kill('SIGKILL');
  expect(await run.exited).toEqual({ code: null, signal: 'SIGKILL' });
  await expectNothingLeft(run);
});
