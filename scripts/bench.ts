/**
 * `npm run bench`: prints the product's speed figures (nothing is asserted).
 *  - API on the local Worker (workerd + local D1): GET /api/appointmentOptions beside the trivial
 *    GET /api/health in the same run, with 1,000 and with 100,000 bookings in D1; D1 queries per
 *    request; POST /api/bookings under concurrent load, and whether any slot was booked twice.
 *  - Front end: gzip JavaScript and CSS each route loads; Lighthouse (mobile) medians of 3 runs.
 * Needs ports 8787 and 9099 free and a built PWA (the npm script builds it first).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from '@playwright/test';
import autocannon from 'autocannon';
import { launch } from 'chrome-launcher';
import { addDays, format } from 'date-fns';
import { TZDate } from '@date-fns/tz';
import { SignJWT } from 'jose';
import lighthouse from 'lighthouse';
import { SEED_PATIENT, logIn as logInAs } from '../e2e/support.ts';
import { queryLocalD1 } from './local-d1.ts';
import { SEED_TREATMENTS, slotLabel } from './seed-data.ts';
import { startStack, type SeedBindings } from './stack.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const CONNECTIONS = 10;
const JWT_SECRET = 'benchmark-only-secret-0123456789abcdef';
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const RACERS = 300;

const clinicToday = () => format(new TZDate(Date.now(), 'America/New_York'), 'yyyy-MM-dd');
const day = (offset: number) => format(addDays(new Date(`${clinicToday()}T12:00:00`), offset), 'yyyy-MM-dd');
const MEASURED_DATE = day(1);
const RACE_DATE = day(2);

/** `total` bookings: every other slot of every treatment, day after day, around the measured date. */
function bookings(total: number) {
  return async (db: SeedBindings['DB']) => {
    const users = [
      ...Array.from({ length: 16 }, (_, i) => `('bench-user-${i}', 'bench-user-${i}@example.com', 'Bench User ${i}', 'patient')`),
      ...Array.from({ length: RACERS }, (_, i) => `('bench-racer-${i}', 'bench-racer-${i}@example.com', 'Bench Racer ${i}', 'patient')`),
    ];
    const statements = [db.prepare(`INSERT INTO users (id, email, name, role) VALUES ${users.join(', ')}`)];
    let rows: string[] = [];
    let made = 0;
    const flush = () => {
      if (rows.length === 0) return;
      statements.push(
        db.prepare(
          `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, user_id, patient_name, email, price_cents) VALUES ${rows.join(', ')}`,
        ),
      );
      rows = [];
    };
    for (let offset = -Math.ceil(total / 60); made < total; offset++) {
      const date = day(offset);
      if (date === RACE_DATE) continue;
      for (const t of SEED_TREATMENTS) {
        t.slots.forEach((start, i) => {
          if (i % 2 === 1 || made >= total) return;
          rows.push(
            `('bench-${made}', '${t.id}', '${t.name}', '${date}', '${slotLabel(start)}', 'bench-user-${i}', 'Bench User ${i}', 'bench-user-${i}@example.com', ${t.priceCents})`,
          );
          made += 1;
          if (rows.length === 400) flush();
        });
      }
    }
    flush();
    for (let i = 0; i < statements.length; i += 50) await db.batch(statements.slice(i, i + 50));
  };
}

