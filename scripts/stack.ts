/**
 * Starts the whole clinic locally: migrations and seed on a local D1/R2 state folder, the
 * Firebase Auth emulator on 127.0.0.1:9099 with the seed accounts, and `wrangler dev` on
 * 127.0.0.1:8787. Used by `npm start` (the developer's data) and the browser tests (a fresh
 * folder of their own).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { join } from 'node:path';
import { getPlatformProxy, unstable_splitSqlQuery } from 'wrangler';
import {
  AUTH_PORT,
  createEmulatorAccount,
  FIREBASE_PROJECT_ID,
  findEmulatorAccount,
  markEmailVerified,
} from './auth-emulator.ts';
import { SEED_ACCOUNTS } from './seed-data.ts';

export { AUTH_PORT };
export const HOST = '127.0.0.1';
export const APP_PORT = 8787;

const root = new URL('..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
const packageFile = (name: string, file: string) => join(require.resolve(`${name}/package.json`), '..', file);
const wranglerBin = packageFile('wrangler', 'bin/wrangler.js');
const firebaseBin = packageFile('firebase-tools', 'lib/bin/firebase.js');
const childGuard = join(root, 'scripts/child-guard.ts');
const seedLocal = join(root, 'scripts/seed-local.ts');

export interface StackOptions {
  /** Local D1 and R2 data (`wrangler --persist-to`). */
  stateDir: string;
  /** Where the auth emulator keeps its accounts between runs; none: fresh accounts each run. */
  authExportDir?: string;
  /** Every line the processes print goes here. */
  logFile: string;
  /** The access-token signing secret; a random one per run when not given. */
  jwtSecret?: string;
  /** Worker variables that differ from wrangler.toml's [vars] (the browser tests' wider limits). */
  vars?: Record<string, string>;
  /** More data to load after the seed, before the Worker starts (the benchmark's bookings). */
  extraData?: (db: SeedBindings['DB']) => Promise<void>;
}

export interface Stack {
  url: string;
  stop(): Promise<void>;
}

export async function startStack(options: StackOptions): Promise<Stack> {
  mkdirSync(options.stateDir, { recursive: true });
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const children: ChildProcess[] = [];
  const stop = async () => {
    await Promise.all(children.reverse().map(stopProcess));
    log.end();
  };
  try {
    const authArgs = ['emulators:start', '--only', 'auth', '--project', FIREBASE_PROJECT_ID];
    if (options.authExportDir) {
      if (existsSync(join(options.authExportDir, 'firebase-export-metadata.json'))) {
        authArgs.push('--import', options.authExportDir);
      }
      authArgs.push('--export-on-exit', options.authExportDir);
    }
    children.push(launch(firebaseBin, authArgs, log));
    await waitFor(`http://${HOST}:${AUTH_PORT}/`, 'the auth emulator');
    // The accounts first: D1's seed users are bound to the uids the emulator has for them. Migrating
    // and seeding run in a process of its own, so the workerd it starts cannot outlive this one.
    await run(seedLocal, [options.stateDir, JSON.stringify(await seedAccounts())], log);
    const { extraData } = options;
    if (extraData) await withLocalBindings(options.stateDir, (env) => extraData(env.DB));

    children.push(
      launch(
        wranglerBin,
        [
          'dev',
          '--ip',
          HOST,
          '--port',
          String(APP_PORT),
          '--persist-to',
          options.stateDir,
          '--show-interactive-dev-session=false',
          '--var',
          `FIREBASE_AUTH_EMULATOR_HOST:${HOST}:${AUTH_PORT}`,
          // Local only (never in wrangler.toml; a deploy refuses it): lets the emulator's unsigned ID tokens in.
          '--var',
          'ALLOW_UNSIGNED_EMULATOR_TOKENS:true',
          // A fresh signing secret per run: old access tokens fail with 401 and the app renews them.
          '--var',
          `JWT_SECRET:${options.jwtSecret ?? randomBytes(32).toString('hex')}`,
          ...Object.entries(options.vars ?? {}).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
        ],
        log,
      ),
    );
    await waitFor(`http://${HOST}:${APP_PORT}/api/reviews`, 'wrangler dev');
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://${HOST}:${APP_PORT}`, stop };
}

/** Whether something listens on `port` of 127.0.0.1. */
export function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, HOST);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The little of D1 and R2 that seeding uses (the Workers types are not loaded in Node scripts). */
export interface SeedBindings {
  DB: {
    prepare(sql: string): { bind(...params: unknown[]): unknown; all(): Promise<{ results: unknown[] }> };
    batch(statements: unknown[]): Promise<unknown>;
  };
  PHOTOS: {
    head(key: string): Promise<unknown>;
    put(key: string, value: Uint8Array, options: { httpMetadata: { contentType: string } }): Promise<unknown>;
  };
}

