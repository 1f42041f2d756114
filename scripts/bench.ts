/**
 * `npm run bench`: prints the product's speed figures (nothing is asserted).
 *  - api: on the local Worker (workerd + local D1), with 1,000 and with 100,000 bookings in D1:
 *    GET /api/appointmentOptions and a patient's GET /api/bookings?email= beside the trivial
 *    GET /api/health in the same run, and the D1 queries each makes; POST /api/bookings under
 *    concurrent load with mixed lengths, and whether any doctor or chair was booked twice (read
 *    back from D1).
 *  - insights: GET /api/insights over a year holding 1,000 and then 100,000 bookings, beside
 *    GET /api/health in the same run.
 *  - delivery: the domain events' queue on the local Worker (wrangler dev's Queues, its send_email):
 *    a cron run with 2,000 reminders due, from the trigger to the last mail sent; then a closure that
 *    cancels 60 paid visits, from the click to the last cancellation and refund mail, with the
 *    events delivered per second.
 *  - front: for each page a patient uses, the gzip JavaScript and CSS a fresh visit loads, and
 *    Lighthouse (mobile) performance, first paint, LCP, TBT, CLS and accessibility, medians of 3
 *    interleaved rounds (BENCH_ROUNDS=5 for more), beside a static reference page (one heading, one paragraph, no script)
 *    that the bench serves itself, with each page's first paint and LCP as a ratio to its; the
 *    signed-in pages as the seed patient.
 *    The landing and /book pages are measured again for a browser that asks for Spanish ("/ (es)").
 * BENCH_ONLY=api, insights, delivery or front runs one part; BENCH_SHIFTS=1 also lists, per Lighthouse run, the
 * elements whose layout shifts made up its CLS; BENCH_LCP=1 names, per run, the element of its LCP and the
 * phases its time is made of; BENCH_PAGES=/login,/dashboard measures only those pages (as printed);
 * BENCH_REPORTS=DIR keeps each Lighthouse run's full JSON report there, and its trace beside it (NAME.trace.json: the
 * page's own tasks, unthrottled, which Lighthouse's simulation multiplies by 4); BENCH_ROUNDS=5 runs 5 rounds (odd, 3 or more). Needs ports 8787 and 9099 free and a
 * built PWA (the npm script builds it first).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { TZDate } from '@date-fns/tz';
import { type Browser, chromium } from '@playwright/test';
import autocannon from 'autocannon';
import { launch } from 'chrome-launcher';
import { addDays, format } from 'date-fns';
import { SignJWT } from 'jose';
import lighthouse from 'lighthouse';
import { slotLabel } from '../contract/slot-label.ts';
import { bookViaApi, logIn, SEED_PATIENT } from '../e2e/support.ts';
import { queryLocalD1 } from './local-d1.ts';
import { SEED_DOCTORS, SEED_HOURS, SEED_TREATMENTS } from './seed-data.ts';
import { type SeedBindings, startStack } from './stack.ts';

const PARTS = ['api', 'insights', 'delivery', 'front'];
const only = (process.env.BENCH_ONLY ?? PARTS.join(','))
  .split(',')
  .map((part) => part.trim())
  .filter(Boolean);
const unknownParts = only.filter((part) => !PARTS.includes(part));
if (unknownParts.length > 0 || only.length === 0) {
  console.error(
    `BENCH_ONLY=${process.env.BENCH_ONLY}: name the parts to run, comma-separated, from: ${PARTS.join(', ')}`,
  );
  process.exit(2);
}

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const LIST_SHIFTS = process.env.BENCH_SHIFTS === '1';
const LIST_LCP = process.env.BENCH_LCP === '1';
const REPORTS_DIR = process.env.BENCH_REPORTS;
const PAGES = process.env.BENCH_PAGES?.split(',').map((page) => page.trim());
/** Lighthouse rounds of every page: odd, so each median is one run's figure, and at least 3 (issue 31). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
if (!Number.isInteger(ROUNDS) || ROUNDS < 3 || ROUNDS % 2 === 0) {
  console.error(`BENCH_ROUNDS=${process.env.BENCH_ROUNDS}: an odd number of rounds, 3 or more`);
  process.exit(2);
}
if (REPORTS_DIR) mkdirSync(REPORTS_DIR, { recursive: true });
const CONNECTIONS = 10;
const JWT_SECRET = 'benchmark-only-secret-0123456789abcdef';
const CHROME = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const RACERS = 300;
/** The patients the bulk of the bookings belongs to. */
const BULK_PATIENTS = 200;
/** The patient whose GET /api/bookings?email= is measured, with a realistic handful of bookings (days from today). */
const MEASURED = {
  id: 'bench-patient',
  email: 'bench-patient@example.com',
  name: 'Bench Patient',
  days: [-60, -21, -7, 5, 9, 16],
};

const clinicToday = () => format(new TZDate(Date.now(), 'America/New_York'), 'yyyy-MM-dd');
const day = (offset: number) => format(addDays(new Date(`${clinicToday()}T12:00:00`), offset), 'yyyy-MM-dd');
const MEASURED_DATE = day(1);
const RACE_DATE = day(2);

/** `value`, or a clear error naming what the benchmark expected to find. */
function present<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`bench: expected ${what}`);
  return value;
}

type SeedTreatment = (typeof SEED_TREATMENTS)[number];
const CHAIRS = ['chair-1', 'chair-2'];
const doctorOf = (t: SeedTreatment) =>
  present(
    SEED_DOCTORS.find((d) => d.specialty === t.specialty),
    `a doctor of ${t.specialty}`,
  ).id;

/**
 * One day of the clinic in the schedule model's terms: a treatment goes where the doctor of its
 * specialty and a chair are both free for its whole length, at the first 30-minute start from
 * opening (as POST /api/bookings would place it), and claims its 15-minute cells on both.
 */
