import {
  createExecutionContext,
  createMessageBatch,
  createScheduledController,
  env,
  getQueueResult,
  waitOnExecutionContext,
} from 'cloudflare:test';
import { type Schema, Validator } from '@cfworker/json-schema';
import { UnsecuredJWT } from 'jose';
import * as v from 'valibot';
import { vi } from 'vitest';
import type { AppointmentOption } from '../../contract/appointments.ts';
import { type RouteContract, type RouteKey, routes } from '../../contract/routes.ts';
import { SEED_ACCOUNTS, seedStatements } from '../../scripts/seed-data.ts';
import worker from '../src/index.ts';
import { smsSigningKey, twilioSignature } from '../src/messages/sms.ts';
import { issueAccessToken } from '../src/people/auth.ts';
import { userByEmail } from '../src/people/data/users.ts';
import { clinicNow } from '../src/platform/clinic-time.ts';
import type { Env } from '../src/platform/env.ts';
import type { QueueMessage } from '../src/platform/event-types.ts';
import { openApiDocument } from '../src/platform/openapi.ts';

type IncomingRequest = Parameters<typeof worker.fetch>[0];

/**
 * Calls the Worker as a browser on the clinic's origin would, with the real bindings (or some swapped).
 * Every 2xx answer of the API must be what the contract says its route answers (contract/routes.ts):
 * a response that drifts from the contract fails the test that received it, and so does a 500.
 */
export async function call(path: string, init?: RequestInit, bindings: Partial<Env> = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const request = new Request(`https://clinic.test${path}`, init) as IncomingRequest;
  // Cloudflare's edge sets the caller's address; give each test call one unless it names its own.
  if (!request.headers.has('CF-Connecting-IP')) request.headers.set('CF-Connecting-IP', '192.0.2.1');
  const queue = bindings.EVENTS ? null : recordingQueue();
  const all = { ...env, ...(queue ? { EVENTS: queue.binding } : {}), ...bindings };
  const response = await worker.fetch(request, all, ctx);
  await waitOnExecutionContext(ctx);
  if (queue) await drainQueue(queue, all);
  // Nothing a client sends may end in an internal error (the deliberate 502 and 503 of a payment
  // provider that cannot be reached are not internal errors).
  if (response.status === 500) throw new Error(`${request.method} ${path} answered 500: ${await response.text()}`);
  await checkAgainstContract(request, response);
  return response;
}

/** A route's path as a pattern, with itty-router's syntax: `:name` is one segment, `:name+` one or more. */
function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => {
      if (segment.startsWith(':')) return segment.endsWith('+') ? '.+' : '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^/api${source}$`);
}

const contractRoutes = (Object.entries(routes) as [RouteKey, RouteContract][]).map(([key, contract]) => {
  const [method, path] = key.split(' ') as [string, string];
  return { key, method, pattern: pathPattern(path), contract };
});

/** The contract's route for a request to the API, if it has one. */
export function contractRouteOf(
  method: string,
  pathname: string,
): { key: RouteKey; contract: RouteContract } | undefined {
  return contractRoutes.find((route) => route.method === method && route.pattern.test(pathname));
}

export async function checkAgainstContract(request: Request, response: Response): Promise<void> {
  const { pathname } = new URL(request.url);
  if (!pathname.startsWith('/api/') || request.method === 'HEAD' || !response.ok) return;
  const route = contractRouteOf(request.method, pathname);
  if (!route)
    throw new Error(`${request.method} ${pathname} answered ${response.status} but the contract has no such route`);
  const { response: expected } = route.contract;
  const type = response.headers.get('Content-Type') ?? '';
  if ('file' in expected) {
    const [kind, subtype] = expected.file.split('/');
    if (!type.startsWith(subtype === '*' ? `${kind}/` : expected.file)) {
      throw new Error(`${route.key} answered ${type}; the contract says ${expected.file}`);
    }
    return;
  }
  if (!type.startsWith('application/json')) throw new Error(`${route.key} answered ${type}; the contract says JSON`);
  const body = await response.clone().json();
  const result = v.safeParse(expected, body);
  if (!result.success) {
    const problems = result.issues.map((issue) => `${v.getDotPath(issue) ?? '(answer)'}: ${issue.message}`);
    throw new Error(`${route.key} answered what its contract does not allow:\n  ${problems.join('\n  ')}`);
  }
  // And what GET /api/openapi.json publishes for it (a JSON Schema validator without eval, as workerd wants).
  const checked = openApiValidator(route.key).validate(body);
  if (!checked.valid) {
    const problems = checked.errors.map((e) => `${e.instanceLocation}: ${e.error}`);
    throw new Error(`${route.key} answered what its OpenAPI document does not allow:\n  ${problems.join('\n  ')}`);
  }
}