/** Runs `use` on the D1 and R2 of a local state folder (wrangler's platform proxy: a workerd of its own). */
export async function withLocalBindings(stateDir: string, use: (env: SeedBindings) => Promise<void>): Promise<void> {
  const { env, dispose } = await getPlatformProxy<SeedBindings>({
    configPath: join(root, 'wrangler.toml'),
    persist: { path: join(stateDir, 'v3') },
  });
  try {
    await use(env);
  } finally {
    await dispose();
  }
}

/**
 * Applies the migrations D1 has not had yet, each file in one batch with its row in `d1_migrations`,
 * as `wrangler d1 migrations apply` does (the same table, so wrangler lists them as applied), but
 * on one workerd: wrangler starts one per migration (19 s for 24 of them, against about two here).
 */
export async function applyMigrations(db: SeedBindings['DB']): Promise<void> {
  await db.batch([
    db.prepare(`CREATE TABLE IF NOT EXISTS d1_migrations(
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      name TEXT UNIQUE,
      applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
    )`),
  ]);
  const applied = new Set(
    ((await db.prepare('SELECT name FROM d1_migrations').all()).results as { name: string }[]).map((r) => r.name),
  );
  const dir = join(root, 'migrations');
  for (const name of readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort()) {
    if (applied.has(name)) continue;
    const queries = unstable_splitSqlQuery(readFileSync(join(dir, name), 'utf8'));
    await db.batch([
      ...queries.map((sql) => db.prepare(sql)),
      db.prepare('INSERT INTO d1_migrations (name) VALUES (?)').bind(name),
    ]);
  }
}

/**
 * The two seed accounts in the auth emulator, verified, created with their fixed uids; an account kept
 * from an earlier run keeps its uid and password. Answers each seed email's uid.
 */
async function seedAccounts(): Promise<Record<string, string>> {
  const uids: Record<string, string> = {};
  for (const { email, password, name, uid } of SEED_ACCOUNTS) {
    const account = (await findEmulatorAccount(email))
      ? await markEmailVerified(email)
      : await createEmulatorAccount({ localId: uid, email, password, displayName: name, emailVerified: true });
    uids[email] = account.localId;
  }
  return uids;
}

/**
 * Runs `node bin args` under scripts/child-guard.ts in a process group of its own: stopping the group
 * stops the program and everything it started, and the guard stops the group by itself when this
 * process exits, however it exits (its stdin is a pipe from us that then closes).
 */
function launch(bin: string, args: string[], log: NodeJS.WritableStream): ChildProcess {
  const child = spawn(process.execPath, [childGuard, process.execPath, bin, ...args], {
    cwd: root,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0', NO_UPDATE_NOTIFIER: '1' },
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  return child;
}

function run(bin: string, args: string[], log: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = launch(bin, args, log);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${args.slice(0, 3).join(' ')} failed (exit ${code}); see the log`)),
    );
  });
}

async function stopProcess(child: ChildProcess): Promise<void> {
  const { pid } = child;
  if (child.exitCode !== null || pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pid, name);
    } catch {
      // already gone
    }
  };
  signal('SIGINT'); // the emulator exports its accounts on SIGINT
  const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 10_000).unref());
  if ((await Promise.race([exited, timeout])) === 'timeout') {
    signal('SIGKILL');
    await exited;
  }
}

async function waitFor(url: string, what: string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} did not answer at ${url} within ${timeoutMs / 1000} s`);
}