class Day {
  private readonly taken = new Set<string>();
  place(t: SeedTreatment): { start: number; doctor: string; chair: string; cells: number[] } | null {
    const doctor = doctorOf(t);
    for (let start = SEED_HOURS.open; start + t.durationMinutes <= SEED_HOURS.close; start += 30) {
      const cells = Array.from({ length: t.durationMinutes / 15 }, (_, i) => start / 15 + i);
      const free = (resource: string) => cells.every((cell) => !this.taken.has(`${resource}#${cell}`));
      const chair = CHAIRS.find((c) => free(`chair:${c}`));
      if (!free(`doctor:${doctor}`) || !chair) continue;
      for (const cell of cells) for (const r of [`doctor:${doctor}`, `chair:${chair}`]) this.taken.add(`${r}#${cell}`);
      return { start, doctor, chair, cells };
    }
    return null;
  }
}

/** Bookings placed on a day of their own. */
const PER_DAY = 16;

/**
 * `total` bookings, made as the model makes them (a doctor and a chair each, their claims, no
 * overlap): the measured patient's handful first, then PER_DAY a day of every treatment in turn,
 * day after day back from the measured date (which has its share), spread over BULK_PATIENTS
 * patients. The race's date stays empty.
 */
function bookings(total: number) {
  return async (db: SeedBindings['DB']) => {
    const user = (id: string, email: string, name: string) => `('${id}', '${email}', '${name}', 'patient', 1)`;
    const users = [
      user(MEASURED.id, MEASURED.email, MEASURED.name),
      ...Array.from({ length: BULK_PATIENTS }, (_, i) =>
        user(`bench-user-${i}`, `bench-user-${i}@example.com`, `Bench User ${i}`),
      ),
      ...Array.from({ length: RACERS }, (_, i) =>
        user(`bench-racer-${i}`, `bench-racer-${i}@example.com`, `Bench Racer ${i}`),
      ),
    ];
    const statements = [
      db.prepare(`INSERT INTO users (id, email, name, role, email_verified) VALUES ${users.join(', ')}`),
    ];
    const columns = `id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes, doctor_id, chair_id,
      user_id, patient_name, email, price_cents, paid, hold_until`;
    let rows: string[] = [];
    let claims: string[] = [];
    const flush = () => {
      if (rows.length > 0) statements.push(db.prepare(`INSERT INTO bookings (${columns}) VALUES ${rows.join(', ')}`));
      if (claims.length > 0) {
        statements.push(db.prepare(`INSERT INTO claims (day, resource, cell, booking_id) VALUES ${claims.join(', ')}`));
      }
      rows = [];
      claims = [];
    };
    const days = new Map<string, Day>();
    const book = (
      id: string,
      t: SeedTreatment,
      date: string,
      patient: { id: string; name: string; email: string },
      paid: string,
    ) => {
      const timetable = days.get(date) ?? new Day();
      days.set(date, timetable);
      const placed = timetable.place(t);
      if (!placed) return false;
      rows.push(
        `('${id}', '${t.id}', '${t.name}', '${date}', '${slotLabel(placed.start, t.durationMinutes)}', ${placed.start}, ${t.durationMinutes}, ` +
          `'${placed.doctor}', '${placed.chair}', '${patient.id}', '${patient.name}', '${patient.email}', ${t.priceCents}, ${paid})`,
      );
      for (const cell of placed.cells) {
        claims.push(
          `('${date}', 'doctor:${placed.doctor}', ${cell}, '${id}')`,
          `('${date}', 'chair:${placed.chair}', ${cell}, '${id}')`,
        );
      }
      if (claims.length >= 400) flush();
      return true;
    };
    // Paid, except the measured patient's nearest upcoming one, which is held for a day.
    const cleaning = present(SEED_TREATMENTS[0], 'a seed treatment');
    const holdUntil = new Date(Date.now() + 24 * 3600_000).toISOString();
    const nearest = Math.min(...MEASURED.days.filter((offset) => offset > 0));
    for (const offset of MEASURED.days) {
      book(
        `bench-own-${offset}`,
        cleaning,
        day(offset),
        MEASURED,
        offset === nearest ? `0, '${holdUntil}'` : '1, NULL',
      );
    }
    const bulk = total - MEASURED.days.length;
    let made = 0;
    for (let back = 0; made < bulk; back++) {
      const date = day(1 - back);
      for (let n = 0; n < PER_DAY && made < bulk; n++) {
        // Consecutive bookings go to different patients: one booking per patient, treatment and date.
        const i = made % BULK_PATIENTS;
        const patient = { id: `bench-user-${i}`, name: `Bench User ${i}`, email: `bench-user-${i}@example.com` };
        const t = present(SEED_TREATMENTS[(made + back) % SEED_TREATMENTS.length], 'a seed treatment');
        if (book(`bench-${made}`, t, date, patient, '1, NULL')) made += 1;
        else break;
      }
    }
    flush();
    for (let i = 0; i < statements.length; i += 50) await db.batch(statements.slice(i, i + 50));
  };
}

/** The reminders due in the delivery part's cron run, and the visits its closure cancels. */
const REMINDED = 2_000;
const CLOSED = 60;

/**
 * The delivery part's data: REMINDED patients with a paid visit tomorrow, each with its 24-hour
 * reminder due a minute ago; CLOSED more with a paid visit (and its demo payment) the day after,
 * which the closure cancels; and the admin who closes. The rows are what the engine and the
 * messages consumer would have written; the visits take no claims (the part measures delivery).
 */