const validators = new Map<RouteKey, Validator>();

/** A validator of a route's 2xx answer against the OpenAPI document, made once per route. */
function openApiValidator(key: RouteKey): Validator {
  let validator = validators.get(key);
  if (!validator) {
    validator = new Validator(openApiAnswer(key) as Schema, '2020-12', false);
    validators.set(key, validator);
  }
  return validator;
}

/** The JSON Schema of a route's 2xx answer in the OpenAPI document. */
function openApiAnswer(key: RouteKey): unknown {
  const [method = '', path = ''] = key.split(' ');
  const paths = openApiDocument().paths as Record<
    string,
    Record<string, { responses: Record<string, { content: Record<string, { schema: unknown }> }> }>
  >;
  return paths[path.replace(/:(\w+)\+?/g, '{$1}')]?.[method.toLowerCase()]?.responses['2XX']?.content[
    'application/json'
  ]?.schema;
}

export function postJson(path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return call(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A request with a JSON body (none when `body` is undefined) as `headers` (a caller's Authorization, say), through call(). */
export function sendJson(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
  bindings: Partial<Env> = {},
): Promise<Response> {
  return call(
    path,
    {
      method,
      headers: { ...headers, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    },
    bindings,
  );
}

/** Drops every trigger, view and table (a migration test then builds the database as it once was). */
export async function emptyDatabase(): Promise<void> {
  const { results } = await env.DB.prepare(
    "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view', 'table') AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' ORDER BY CASE type WHEN 'trigger' THEN 0 WHEN 'view' THEN 1 ELSE 2 END, rowid DESC",
  ).all<{ type: string; name: string }>();
  for (const { type, name } of results) await env.DB.prepare(`DROP ${type.toUpperCase()} "${name}"`).run();
}

/** The seed clinic. */
export async function seed(): Promise<void> {
  await seedAs({ recall: true });
}

/** The seed clinic on a database from before migration 0013 (no recall intervals). */
export async function seedAs(options: { recall: boolean }): Promise<void> {
  await env.DB.batch(seedStatements({}, options).map(({ sql, params }) => env.DB.prepare(sql).bind(...params)));
}

export async function count(table: string): Promise<number> {
  const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
  return row?.n ?? 0;
}

/** The Firebase uid of an email's account in these tests: the seed accounts' own, else `uid-<email>`. */
export function uidOf(email: string): string {
  return SEED_ACCOUNTS.find((a) => a.email === email)?.uid ?? `uid-${email}`;
}

/**
 * An ID token as the Firebase Auth emulator issues it: unsigned (`alg: none`). The account is the
 * email's own (uidOf) with its email verified unless the claims say otherwise.
 */
export function emulatorIdToken(claims: {
  email: string;
  sub?: string;
  name?: string;
  exp?: number;
  iat?: number;
  aud?: string;
  verified?: boolean;
}): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: `https://securetoken.google.com/${claims.aud ?? env.FIREBASE_PROJECT_ID}`,
    aud: claims.aud ?? env.FIREBASE_PROJECT_ID,
    sub: claims.sub ?? uidOf(claims.email),
    email: claims.email,
    email_verified: claims.verified ?? true,
    name: claims.name,
    iat: claims.iat ?? now - 10,
    auth_time: now - 10,
    exp: claims.exp ?? now + 3600,
  };
  return new UnsecuredJWT(payload).encode();
}

/** The Worker's access token for a stored user, as GET /api/jwt would issue it now. */
export async function accessTokenFor(email: string): Promise<string> {
  const user = await userByEmail(env.DB, email);
  if (!user) throw new Error(`no user ${email}`);
  return issueAccessToken(user, env);
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

/** A stored user, bound to the Firebase uid `uidOf(email)` (or `uid`; null: a row from before uids were stored), verified unless told. */
export async function addUser(
  email: string,
  name: string,
  role: 'patient' | 'admin' = 'patient',
  { verified = true, uid = uidOf(email) }: { verified?: boolean; uid?: string | null } = {},
): Promise<string> {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    'INSERT INTO users (id, email, name, role, firebase_uid, email_verified) VALUES (?1, ?2, ?3, ?4, ?5, ?6)',
  )
    .bind(id, email, name, role, uid, verified ? 1 : 0)
    .run();
  return id;
}

/**
 * A paid appointment of `email`'s `daysAgo` days ago at 09:00 (what entitles a patient to a review):
 * the first treatment they have not booked that day. A past visit takes no claims (nobody can book the past).
 */
export async function addPastVisit(email: string, daysAgo = 3): Promise<string> {
  const id = crypto.randomUUID();
  // The clinic's calendar, not UTC's: for a few hours a day they name different dates.
  const day = clinicDay(-daysAgo);
  const { meta } = await env.DB.prepare(
    `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes, user_id,
       patient_name, email, price_cents, paid)
     SELECT ?1, t.id, t.name, ?2, '09.00 AM - ' || CASE t.duration_minutes WHEN 30 THEN '09.30 AM' WHEN 60 THEN '10.00 AM' ELSE '10.30 AM' END,
       540, t.duration_minutes, u.id, u.name, u.email, t.price_cents, 1
     FROM users u, treatments t
     WHERE u.email = ?3 AND t.duration_minutes IN (30, 60, 90) AND NOT EXISTS (
       SELECT 1 FROM bookings b WHERE b.user_id = u.id AND b.treatment_id = t.id AND b.appointment_date = ?2 AND b.status = 'active')
     ORDER BY t.position LIMIT 1`,
  )
    .bind(id, day, email)
    .run();
  if (meta.changes !== 1) throw new Error(`no treatment left to visit ${daysAgo} days ago for ${email}`);
  return id;
}

/**
 * Pins the clock of the Worker and of the test at `instant` (time moves on from there), so a test
 * about particular dates (a month's end, the clocks' changes) runs the same on any day of the year.
 * Tokens for the pinned time are made after pinning; `vi.useRealTimers()` undoes it.
 */
export function pinClock(instant: string): void {
  vi.useFakeTimers({ toFake: ['Date'], now: new Date(instant), shouldAdvanceTime: true });
}

/** The clinic's date `n` days from today (yyyy-MM-dd). */
export function clinicDay(n: number): string {
  const today = new Date(`${clinicNow(env).date}T12:00:00Z`);
  return new Date(today.getTime() + n * 24 * 3600_000).toISOString().slice(0, 10);
}

export type Option = AppointmentOption;

/** GET /api/appointmentOptions?date= (200 expected). */
export async function optionsOn(date: string, bindings: Partial<Env> = {}): Promise<Option[]> {
  const response = await call(`/api/appointmentOptions?date=${date}`, undefined, bindings);
  if (response.status !== 200)
    throw new Error(`appointmentOptions answered ${response.status}: ${await response.text()}`);
  return response.json();
}

/** The free slots of one treatment (by id) on a date. */
export async function slotsOf(date: string, treatmentId: string, bindings: Partial<Env> = {}): Promise<string[]> {
  return (await optionsOn(date, bindings)).find((o) => o._id === treatmentId)?.slots ?? [];
}

/** POST /api/bookings as the spec's booking modal sends it. */
export function bookAs(
  headers: Record<string, string>,
  booking: { treatment: string; appointmentDate: string } & ({ slot: string } | { start: string }),
  bindings: Partial<Env> = {},
) {
  return call(
    '/api/bookings',
    {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...booking, phone: '555 0100' }),
    },
    bindings,
  );
}