async function load(url: string) {
  const result = await autocannon({ url, duration: SECONDS, connections: CONNECTIONS });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

const BASE = 'http://127.0.0.1:8787';

async function apiRun(total: number) {
  const stateDir = mkdtempSync(join(tmpdir(), 'clinic-bench-'));
  const stack = await startStack({ stateDir, logFile: join(stateDir, 'stack.log'), jwtSecret: JWT_SECRET, extraData: bookings(total) });
  try {
    const count = queryLocalD1<{ n: number }>(stateDir, 'SELECT count(*) AS n FROM bookings')[0]?.n;
    const slotsUrl = `${BASE}/api/appointmentOptions?date=${MEASURED_DATE}`;
    const queries = (await fetch(slotsUrl)).headers.get('Server-Timing');
    await load(`${BASE}/api/health`); // warm-up
    // Alternate the two endpoints so both see the same machine noise; keep the mean of two rounds.
    const runs = { health: [] as Awaited<ReturnType<typeof load>>[], slots: [] as Awaited<ReturnType<typeof load>>[] };
    for (let round = 0; round < 2; round++) {
      runs.health.push(await load(`${BASE}/api/health`));
      runs.slots.push(await load(slotsUrl));
    }
    const mean = (list: Awaited<ReturnType<typeof load>>[]) => ({
      rps: list.reduce((n, r) => n + r.rps, 0) / list.length,
      p50: list.reduce((n, r) => n + r.p50, 0) / list.length,
      p99: list.reduce((n, r) => n + r.p99, 0) / list.length,
      errors: list.reduce((n, r) => n + r.errors, 0),
    });
    const race = total === 1000 ? await bookingRace(stateDir) : undefined;
    return { total: count, queries, health: mean(runs.health), slots: mean(runs.slots), race };
  } finally {
    await stack.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** RACERS patients book at once, several aiming at each slot of one day. */
async function bookingRace(stateDir: string) {
  const key = new TextEncoder().encode(JWT_SECRET);
  const tokens = await Promise.all(
    Array.from({ length: RACERS }, (_, i) =>
      new SignJWT({ email: `bench-racer-${i}@example.com` }).setProtectedHeader({ alg: 'HS256' }).setSubject(`bench-racer-${i}`)
        .setIssuer('dental-clinic').setAudience('dental-clinic-api').setIssuedAt().setExpirationTime('30m').sign(key),
    ),
  );
  const targets = SEED_TREATMENTS.flatMap((t) => t.slots.slice(0, 6).map((start) => ({ treatment: t.name, slot: slotLabel(start) })));
  const statuses = new Map<number, number>();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < RACERS) {
        const i = next++;
        const target = targets[i % targets.length]!;
        const response = await fetch(`${BASE}/api/bookings`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${tokens[i]}` },
          body: JSON.stringify({ ...target, appointmentDate: RACE_DATE }),
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        await response.body?.cancel();
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const doubles = queryLocalD1<{ n: number }>(
    stateDir,
    `SELECT count(*) AS n FROM (SELECT 1 FROM bookings WHERE status = 'active' AND appointment_date = '${RACE_DATE}'
     GROUP BY treatment_id, slot HAVING count(*) > 1)`,
  )[0]?.n;
  const booked = queryLocalD1<{ n: number }>(stateDir, `SELECT count(*) AS n FROM bookings WHERE appointment_date = '${RACE_DATE}'`)[0]?.n;
  return { requests: RACERS, seconds, rps: RACERS / seconds, statuses: Object.fromEntries(statuses), slots: targets.length, booked, doubles };
}

async function logIn(page: Page) {
  await logInAs(page, SEED_PATIENT, `${BASE}/login`);
}

/** The gzip bytes of the JavaScript and CSS a fresh visit to `path` loads. */
async function routeBytes(browser: Browser, path: string, signedIn: boolean) {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  if (signedIn) await logIn(await context.newPage());
  const page = await context.newPage();
  const sizes = { js: 0, css: 0, files: 0 };
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      response.body().then((body) => {
        sizes[type === 'script' ? 'js' : 'css'] += gzipSync(body, { level: 9 }).length;
        sizes.files += 1;
      }, () => undefined),
    );
  });
  await page.goto(`${BASE}${path}`, { waitUntil: 'networkidle' });
  await Promise.all(pending);
  await context.close();
  return sizes;
}

async function lighthouseScores(paths: string[]) {
  const chrome = await launch({ chromePath: CHROME, chromeFlags: ['--headless=new', ...CHROME_FLAGS] });
  try {
    const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
    const page = await browser.contexts()[0]!.newPage();
    await logIn(page); // /appointment needs a signed-in patient; the profile keeps the session
    await page.goto(`${BASE}/`);
    await page.close();
    const scores: Record<string, { performance: number; accessibility: number; runs: number[] }> = {};
    for (const path of paths) {
      const performance: number[] = [];
      const accessibility: number[] = [];
      for (let run = 0; run < 3; run++) {
        const result = await lighthouse(`${BASE}${path}`, {
          port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'],
          disableStorageReset: path !== '/login',
        });
        performance.push(result?.lhr.categories.performance?.score ?? 0);
        accessibility.push(result?.lhr.categories.accessibility?.score ?? 0);
      }
      const median = (list: number[]) => [...list].sort((a, b) => a - b)[1]!;
      scores[path] = { performance: median(performance), accessibility: median(accessibility), runs: performance };
    }
    await browser.close();
    return scores;
  } finally {
    chrome.kill();
  }
}

async function frontEnd() {
  const stateDir = mkdtempSync(join(tmpdir(), 'clinic-bench-fe-'));
  const stack = await startStack({ stateDir, logFile: join(stateDir, 'stack.log') });
  try {
    const browser = await chromium.launch({ executablePath: CHROME, args: CHROME_FLAGS });
    const bytes: Record<string, { js: number; css: number; files: number }> = {};
    for (const [path, signedIn] of [['/', false], ['/login', false], ['/appointment', true], ['/dashboard', true]] as const) {
      bytes[path] = await routeBytes(browser, path, signedIn);
    }
    await browser.close();
    return { bytes, lighthouse: await lighthouseScores(['/', '/login', '/appointment']) };
  } finally {
    await stack.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${value.toFixed(1)} ms`;

console.log(`Benchmark on ${new Date().toISOString()} — ${SECONDS} s per load run, ${CONNECTIONS} connections\n`);
const small = await apiRun(1_000);
const large = await apiRun(100_000);
for (const run of [small, large]) {
  console.log(`API with ${run.total?.toLocaleString('en-US')} bookings in D1 (${run.queries}):`);
  console.log(`  GET /api/health             ${run.health.rps.toFixed(0).padStart(6)} req/s   p50 ${ms(run.health.p50)}   p99 ${ms(run.health.p99)}   errors ${run.health.errors}`);
  console.log(`  GET /api/appointmentOptions ${run.slots.rps.toFixed(0).padStart(6)} req/s   p50 ${ms(run.slots.p50)}   p99 ${ms(run.slots.p99)}   errors ${run.slots.errors}`);
  console.log(`  slots / health throughput: ${(run.slots.rps / run.health.rps).toFixed(2)} (target ≥ 0.50)\n`);
}
console.log(`Slots latency, 100,000 vs 1,000 bookings: p50 ×${(large.slots.p50 / small.slots.p50).toFixed(2)}, p99 ×${(large.slots.p99 / small.slots.p99).toFixed(2)} (target ≤ 1.5)\n`);
if (small.race) {
  const r = small.race;
  console.log(`POST /api/bookings: ${r.requests} patients at once (50 in flight) on ${r.slots} slots: ${r.rps.toFixed(0)} req/s over ${r.seconds.toFixed(2)} s`);
  console.log(`  answers ${JSON.stringify(r.statuses)}; bookings stored ${r.booked}; slots booked twice: ${r.doubles}\n`);
}
const fe = await frontEnd();
console.log('Front end, gzip bytes a fresh visit loads:');
for (const [path, size] of Object.entries(fe.bytes)) {
  console.log(`  ${path.padEnd(13)} JS ${kb(size.js).padStart(9)}   CSS ${kb(size.css).padStart(8)}   (${size.files} files)`);
}
console.log('\nLighthouse (mobile), median of 3 runs:');
for (const [path, score] of Object.entries(fe.lighthouse)) {
  console.log(`  ${path.padEnd(13)} performance ${score.performance.toFixed(2)}   accessibility ${score.accessibility.toFixed(2)}   (performance runs ${score.runs.join(', ')})`);
}