function deliveryDay(reminded: string, closed: string) {
  return async (db: SeedBindings['DB']) => {
    const now = Date.now();
    const cleaning = present(SEED_TREATMENTS[0], 'a seed treatment');
    const doctor = doctorOf(cleaning);
    const statements = [
      db.prepare(
        "INSERT INTO users (id, email, name, role, email_verified) VALUES ('bench-admin', 'bench-admin@example.com', 'Bench Admin', 'admin', 1)",
      ),
    ];
    const visit = (i: number, date: string) => {
      const id = crypto.randomUUID();
      const start = SEED_HOURS.open + 30 * (i % 16);
      return {
        id,
        user: `('bench-d-${date}-${i}', 'bench-d-${date}-${i}@example.com', 'Bench Patient ${i}', 'patient', 1)`,
        booking: `('${id}', '${cleaning.id}', '${cleaning.name}', '${date}', '${slotLabel(start, cleaning.durationMinutes)}', ${start}, ${cleaning.durationMinutes}, '${doctor}', 'chair-1', 'bench-d-${date}-${i}', 'Bench Patient ${i}', 'bench-d-${date}-${i}@example.com', ${cleaning.priceCents}, 1, NULL)`,
        start,
      };
    };
    const columns = `id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes, doctor_id, chair_id,
      user_id, patient_name, email, price_cents, paid, hold_until`;
    for (const [date, total, extra] of [
      [reminded, REMINDED, 'reminder'],
      [closed, CLOSED, 'payment'],
    ] as const) {
      for (let at = 0; at < total; at += 100) {
        const visits = Array.from({ length: Math.min(100, total - at) }, (_, k) => visit(at + k, date));
        statements.push(
          db.prepare(
            `INSERT INTO users (id, email, name, role, email_verified) VALUES ${visits.map((v) => v.user).join(', ')}`,
          ),
          db.prepare(`INSERT INTO bookings (${columns}) VALUES ${visits.map((v) => v.booking).join(', ')}`),
          extra === 'reminder'
            ? db.prepare(
                `INSERT INTO reminders (id, booking_id, kind, booking_version, appointment_date, start_minute, due_at, send_until) VALUES ${visits
                  .map(
                    (v) =>
                      `('${v.id}:24h:1', '${v.id}', '24h', 1, '${date}', ${v.start}, '${new Date(now - 60_000).toISOString()}', '${new Date(now + 24 * 3600_000).toISOString()}')`,
                  )
                  .join(', ')}`,
              )
            : db.prepare(
                `INSERT INTO payments (id, transaction_id, booking_id, email, amount_cents, provider, card_brand, card_last4) VALUES ${visits
                  .map(
                    (v, k) =>
                      `('${crypto.randomUUID()}', 'pi_demo_${v.id.replaceAll('-', '')}', '${v.id}', 'bench-d-${date}-${at + k}@example.com', ${cleaning.priceCents}, 'demo', 'visa', '4242')`,
                  )
                  .join(', ')}`,
              ),
        );
      }
    }
    for (let i = 0; i < statements.length; i += 50) await db.batch(statements.slice(i, i + 50));
  };
}