/** A signed-in, verified patient of their own. */
export async function newPatient(
  prefix = 'patient',
): Promise<{ id: string; email: string; auth: Record<string, string> }> {
  const email = `${prefix}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const id = await addUser(email, `Patient ${prefix}`);
  return { id, email, auth: bearer(await accessTokenFor(email)) };
}

const PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

/** A second general dentist beside the seed's Dr. Sofia Alvarez (id 'dr-second'), so there is a doctor to ask for. */
export async function addSecondGeneralDentist(): Promise<void> {
  await env.DB.prepare(
    `INSERT INTO doctors (id, name, email, specialty_id, image_key)
     VALUES ('dr-second', 'Dr. Second', 'second@clinic.test', 'general-dentistry', 'doctors/second.png')`,
  ).run();
}

/** Adds a doctor as the admin screens do: their photo uploaded, then POST /api/doctors; answers their id. */
export async function addDoctorAs(
  admin: Record<string, string>,
  doctor: {
    name: string;
    email: string;
    specialty: string;
    workingDays?: number[];
    hours?: { start: string; end: string };
  },
): Promise<string> {
  const form = new FormData();
  form.append('image', new File([PNG], 'dr.png', { type: 'image/png' }));
  const uploaded = await call('/api/images', { method: 'POST', headers: admin, body: form });
  const { data } = await uploaded.json<{ data: { url: string } }>();
  const response = await postJson('/api/doctors', { ...doctor, image: data.url }, admin);
  if (response.status !== 201)
    throw new Error(`POST /api/doctors answered ${response.status}: ${await response.text()}`);
  return (await response.json<{ insertedId: string }>()).insertedId;
}

/** The real send_email binding, with every mail it was given recorded (`failing`: every send throws instead). */
export function mailbox(): {
  mailer: SendEmail;
  sent: EmailMessageBuilder[];
  failing: boolean;
  to(email: string): EmailMessageBuilder[];
} {
  const box = {
    sent: [] as EmailMessageBuilder[],
    failing: false,
    mailer: {
      send: async (mail: EmailMessageBuilder) => {
        if (box.failing) throw new Error('mail relay down');
        box.sent.push(mail);
        return env.MAILER.send(mail);
      },
    } as SendEmail,
    to: (email: string) => box.sent.filter((mail) => mail.to === email),
  };
  return box;
}

/** One run of the Cron Trigger (wrangler.toml [triggers]) at `scheduledTime`, with the real bindings (or some swapped). */
export async function runCron(scheduledTime: number | Date, bindings: Partial<Env> = {}): Promise<void> {
  const queue = bindings.EVENTS ? null : recordingQueue();
  const all = { ...env, ...(queue ? { EVENTS: queue.binding } : {}), ...bindings };
  await worker.scheduled(
    createScheduledController({ scheduledTime: new Date(scheduledTime).getTime(), cron: '*/5 * * * *' }),
    all,
  );
  if (queue) await drainQueue(queue, all);
}

/** The EVENTS queue (wrangler.toml) as a test holds it: every message sent is kept until drainQueue delivers it. */
export interface RecordingQueue {
  binding: Queue<QueueMessage>;
  waiting: { id: string; body: QueueMessage; attempts: number }[];
  /** Messages the Worker's queue handler gave up on after the queue's retries (the dead-letter queue got them). */
  dead: QueueMessage[];
  deliveries: number;
}

export function recordingQueue(): RecordingQueue {
  const queue: RecordingQueue = {
    waiting: [],
    dead: [],
    deliveries: 0,
    binding: {
      send: async (body: QueueMessage) => {
        queue.waiting.push({ id: crypto.randomUUID(), body, attempts: 1 });
      },
      sendBatch: async (messages: Iterable<MessageSendRequest<QueueMessage>>) => {
        for (const { body } of messages) queue.waiting.push({ id: crypto.randomUUID(), body, attempts: 1 });
      },
    } as unknown as Queue<QueueMessage>,
  };
  return queue;
}

/** wrangler.toml's max_retries of the events queue: a message is tried this many times more, then dead-lettered. */
const MAX_RETRIES = 10;

/**
 * Delivers what `queue` holds through the Worker's own queue handler, batch by batch, as the local
 * queue would (retried messages again with their attempts counted, the dead-letter queue after the
 * last retry), until nothing waits: the messages a delivery sends are delivered too. The delay a
 * retry asks for is not waited out. `bindings` as the handler sees them (swap one to make it fail).
 */
export async function drainQueue(queue: RecordingQueue, bindings: Env, batchSize = 50): Promise<void> {
  while (queue.waiting.length > 0) {
    const messages = queue.waiting.splice(0, batchSize);
    const ctx = createExecutionContext();
    const batch = createMessageBatch<QueueMessage>(
      'clinic-events',
      messages.map((m) => ({ id: m.id, timestamp: new Date(), attempts: m.attempts, body: m.body })),
    );
    queue.deliveries += 1;
    await worker.queue(batch, bindings, ctx);
    const result = await getQueueResult(batch, ctx);
    const retried = new Set(result.retryMessages.map((r) => r.msgId));
    for (const message of messages) {
      if (!retried.has(message.id)) continue;
      if (message.attempts > MAX_RETRIES) {
        queue.dead.push(message.body);
        const deadCtx = createExecutionContext();
        const dead = createMessageBatch<QueueMessage>('clinic-events-dead', [
          { id: message.id, timestamp: new Date(), attempts: message.attempts, body: message.body },
        ]);
        await worker.queue(dead, bindings, deadCtx);
        await getQueueResult(dead, deadCtx);
      } else {
        queue.waiting.push({ ...message, attempts: message.attempts + 1 });
      }
    }
  }
}

/** A demo card that pays (Stripe's test Visa). */
export const DEMO_CARD = {
  number: '4242 4242 4242 4242',
  expMonth: 12,
  expYear: new Date().getUTCFullYear() + 2,
  cvc: '123',
};

/** Pays a booking through the demo provider, as the payment page does (intent, card, record); answers the intent's id. */
export async function payWithDemo(
  bookingId: string,
  auth: Record<string, string>,
  number = DEMO_CARD.number,
  bindings: Partial<Env> = {},
): Promise<string> {
  const post = (path: string, body: unknown) =>
    call(
      path,
      { method: 'POST', headers: { ...auth, 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
      bindings,
    );
  const intent = await post('/api/create-payment-intent', { bookingId });
  if (intent.status !== 200) throw new Error(`create-payment-intent answered ${intent.status}: ${await intent.text()}`);
  const { clientSecret } = await intent.json<{ clientSecret: string }>();
  const confirmed = await post('/api/demo-payments/confirm', { clientSecret, card: { ...DEMO_CARD, number } });
  if (confirmed.status !== 200) throw new Error(`demo confirm answered ${confirmed.status}: ${await confirmed.text()}`);
  const { paymentIntent } = await confirmed.json<{ paymentIntent: { id: string } }>();
  const recorded = await post('/api/payments', { transactionId: paymentIntent.id, bookingId });
  if (recorded.status !== 200)
    throw new Error(`POST /api/payments answered ${recorded.status}: ${await recorded.text()}`);
  return paymentIntent.id;
}

/** Saves a demo card (Stripe's test `number`) on the caller's account, as the card form does; answers the card. */
export async function saveDemoCard(
  auth: Record<string, string>,
  number = DEMO_CARD.number,
  bindings: Partial<Env> = {},
): Promise<{ _id: string; brand: string; last4: string }> {
  const setup = await sendJson('POST', '/api/users/me/cards', auth, undefined, bindings);
  if (setup.status !== 201) throw new Error(`POST /api/users/me/cards answered ${setup.status}: ${await setup.text()}`);
  const { clientSecret } = await setup.json<{ clientSecret: string }>();
  const card = { ...DEMO_CARD, number };
  const confirmed = await sendJson('POST', '/api/demo-payments/confirm', auth, { clientSecret, card }, bindings);
  if (confirmed.status !== 200)
    throw new Error(`saving a card answered ${confirmed.status}: ${await confirmed.text()}`);
  return (await confirmed.json<{ card: { _id: string; brand: string; last4: string } }>()).card;
}

/**
 * A new patient's visit of `treatment` (one paid with a card on file) tomorrow at `slot` (a morning
 * one), booked with a saved demo card (`number`), then the clock pinned that afternoon (undo with
 * vi.useRealTimers()); answers the patient, the booking, and tokens for the pinned time.
 */
export async function missedCardVisit(
  prefix: string,
  treatment: string,
  { number = DEMO_CARD.number, slot = '09.00 AM - 09.30 AM' }: { number?: string; slot?: string } = {},
  bindings: Partial<Env> = {},
): Promise<{ id: string; email: string; auth: Record<string, string>; desk: Record<string, string> }> {
  const patient = await newPatient(prefix);
  await saveDemoCard(patient.auth, number, bindings);
  const booked = await sendJson(
    'POST',
    '/api/bookings',
    patient.auth,
    { treatment, appointmentDate: clinicDay(1), slot, phone: '555 0100' },
    bindings,
  );
  if (booked.status !== 201) throw new Error(`booking a card visit answered ${booked.status}: ${await booked.text()}`);
  const { insertedId } = await booked.json<{ insertedId: string }>();
  pinClock(`${clinicDay(1)}T21:00:00.000Z`); // 16:00 or 17:00 in New York: after every morning slot
  return {
    id: insertedId,
    email: patient.email,
    auth: bearer(await accessTokenFor(patient.email)),
    desk: bearer(await accessTokenFor('admin@clinic.test')),
  };
}

/** A patient's text to the clinic: a form POST to the inbound SMS webhook, signed with `key` (the right one unless told). */
export async function textToClinic(params: Record<string, string>, key = smsSigningKey(env)): Promise<Response> {
  const url = 'https://clinic.test/api/sms/inbound';
  const body = new URLSearchParams(params);
  return call('/api/sms/inbound', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Twilio-Signature': await twilioSignature(key, url, body),
    },
    body,
  });
}