/** Waits until `done` holds (polling D1 every 50 ms), at most `seconds`. */
async function until(done: () => boolean, seconds: number, what: string) {
  const deadline = Date.now() + seconds * 1000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The delivery part: reminders through the queue, and a closure's cancellations, refunds and mails. */
async function deliveryRun() {
  const stateDir = mkdtempSync(join(tmpdir(), 'clinic-bench-delivery-'));
  const [reminded, closed] = [day(1), day(2)];
  const stack = await startStack({
    stateDir,
    logFile: join(stateDir, 'stack.log'),
    jwtSecret: JWT_SECRET,
    extraData: deliveryDay(reminded, closed),
  });
  const count = (sql: string) => queryLocalD1<{ n: number }>(stateDir, sql)[0]?.n ?? 0;
  const at = (sql: string) => Date.parse(queryLocalD1<{ t: string }>(stateDir, sql)[0]?.t ?? '');
  try {
    // One cron run with the day's reminders due: the trigger, then the queue's consumers.
    const triggered = Date.now();
    const cron = await fetch(`${BASE}/cdn-cgi/local/scheduled?cron=*/5+*+*+*+*&time=${triggered}`);
    if (!cron.ok) throw new Error(`the cron trigger answered ${cron.status}`);
    const cronMs = Date.now() - triggered;
    const sentReminders = "SELECT count(*) AS n FROM outbox WHERE kind = 'reminder' AND status = 'sent'";
    await until(() => count(sentReminders) >= REMINDED, 600, `${REMINDED} reminders sent`);
    const remindersMs = at("SELECT max(sent_at) AS t FROM outbox WHERE kind = 'reminder'") - triggered;
    // A closure of the next day cancels its paid visits: refunds, cancellation and refund mails.
    const token = await accessToken('bench-admin', 'bench-admin@example.com', 'admin');
    const eventsBefore = count('SELECT count(*) AS n FROM event_deliveries');
    const clicked = Date.now();
    const answer = await fetch(`${BASE}/api/closures`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ from: closed, to: closed, reason: 'A burst pipe', bookings: 'cancel' }),
    });
    const answerMs = Date.now() - clicked;
    if (answer.status !== 201) throw new Error(`POST /api/closures answered ${answer.status}: ${await answer.text()}`);
    const { cancelled } = (await answer.json()) as { cancelled: unknown[] };
    const mailOf = (kind: string) =>
      `FROM outbox o JOIN bookings b ON b.id = o.booking_id WHERE b.appointment_date = '${closed}' AND o.kind = '${kind}'`;
    await until(
      () =>
        count(`SELECT count(*) AS n ${mailOf('cancellation')} AND o.status = 'sent'`) >= CLOSED &&
        count(`SELECT count(*) AS n ${mailOf('refund')} AND o.status = 'sent'`) >= CLOSED,
      600,
      `${CLOSED} cancellation and refund mails sent`,
    );
    const lastCancellation = at(`SELECT max(o.sent_at) AS t ${mailOf('cancellation')}`) - clicked;
    const lastRefund = at(`SELECT max(o.sent_at) AS t ${mailOf('refund')}`) - clicked;
    const delivered = count('SELECT count(*) AS n FROM event_deliveries') - eventsBefore;
    return {
      cronMs,
      remindersMs,
      reminders: count(sentReminders),
      answerMs,
      cancelled: cancelled.length,
      refunded: count(
        `SELECT count(*) AS n FROM payments p JOIN bookings b ON b.id = p.booking_id WHERE b.appointment_date = '${closed}' AND p.refund_status = 'succeeded'`,
      ),
      lastCancellation,
      lastRefund,
      delivered,
      dead: count('SELECT count(*) AS n FROM dead_events'),
    };
  } finally {
    await stack.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** An access token as the Worker issues it (worker/src/people/auth.ts) to a verified account at token version 0. */
function accessToken(id: string, email: string, role: 'patient' | 'admin' = 'patient') {
  return new SignJWT({ email, role, verified: true, ver: 0 })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(id)
    .setIssuer('dental-clinic')
    .setAudience('dental-clinic-api')
    .setIssuedAt()
    .setExpirationTime('30m')
    .sign(new TextEncoder().encode(JWT_SECRET));
}

type Load = { rps: number; p50: number; p99: number; errors: number };

async function load(url: string, headers: Record<string, string> = {}): Promise<Load> {
  const result = await autocannon({ url, headers, duration: SECONDS, connections: CONNECTIONS });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

const mean = (list: Load[]): Load => ({
  rps: list.reduce((n, r) => n + r.rps, 0) / list.length,
  p50: list.reduce((n, r) => n + r.p50, 0) / list.length,
  p99: list.reduce((n, r) => n + r.p99, 0) / list.length,
  errors: list.reduce((n, r) => n + r.errors, 0),
});

const BASE = 'http://127.0.0.1:8787';

async function apiRun(total: number) {
  const stateDir = mkdtempSync(join(tmpdir(), 'clinic-bench-'));
  const stack = await startStack({
    stateDir,
    logFile: join(stateDir, 'stack.log'),
    jwtSecret: JWT_SECRET,
    extraData: bookings(total),
  });
  try {
    const count = queryLocalD1<{ n: number }>(stateDir, 'SELECT count(*) AS n FROM bookings')[0]?.n;
    const slotsUrl = `${BASE}/api/appointmentOptions?date=${MEASURED_DATE}`;
    const slotsQueries = (await fetch(slotsUrl)).headers.get('Server-Timing');
    const listUrl = `${BASE}/api/bookings?email=${encodeURIComponent(MEASURED.email)}`;
    const listHeaders = { Authorization: `Bearer ${await accessToken(MEASURED.id, MEASURED.email)}` };
    const listed = await fetch(listUrl, { headers: listHeaders });
    // Not a figure but the premise of one: a refused request would time the 401 path.
    if (!listed.ok) throw new Error(`GET /api/bookings?email= answered ${listed.status}: ${await listed.text()}`);
    const listQueries = listed.headers.get('Server-Timing');
    const listLength = ((await listed.json()) as unknown[]).length;
    await load(`${BASE}/api/health`); // warm-up
    // Alternate the endpoints so all see the same machine noise; keep the mean of two rounds.
    const runs = { health: [] as Load[], slots: [] as Load[], list: [] as Load[] };
    for (let round = 0; round < 2; round++) {
      runs.health.push(await load(`${BASE}/api/health`));
      runs.slots.push(await load(slotsUrl));
      runs.list.push(await load(listUrl, listHeaders));
    }
    const race = total === 1000 ? await bookingRace(stateDir) : undefined;
    return {
      total: count,
      slotsQueries,
      listQueries,
      listLength,
      health: mean(runs.health),
      slots: mean(runs.slots),
      list: mean(runs.list),
      race,
    };
  } finally {
    await stack.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/**
 * `total` bookings over the last 365 days, for GET /api/insights over that year: visits of every
 * treatment with its doctor and a chair (as many a day as it takes: the query's load, not a day a
 * clinic could hold), one in ten cancelled by its patient (half of them paid and refunded), one in
 * ten missed, one in ten moved, the rest attended and paid; each made up to a month before.
 */
function yearOfBookings(total: number) {
  return async (db: SeedBindings['DB']) => {
    const statements = [
      db.prepare(
        `INSERT INTO users (id, email, name, role, email_verified) VALUES ('bench-admin', 'bench-admin@example.com', 'Bench Admin', 'admin', 1), ${Array.from(
          { length: BULK_PATIENTS },
          (_, i) => `('bench-user-${i}', 'bench-user-${i}@example.com', 'Bench User ${i}', 'patient', 1)`,
        ).join(', ')}`,
      ),
    ];
    let rows: string[] = [];
    let payments: string[] = [];
    const flush = () => {
      if (rows.length > 0) {
        statements.push(
          db.prepare(`INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes,
            doctor_id, chair_id, user_id, patient_name, email, price_cents, paid, status, cancel_reason, created_at)
            VALUES ${rows.join(', ')}`),
        );
      }
      if (payments.length > 0) {
        statements.push(
          db.prepare(`INSERT INTO payments (id, transaction_id, booking_id, email, amount_cents, provider, refund_status,
            refund_amount_cents) VALUES ${payments.join(', ')}`),
        );
      }
      rows = [];
      payments = [];
    };
    for (let i = 0; i < total; i++) {
      const t = present(SEED_TREATMENTS[i % SEED_TREATMENTS.length], 'a seed treatment');
      const date = day(-(i % 365));
      const start = SEED_HOURS.open + ((i * 30) % (SEED_HOURS.close - SEED_HOURS.open - 90));
      const kind = i % 10;
      const status = kind === 0 ? 'cancelled' : kind === 1 ? 'no_show' : kind === 2 ? 'moved' : 'attended';
      const paid = kind >= 3 || (kind === 0 && i % 20 === 0);
      const made = new Date(Date.parse(`${date}T15:00:00Z`) - (i % 30) * 86_400_000).toISOString();
      const patient = `bench-user-${i % BULK_PATIENTS}`;
      rows.push(
        `('bench-${i}', '${t.id}', '${t.name}', '${date}', '${slotLabel(start, t.durationMinutes)}', ${start}, ${t.durationMinutes}, ` +
          `'${doctorOf(t)}', '${present(CHAIRS[i % 2], 'a chair')}', '${patient}', 'Bench User', '${patient}@example.com', ` +
          `${t.priceCents}, ${paid ? 1 : 0}, '${status}', ${kind === 0 ? "'patient'" : 'NULL'}, '${made}')`,
      );
      if (paid) {
        payments.push(
          `('pay-${i}', 'pi_bench_${i}', 'bench-${i}', '${patient}@example.com', ${t.priceCents}, 'demo', ` +
            `${kind === 0 ? `'succeeded', ${t.priceCents}` : 'NULL, NULL'})`,
        );
      }
      if (rows.length >= 200) flush();
    }
    flush();
    for (let i = 0; i < statements.length; i += 50) await db.batch(statements.slice(i, i + 50));
  };
}

/** GET /api/insights over the last year beside GET /api/health, with `total` bookings in that year. */
async function insightsRun(total: number) {
  const stateDir = mkdtempSync(join(tmpdir(), 'clinic-bench-insights-'));
  const stack = await startStack({
    stateDir,
    logFile: join(stateDir, 'stack.log'),
    jwtSecret: JWT_SECRET,
    extraData: yearOfBookings(total),
  });
  try {
    const url = `${BASE}/api/insights?from=${day(-364)}&to=${day(0)}`;
    // The page opens on the last four weeks: the range an owner asks for most.
    const weeks = `${BASE}/api/insights?from=${day(-27)}&to=${day(0)}`;
    const token = await accessToken('bench-admin', 'bench-admin@example.com', 'admin');
    const headers = { Authorization: `Bearer ${token}` };
    const answered = await fetch(url, { headers });
    if (!answered.ok) throw new Error(`GET /api/insights answered ${answered.status}: ${await answered.text()}`);
    const { totals } = (await answered.json()) as { totals: { visits: number; made: number } };
    const count = queryLocalD1<{ n: number }>(stateDir, 'SELECT count(*) AS n FROM bookings')[0]?.n;
    await load(`${BASE}/api/health`); // warm-up
    // One at a time, as an owner opens the page (interleaved), then under the same load as the API's figures.
    const alone = { health: [] as number[], insights: [] as number[] };
    for (let i = 0; i < 9; i++) {
      for (const [list, target, init] of [
        [alone.health, `${BASE}/api/health`, {}],
        [alone.insights, url, { headers }],
      ] as const) {
        const started = performance.now();
        await (await fetch(target, init)).arrayBuffer();
        list.push(performance.now() - started);
      }
    }
    const runs = { health: [] as Load[], insights: [] as Load[], weeks: [] as Load[] };
    for (let round = 0; round < 2; round++) {
      runs.health.push(await load(`${BASE}/api/health`));
      runs.weeks.push(await load(weeks, headers));
      runs.insights.push(await load(url, headers));
    }
    return {
      total: count,
      queries: answered.headers.get('Server-Timing'),
      visits: totals.visits,
      alone: { health: median(alone.health), insights: median(alone.insights) },
      health: mean(runs.health),
      insights: mean(runs.insights),
      weeks: mean(runs.weeks),
    };
  } finally {
    await stack.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

/** RACERS patients book at once, several aiming at each slot of one day. */
async function bookingRace(stateDir: string) {
  const tokens = await Promise.all(
    Array.from({ length: RACERS }, (_, i) => accessToken(`bench-racer-${i}`, `bench-racer-${i}@example.com`)),
  );
  // Every treatment (30 to 90 minutes; four share the one general dentist, all share the two
  // chairs) at each of its first six starts: overlapping times on the same doctors and chairs.
  const targets = SEED_TREATMENTS.flatMap((t) =>
    Array.from({ length: 6 }, (_, i) => ({
      treatment: t.name,
      slot: slotLabel(SEED_HOURS.open + 30 * i, t.durationMinutes),
    })),
  );
  const statuses = new Map<number, number>();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: 50 }, async () => {
      while (next < RACERS) {
        const i = next++;
        const target = present(targets[i % targets.length], 'a race target');
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
  // Read back from D1: pairs of the day's active bookings on one doctor, or one chair, whose times overlap.
  const overlapping = (column: string) =>
    queryLocalD1<{ n: number }>(
      stateDir,
      `SELECT count(*) AS n FROM bookings a JOIN bookings b ON a.id < b.id AND a.${column} = b.${column}
       WHERE a.appointment_date = '${RACE_DATE}' AND b.appointment_date = '${RACE_DATE}'
         AND a.status = 'active' AND b.status = 'active'
         AND a.start_minute < b.start_minute + b.duration_minutes AND b.start_minute < a.start_minute + a.duration_minutes`,
    )[0]?.n;
  const booked = queryLocalD1<{ n: number; minutes: number }>(
    stateDir,
    `SELECT count(*) AS n, sum(duration_minutes) AS minutes FROM bookings WHERE appointment_date = '${RACE_DATE}' AND status = 'active'`,
  )[0];
  return {
    requests: RACERS,
    seconds,
    rps: RACERS / seconds,
    statuses: Object.fromEntries(statuses),
    targets: targets.length,
    booked: booked?.n,
    bookedMinutes: booked?.minutes,
    doctorOverlaps: overlapping('doctor_id'),
    chairOverlaps: overlapping('chair_id'),
  };
}

interface FrontRoute {
  /** What the figures are printed under. */
  label: string;
  path: string;
  signedIn: boolean;
  /** The page's origin: the app's, or the bench's own static reference server's. */
  origin: string;
  /** The browser asks for this language (docs/languages.md): the Worker serves the page prerendered in it. */
  language?: string;
}

/**
 * The static reference (issue 31): one heading and one paragraph, no script, no style sheet, served
 * by the bench itself on a loopback port of its own. Every route's first paint and LCP are printed
 * as a ratio to this page's, measured in the same run, interleaved: the targets are ratios, so the
 * machine's load cancels out.
 */
const REFERENCE_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Reference</title>
<meta name="description" content="A static page for the bench to compare with."></head>
<body><h1>Smile Dental Clinic</h1><p>One heading and one paragraph, no script: what a page costs on this
machine before it does anything.</p></body></html>`;

async function referenceServer(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    response.end(REFERENCE_HTML);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
type StorageState = Awaited<ReturnType<import('@playwright/test').BrowserContext['storageState']>>;

/** A measured visit that did not end on the page asked for (a lost session lands on /login) has no meaning. */
function checkLanded(route: FrontRoute, url: string, tool: string) {
  const landed = new URL(url).pathname;
  if (landed !== route.path) {
    throw new Error(
      `${tool}: the visit to ${route.path}${route.signedIn ? ' (signed in)' : ''} ended on ${landed}; its figures would be another page's`,
    );
  }
}

/** The gzip bytes of the JavaScript and CSS a fresh visit (empty cache, no service worker) to the route loads. */
async function routeBytes(browser: Browser, route: FrontRoute, session: StorageState) {
  const context = await browser.newContext({
    serviceWorkers: 'block',
    storageState: route.signedIn ? session : undefined,
    ...(route.language ? { locale: route.language } : {}),
  });
  const page = await context.newPage();
  const sizes = { js: 0, css: 0, files: 0 };
  const pending: Promise<void>[] = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    if (type !== 'script' && type !== 'stylesheet') return;
    pending.push(
      response.body().then(
        (body) => {
          sizes[type === 'script' ? 'js' : 'css'] += gzipSync(body, { level: 9 }).length;
          sizes.files += 1;
        },
        () => undefined,
      ),
    );
  });
  // biome-ignore lint/suspicious/noPlaywrightNetworkidle: the JS bytes of a page are all it loads, lazy chunks included.
  await page.goto(`${route.origin}${route.path}`, { waitUntil: 'networkidle' });
  checkLanded(route, page.url(), 'JS bytes');
  await Promise.all(pending);
  await context.close();
  return sizes;
}

/** Lighthouse runs that failed on its own side ("Please run Lighthouse again"), each tried again. */
const lighthouseRetries: string[] = [];

async function lighthouseRun(port: number, url: string, language?: string) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      ...(language ? { extraHeaders: { 'Accept-Language': language } } : {}),
    });
    const lhr = result?.lhr;
    if (lhr && !lhr.runtimeError) return { lhr, trace: result.artifacts.Trace };
    const problem = `${url}: ${lhr?.runtimeError?.code ?? 'no result'}`;
    if (attempt === 3) throw new Error(`Lighthouse failed 3 times in a row on ${problem}`);
    lighthouseRetries.push(problem);
  }
}

type Lhr = Awaited<ReturnType<typeof lighthouseRun>>['lhr'];

/** BENCH_SHIFTS=1: the elements Lighthouse's layout-shifts audit names for one run, with their share of CLS. */
function printShifts(path: string, lhr: Lhr) {
  const details = lhr.audits['layout-shifts']?.details;
  const items = details && 'items' in details ? details.items : [];
  console.log(`  shifts on ${path}: CLS ${(lhr.audits['cumulative-layout-shift']?.numericValue ?? 0).toFixed(3)}`);
  for (const item of items) {
    const node = item.node as { selector?: string; snippet?: string } | undefined;
    console.log(`    ${Number(item.score ?? 0).toFixed(3)}  ${node?.selector ?? '?'}  ${node?.snippet ?? ''}`);
  }
}

/** BENCH_LCP=1: the element Lighthouse took for one run's LCP, and the phases (TTFB, load delay, ...) of its time. */
function printLcp(path: string, lhr: Lhr) {
  const details = lhr.audits['largest-contentful-paint-element']?.details;
  const tables = details && 'items' in details ? (details.items as { items?: Record<string, unknown>[] }[]) : [];
  const node = tables[0]?.items?.[0]?.node as { selector?: string; snippet?: string } | undefined;
  const phases = (tables[1]?.items ?? []).map((item) => `${item.phase} ${Number(item.timing).toFixed(0)} ms`);
  console.log(`  LCP on ${path}: ${node?.selector ?? '?'}  ${node?.snippet ?? ''}`);
  console.log(`    ${phases.join(', ')}`);
}

const median = (list: number[]) =>
  present([...list].sort((a, b) => a - b)[Math.floor(list.length / 2)], 'a measurement');

type LighthouseFigures = {
  performance: number;
  accessibility: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
};

/**
 * Lighthouse's mobile defaults, ROUNDS rounds (3 by default), each visiting every route in turn (interleaved, so a
 * busy moment of the machine hits them all), each visit on an empty HTTP cache with no service
 * worker (Lighthouse's storage reset; it keeps localStorage and IndexedDB, so a signed-in session
 * stays). Two browsers: one signed out, one where the seed patient signed in first.
 */
async function lighthouseScores(routes: FrontRoute[]) {
  const flags = { chromePath: CHROME, chromeFlags: ['--headless=new', ...CHROME_FLAGS] };
  const signedOut = await launch(flags);
  const signedIn = routes.some((r) => r.signedIn) ? await launch(flags) : undefined;
  try {
    if (signedIn) {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${signedIn.port}`);
      const page = await present(browser.contexts()[0], 'a browser context').newPage();
      await logIn(page, SEED_PATIENT, `${BASE}/login`);
      await page.close();
      await browser.close(); // disconnects; the profile keeps the session
    }
    const runs = new Map<FrontRoute, LighthouseFigures[]>(routes.map((route) => [route, []]));
    let version = '';
    const benchmarkIndex: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const route of routes) {
        const chrome = route.signedIn ? signedIn : signedOut;
        const { lhr, trace } = await lighthouseRun(
          present(chrome, 'a browser').port,
          `${route.origin}${route.path}`,
          route.language,
        );
        checkLanded(route, lhr.finalDisplayedUrl, 'Lighthouse');
        version = lhr.lighthouseVersion;
        benchmarkIndex.push(lhr.environment.benchmarkIndex);
        if (LIST_SHIFTS) printShifts(route.path, lhr);
        if (LIST_LCP) printLcp(route.path, lhr);
        if (REPORTS_DIR) {
          const name = `${route.label.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home'}-${round + 1}`;
          writeFileSync(join(REPORTS_DIR, `${name}.json`), JSON.stringify(lhr));
          writeFileSync(join(REPORTS_DIR, `${name}.trace.json`), JSON.stringify(trace));
        }
        runs.get(route)?.push({
          performance: lhr.categories.performance?.score ?? 0,
          accessibility: lhr.categories.accessibility?.score ?? 0,
          fcp: lhr.audits['first-contentful-paint']?.numericValue ?? Number.NaN,
          lcp: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
          tbt: lhr.audits['total-blocking-time']?.numericValue ?? Number.NaN,
          cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
        });
      }
    }
    const scores = new Map<FrontRoute, LighthouseFigures & { runs: number[]; tbtRuns: number[] }>();
    for (const [route, list] of runs) {
      const of = (key: keyof LighthouseFigures) => median(list.map((r) => r[key]));
      scores.set(route, {
        performance: of('performance'),
        accessibility: of('accessibility'),
        fcp: of('fcp'),
        lcp: of('lcp'),
        tbt: of('tbt'),
        cls: of('cls'),
        runs: list.map((r) => r.performance),
        tbtRuns: list.map((r) => r.tbt),
      });
    }
    return { version, scores, benchmarkIndex };
  } finally {
    signedOut.kill();
    signedIn?.kill();
  }
}

async function frontEnd() {
  const stateDir = mkdtempSync(join(tmpdir(), 'clinic-bench-fe-'));
  const stack = await startStack({ stateDir, logFile: join(stateDir, 'stack.log') });
  const reference = await referenceServer();
  try {
    const browser = await chromium.launch({ executablePath: CHROME, args: CHROME_FLAGS });
    const chromeVersion = browser.version();
    // The seed patient with two unpaid bookings: the dashboard lists them, the payment page is the first's.
    const context = await browser.newContext({ baseURL: BASE, serviceWorkers: 'block' });
    const page = await context.newPage();
    await logIn(page, SEED_PATIENT);
    const unpaid = await bookViaApi(page, { treatment: 'Teeth Cleaning', date: day(3), slot: slotLabel(9 * 60, 30) });
    await bookViaApi(page, { treatment: 'Dental Check-up', date: day(4), slot: slotLabel(10 * 60, 30) });
    const session = await context.storageState({ indexedDB: true });
    await context.close();

    const app = (label: string, path: string, signedIn: boolean): FrontRoute => ({
      label,
      path,
      signedIn,
      origin: BASE,
    });
    const allRoutes: FrontRoute[] = [
      app('/', '/', false),
      app('/login', '/login', false),
      app('/signup', '/signup', false),
      app('/book', '/book', false),
      // The same pages for a browser that asks for Spanish: prerendered in it, with its catalog to load.
      { ...app('/ (es)', '/', false), language: 'es' },
      { ...app('/book (es)', '/book', false), language: 'es' },
      app('/appointment', '/appointment', true),
      app('/dashboard', '/dashboard', true),
      app('/dashboard/payment/:id', `/dashboard/payment/${unpaid}`, true),
    ];
    const chosen = PAGES ? allRoutes.filter((route) => PAGES.includes(route.label)) : allRoutes;
    if (chosen.length === 0) throw new Error(`BENCH_PAGES names none of: ${allRoutes.map((r) => r.label).join(', ')}`);
    const routes = [{ label: 'static reference', path: '/', signedIn: false, origin: reference.origin }, ...chosen];
    const bytes = new Map<FrontRoute, { js: number; css: number; files: number }>();
    for (const route of routes) bytes.set(route, await routeBytes(browser, route, session));
    await browser.close();
    return { routes, bytes, chromeVersion, ...(await lighthouseScores(routes)) };
  } finally {
    await reference.close();
    await stack.stop();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const machine = () =>
  `${cpus().length} cores, load average ${loadavg()
    .map((n) => n.toFixed(1))
    .join(' ')}`;
const loadLine = (name: string, r: Load, note = '') =>
  `  ${name.padEnd(27)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${ms(r.p50)}   p99 ${ms(r.p99)}   errors ${r.errors}${note}`;

console.log(`Benchmark on ${new Date().toISOString()} — parts: ${only.join(', ')}; ${machine()}\n`);
if (only.includes('api')) {
  console.log(`${SECONDS} s per load run, ${CONNECTIONS} connections\n`);
  const small = await apiRun(1_000);
  const large = await apiRun(100_000);
  for (const run of [small, large]) {
    console.log(`API with ${run.total?.toLocaleString('en-US')} bookings in D1:`);
    console.log(loadLine('GET /api/health', run.health));
    console.log(loadLine('GET /api/appointmentOptions', run.slots, `   (${run.slotsQueries})`));
    console.log(
      loadLine(
        'GET /api/bookings?email=',
        run.list,
        `   (${run.listLength} bookings of one patient; ${run.listQueries})`,
      ),
    );
    console.log(`  slots / health throughput: ${(run.slots.rps / run.health.rps).toFixed(2)} (target ≥ 0.50)`);
    console.log(`  bookings / health throughput: ${(run.list.rps / run.health.rps).toFixed(2)} (target ≥ 0.50)\n`);
  }
  const ratio = (name: string, a: Load, b: Load) =>
    console.log(
      `${name} latency, 100,000 vs 1,000 bookings: p50 ×${(b.p50 / a.p50).toFixed(2)}, p99 ×${(b.p99 / a.p99).toFixed(2)} (target ≤ 1.5)`,
    );
  ratio('Slots', small.slots, large.slots);
  ratio("A patient's bookings", small.list, large.list);
  console.log('');
  if (small.race) {
    const r = small.race;
    console.log(
      `POST /api/bookings: ${r.requests} patients at once (50 in flight), ${r.targets} targets: 7 treatments of 30, 60 and 90 minutes ` +
        `at overlapping times, sharing 4 doctors and 2 chairs: ${r.rps.toFixed(0)} req/s over ${r.seconds.toFixed(2)} s`,
    );
    console.log(
      `  answers ${JSON.stringify(r.statuses)}; bookings stored ${r.booked} (${r.bookedMinutes} minutes); ` +
        `overlapping bookings read back from D1: per doctor ${r.doctorOverlaps}, per chair ${r.chairOverlaps}\n`,
    );
  }
}
if (only.includes('insights')) {
  for (const total of [1_000, 100_000]) {
    const run = await insightsRun(total);
    console.log(
      `GET /api/insights over a year with ${run.total?.toLocaleString('en-US')} bookings in it (${run.visits} visits):`,
    );
    console.log(
      `  one at a time (median of 9): GET /api/health ${ms(run.alone.health)}, GET /api/insights ${ms(run.alone.insights)}` +
        ` (×${(run.alone.insights / run.alone.health).toFixed(1)}; ${run.queries})`,
    );
    console.log(loadLine('GET /api/health', run.health));
    console.log(loadLine('GET /api/insights (4 weeks)', run.weeks));
    console.log(loadLine('GET /api/insights (a year)', run.insights));
    console.log(
      `  four weeks of insights / health throughput: ${(run.weeks.rps / run.health.rps).toFixed(2)} (target ≥ 0.40)`,
    );
    console.log(`  under load, insights / health latency: p50 ×${(run.insights.p50 / run.health.p50).toFixed(1)}\n`);
  }
}
if (only.includes('delivery')) {
  const run = await deliveryRun();
  const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
  console.log('Delivery through the events queue (wrangler dev: local Queues, send_email):');
  console.log(
    `  ${run.reminders.toLocaleString('en-US')} reminders due in one cron run: the run took ${seconds(run.cronMs)}, the last mail went ` +
      `${seconds(run.remindersMs)} after the trigger: ${((run.reminders * 1000) / run.remindersMs).toFixed(0)} mails/s ` +
      `(the old outbox sent 25 per cron run, every 5 minutes: ${(((REMINDED / 25) * 5) / 60).toFixed(1)} hours)`,
  );
  console.log(
    `  a closure cancelling ${run.cancelled} paid visits: answered in ${seconds(run.answerMs)}, ${run.refunded} refunded; ` +
      `the last cancellation mail ${seconds(run.lastCancellation)} and the last refund mail ${seconds(run.lastRefund)} after the click`,
  );
  console.log(
    `  ${run.delivered} event deliveries (event, consumer) in ${seconds(Math.max(run.lastCancellation, run.lastRefund))}: ` +
      `${((run.delivered * 1000) / Math.max(run.lastCancellation, run.lastRefund)).toFixed(0)} per second; dead letters ${run.dead}\n`,
  );
}
if (only.includes('front')) {
  const fe = await frontEnd();
  const reference = present(fe.scores.get(present(fe.routes[0], 'the reference')), 'the reference scores');
  const ratio = (value: number, of: number) => `×${(value / of).toFixed(2)}`;
  console.log(`Front end (${machine()}): a fresh visit to each page, * signed in as the seed patient`);
  console.log(
    `  gzip JavaScript and CSS it loads; Lighthouse ${fe.version} mobile in Chromium ${fe.chromeVersion}, medians of ${ROUNDS}`,
  );
  console.log(
    '  interleaved rounds; first paint (FCP) and LCP also as a ratio to the static reference page measured beside them',
  );
  console.log('  (targets: LCP ≤ ×1.5, TBT ≤ 50 ms):');
  console.log(
    `  ${'page'.padEnd(24)} ${'JS'.padStart(9)} ${'CSS'.padStart(8)} files   perf      FCP        LCP         TBT     CLS  a11y   (perf runs; TBT runs, ms)`,
  );
  for (const route of fe.routes) {
    const size = present(fe.bytes.get(route), `the bytes of ${route.path}`);
    const lh = present(fe.scores.get(route), `the Lighthouse scores of ${route.path}`);
    const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `  ${(route.label + (route.signedIn ? ' *' : '')).padEnd(24)} ${kb(size.js).padStart(9)} ${kb(size.css).padStart(8)} ${String(size.files).padStart(5)}` +
        `   ${lh.performance.toFixed(2)} ${seconds(lh.fcp).padStart(7)} ${ratio(lh.fcp, reference.fcp).padStart(6)}` +
        ` ${seconds(lh.lcp).padStart(7)} ${ratio(lh.lcp, reference.lcp).padStart(6)} ${`${lh.tbt.toFixed(0)} ms`.padStart(7)} ${lh.cls.toFixed(3).padStart(7)}` +
        `  ${lh.accessibility.toFixed(2)}   (${lh.runs.map((n) => n.toFixed(2)).join(', ')}; ${lh.tbtRuns.map((n) => n.toFixed(0)).join(', ')})`,
    );
  }
  // Lighthouse's own measure of the CPU it ran on (a fixed script, timed before each run; higher is faster): the
  // same code measured twice compares only where these agree (docs/performance.md#current-figures).
  console.log(
    `  Lighthouse's CPU benchmark index, median of ${fe.benchmarkIndex.length} runs: ${median(fe.benchmarkIndex).toFixed(0)} ` +
      `(${Math.min(...fe.benchmarkIndex).toFixed(0)}–${Math.max(...fe.benchmarkIndex).toFixed(0)})`,
  );
  if (lighthouseRetries.length > 0)
    console.log(`  Lighthouse runs tried again after a failure of its own: ${lighthouseRetries.join('; ')}`);
}
