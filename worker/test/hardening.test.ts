import { env } from 'cloudflare:test';
import { addDays, format } from 'date-fns';
import { beforeAll, describe, expect, it } from 'vitest';
import { clinicNow } from '../src/platform/clinic-time.ts';
import {
  accessTokenFor,
  addPastVisit,
  addUser,
  bearer,
  call,
  emulatorIdToken,
  newPatient,
  postJson,
  seed,
} from './helpers.ts';

beforeAll(seed);

describe('security headers', () => {
  it('are on API answers, errors included, and on pages', async () => {
    for (const path of ['/api/reviews', '/api/no-such-thing', '/login', '/no/such/page']) {
      const response = await call(path);
      const csp = response.headers.get('Content-Security-Policy') ?? '';
      expect(csp, path).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain('https://js.stripe.com');
      expect(csp).toContain('https://identitytoolkit.googleapis.com');
      expect(response.headers.get('Strict-Transport-Security')).toContain('max-age=');
      expect(response.headers.get('X-Content-Type-Options')).toBe('nosniff');
      expect(response.headers.get('Referrer-Policy')).toBe('strict-origin-when-cross-origin');
      expect(response.headers.get('Permissions-Policy')).toContain('camera=()');
    }
  });

  it('allow the Auth emulator only where it is configured', async () => {
    expect((await call('/api/reviews')).headers.get('Content-Security-Policy')).toContain('http://127.0.0.1:9099');
    const production = await call('/api/reviews', undefined, { FIREBASE_AUTH_EMULATOR_HOST: undefined });
    expect(production.headers.get('Content-Security-Policy')).not.toContain('127.0.0.1');
  });
});

describe('rate limits (the real binding with a budget of 3 a minute)', () => {
  const tight = () => ({
    CONTACT_LIMITER: env.TIGHT_LIMITER,
    TOKEN_LIMITER: env.TIGHT_LIMITER,
    BOOKING_LIMITER: env.TIGHT_LIMITER,
  });

  /**
   * Sends 7 requests one after the other and checks the limiter's rule: at most 3 succeed
   * per clock minute (its window), every other answer is a 429 with Retry-After. The calls may
   * straddle a minute boundary, so the budget is 3 for each window they touched; 7 calls overrun
   * it in any case (two windows at most, one of them gets 4 calls or more).
   */
  async function overrun(send: (i: number) => Promise<Response>, success: number, refusal: string): Promise<number> {
    const firstWindow = Math.floor(Date.now() / 60_000);
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await send(i);
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.headers.get('Retry-After')).toBe('60');
        expect(await response.json()).toMatchObject({ message: expect.stringContaining(refusal) });
      } else {
        await response.body?.cancel();
      }
    }
    const windows = Math.floor(Date.now() / 60_000) - firstWindow + 1;
    const succeeded = statuses.filter((status) => status === success).length;
    expect(statuses.filter((status) => status !== success && status !== 429)).toEqual([]);
    expect(statuses).toContain(429);
    expect(succeeded).toBeGreaterThanOrEqual(3);
    expect(succeeded).toBeLessThanOrEqual(3 * windows);
    return succeeded;
  }

  it('answers contact messages from one address beyond 3 a minute with 429, storing only the accepted ones', async () => {
    const accepted = await overrun(
      (i) =>
        call(
          '/api/contact',
          {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              'Idempotency-Key': `rate-limit-${i}-abcdef`,
              'CF-Connecting-IP': '198.51.100.7',
            },
            body: JSON.stringify({ user_name: 'A', user_email: 'a@example.com', subject: 'S', message: `M ${i}` }),
          },
          tight(),
        ),
      201,
      'Too many messages',
    );
    const stored = await env.DB.prepare(
      "SELECT count(*) AS n FROM contact_messages WHERE idempotency_key LIKE 'rate-limit-%'",
    ).first<{ n: number }>();
    expect(stored?.n).toBe(accepted);
  });

  it('limits token requests per address and bookings per patient', async () => {
    const token = { ...bearer(emulatorIdToken({ email: 'patient@clinic.test' })), 'CF-Connecting-IP': '198.51.100.8' };
    await overrun(
      () => call('/api/jwt?email=patient@clinic.test', { headers: token }, tight()),
      200,
      'Too many sign-in attempts',
    );

    const patient = bearer(await accessTokenFor('patient@clinic.test'));
    const date = format(addDays(new Date(`${clinicNow(env).date}T12:00:00`), 3), 'yyyy-MM-dd');
    const bookingStatuses: number[] = [];
    const bookings = [
      ['Teeth Cleaning', '09.00 AM - 09.30 AM'],
      ['Dental Check-up', '09.30 AM - 10.00 AM'],
      ['Fluoride Treatment', '10.00 AM - 10.30 AM'],
      ['Root Canal Treatment', '09.00 AM - 10.30 AM'],
    ];
    for (const [treatment, slot] of bookings) {
      const response = await call(
        '/api/bookings',
        {
          method: 'POST',
          headers: { ...patient, 'Content-Type': 'application/json' },
          body: JSON.stringify({ treatment, appointmentDate: date, slot }),
        },
        tight(),
      );
      bookingStatuses.push(response.status);
    }
    expect(bookingStatuses).toEqual([201, 201, 201, 429]);
  });

  it('limits a patient’s waitlist and reminder requests like their bookings', async () => {
    const patient = await newPatient('rate');
    const put = (remindersOn: boolean) =>
      call(
        '/api/users/me/reminders',
        {
          method: 'PUT',
          headers: { ...patient.auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ remindersOn }),
        },
        tight(),
      );
    await overrun((i) => put(i % 2 === 0), 200, 'Too many booking requests');
    const other = await newPatient('rate-waitlist');
    await overrun(
      () => call('/api/waitlist/no-such-entry', { method: 'DELETE', headers: other.auth }, tight()),
      404,
      'Too many booking requests',
    );
  });
});

describe('bad-input sweep: no 5xx and no changed data, whatever a client sends', () => {
  /** Every table and its order (claims has no rowid). */
  const tables: Record<string, string> = {
    users: 'rowid',
    treatments: 'rowid',
    specialties: 'rowid',
    bookings: 'rowid',
    claims: 'day, resource, cell',
    payments: 'rowid',
    stripe_events: 'rowid',
    doctors: 'rowid',
    chairs: 'rowid',
    clinic_hours: 'weekday',
    closures: 'rowid',
    reviews: 'rowid',
    contact_messages: 'rowid',
    cancellation_policy: 'id',
  };
  async function snapshot(except: string[] = []): Promise<string> {
    const parts: string[] = [];
    for (const [table, order] of Object.entries(tables)) {
      if (except.includes(table)) continue;
      const { results } = await env.DB.prepare(`SELECT * FROM ${table} ORDER BY ${order}`).all();
      parts.push(JSON.stringify(results));
    }
    return parts.join('\n');
  }

  const huge = 'x'.repeat(100_000);
  const injection = [
    "'; DROP TABLE bookings; --",
    '" OR 1=1 --',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '\u0000',
    '%00',
    '{{7*7}}',
  ];
  const bodies: (string | undefined)[] = [
    undefined,
    '',
    '{',
    'null',
    '[]',
    '42',
    '"text"',
    JSON.stringify({}),
    JSON.stringify({
      bookingId: 42,
      treatment: ['x'],
      appointmentDate: { $gt: '' },
      slot: null,
      name: true,
      email: 7,
      image: {},
      review: 1,
      location: [],
      transactionId: false,
    }),
    JSON.stringify({
      name: 'Fine Name',
      price: '80',
      durationMinutes: 61,
      specialty: 7,
      active: 'yes',
      workingDays: [7],
      hours: [{ weekday: 9, open: '9am', close: '17:00' }],
      from: '2026-02-31',
      to: 20261201,
      reason: ['x'],
      doctorId: {},
      force: 'yes',
    }),
    JSON.stringify({
      hours: { start: '17:00', end: '09:00' },
      workingDays: [1, 1],
      durationMinutes: 200,
      price: -1,
      from: '2026-12-02',
      to: '2026-12-01',
      reason: 'r',
    }),
    JSON.stringify({
      bookingId: huge,
      treatment: huge,
      appointmentDate: huge,
      slot: huge,
      name: huge,
      email: huge,
      review: huge,
      location: huge,
      transactionId: huge,
    }),
    ...injection.map((s) =>
      JSON.stringify({
        bookingId: s,
        treatment: s,
        appointmentDate: s,
        slot: s,
        name: s,
        email: s,
        specialty: s,
        image: s,
        transactionId: s,
        clientSecret: s,
        from: s,
        to: s,
        reason: s,
        doctorId: s,
        hours: s,
        workingDays: s,
        patientId: s,
        patient: { name: s, email: s },
        phone: s,
        status: s,
        rescheduleCutoffHours: s,
        freeCancellationHours: s,
        refund: s,
      }),
    ),
    `{"pad":"${'y'.repeat(300_000)}"}`,
  ];
  const endpoints: [string, string][] = [
    ['POST', '/api/users'],
    ['PUT', '/api/users/admin/{id}'],
    ['DELETE', '/api/users/{id}'],
    ['POST', '/api/bookings'],
    ['DELETE', '/api/bookings/{id}'],
    ['POST', '/api/doctors'],
    ['DELETE', '/api/doctors/{id}'],
    ['POST', '/api/images'],
    ['POST', '/api/reviews'],
    ['POST', '/api/create-payment-intent'],
    ['POST', '/api/payments'],
    ['POST', '/api/demo-payments/confirm'],
    ['POST', '/api/stripe/webhook'],
    ['GET', '/api/jwt?email={id}'],
    ['GET', '/api/users/admin/{id}'],
    ['GET', '/api/bookings?email={id}'],
    ['GET', '/api/bookings/{id}'],
    ['GET', '/api/bookings/{id}/calendar.ics'],
    ['GET', '/api/appointmentOptions?date={id}'],
    ['GET', '/api/images/{id}'],
    ['PATCH', '/api/bookings'],
    ['PUT', '/api/contact'],
    ['DELETE', '/api/reviews'],
    ['GET', '/api/reviews/mine'],
    ['GET', '/api/reviews/moderation?status={id}'],
    ['PUT', '/api/reviews/{id}/status'],
    ['GET', '/api/appointmentSpecialty'],
    ['GET', '/api/team'],
    ['PUT', '/api/doctors/{id}'],
    ['DELETE', '/api/doctors/{id}?force=true'],
    ['GET', '/api/treatments'],
    ['POST', '/api/treatments'],
    ['PUT', '/api/treatments/{id}'],
    ['DELETE', '/api/treatments/{id}'],
    ['GET', '/api/clinic/hours'],
    ['PUT', '/api/clinic/hours'],
    ['GET', '/api/closures'],
    ['POST', '/api/closures'],
    ['DELETE', '/api/closures/{id}'],
    ['GET', '/api/chairs'],
    ['POST', '/api/chairs'],
    ['DELETE', '/api/chairs/{id}?force={id}'],
    ['GET', '/api/schedule?date={id}'],
    ['GET', '/api/schedule?from={id}&to=2026-12-01'],
    ['GET', '/api/schedule.csv?from=2026-12-01&to={id}'],
    ['GET', '/api/users/search?q={id}'],
    ['POST', '/api/bookings/{id}/reschedule'],
    ['POST', '/api/bookings/{id}/attendance'],
    ['POST', '/api/bookings/{id}/cancel'],
    ['POST', '/api/phone-bookings'],
    ['GET', '/api/clinic/policy'],
    ['PUT', '/api/clinic/policy'],
    ['GET', '/api/users/me/reminders'],
    ['PUT', '/api/users/me/reminders'],
    ['GET', '/api/messages/settings'],
    ['PUT', '/api/messages/settings'],
    ['GET', '/api/waitlist'],
    ['POST', '/api/waitlist'],
    ['DELETE', '/api/waitlist/{id}'],
    ['GET', '/api/waitlist/offers/{id}'],
    ['POST', '/api/waitlist/offers/{id}/accept'],
    ['POST', '/api/waitlist/offers/{id}/decline'],
  ];
  const ids = ['no-such-id', ...injection.map(encodeURIComponent), 'x'.repeat(5000)];

  it('survives the whole corpus as anonymous, patient and admin', async () => {
    const callers = {
      anonymous: {},
      patient: bearer(await accessTokenFor('patient@clinic.test')),
      admin: bearer(await accessTokenFor('admin@clinic.test')),
      'bad token': bearer(`${'a'.repeat(40)}.${'b'.repeat(40)}.${'c'.repeat(40)}`),
    };
    // A chair needs nothing but a name, and hostile text is a name like any other: the admin's
    // POST /api/chairs stores it (as text). Every other table must stay as it was.
    const before = await snapshot(['chairs']);
    const chairsBefore = await env.DB.prepare('SELECT id FROM chairs').all<{ id: string }>();
    const failures: string[] = [];
    for (const [who, auth] of Object.entries(callers)) {
      for (const [method, template] of endpoints) {
        for (const id of ids) {
          const path = template.replace('{id}', id);
          const sendsBody = method !== 'GET';
          for (const body of sendsBody ? bodies : [undefined]) {
            const headers: Record<string, string> = { ...auth };
            if (body !== undefined) headers['Content-Type'] = 'application/json';
            const response = await call(path, { method, headers, body });
            if (response.status >= 500)
              failures.push(`${who} ${method} ${path.slice(0, 60)} ${String(body).slice(0, 40)} → ${response.status}`);
            await response.body?.cancel();
          }
          if (!template.includes('{id}')) break;
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot(['chairs'])).toBe(before);
    const kept = new Set(chairsBefore.results.map((c) => c.id));
    const { results: added } = await env.DB.prepare('SELECT id, name FROM chairs').all<{ id: string; name: string }>();
    const names = added
      .filter((c) => !kept.has(c.id))
      .map((c) => c.name)
      .sort();
    expect(names).toEqual(['Fine Name', ...injection.filter((s) => !/\p{Cc}/u.test(s))].sort());
    await env.DB.batch(
      added.filter((c) => !kept.has(c.id)).map((c) => env.DB.prepare('DELETE FROM chairs WHERE id = ?1').bind(c.id)),
    );
  }, 300_000);

  const malformed = ['%', '%ZZ', '%FF', '%E0%A4%A', '%C0%AF', '100%'];

  it('answers malformed percent-encoding in any path or query with a plain 400, changing nothing', async () => {
    const callers = [
      {},
      bearer(await accessTokenFor('patient@clinic.test')),
      bearer(await accessTokenFor('admin@clinic.test')),
    ];
    const before = await snapshot();
    const failures: string[] = [];
    for (const auth of callers) {
      for (const [method, template] of endpoints) {
        for (const bad of malformed) {
          const paths = [
            template.includes('{id}') ? template.replace('{id}', bad) : `${template}/${bad}`,
            `${template.replace('{id}', 'x')}${template.includes('?') ? '&' : '?'}q=${bad}`,
          ];
          for (const path of paths) {
            const init: RequestInit = { method, headers: { ...auth, 'Content-Type': 'application/json' } };
            if (method !== 'GET') init.body = '{}';
            const response = await call(path, init);
            const body = await response.json<{ message: string }>();
            if (response.status !== 400 || !body.message.includes('is not valid'))
              failures.push(`${method} ${path} → ${response.status} ${body.message}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  /** Each JSON endpoint with a body it would take, its caller, and its text fields. */
  async function jsonEndpoints() {
    const patient = bearer(await accessTokenFor('patient@clinic.test'));
    const admin = bearer(await accessTokenFor('admin@clinic.test'));
    const idToken = bearer(emulatorIdToken({ email: 'patient@clinic.test' }));
    const date = format(addDays(new Date(`${clinicNow(env).date}T12:00:00`), 5), 'yyyy-MM-dd');
    return [
      {
        path: '/api/users',
        headers: idToken,
        body: { name: 'Jamie Patient', email: 'patient@clinic.test' },
        lines: ['name', 'email'],
      },
      {
        path: '/api/bookings',
        headers: patient,
        body: {
          treatment: 'Teeth Cleaning',
          appointmentDate: date,
          slot: '09.00 AM - 09.30 AM',
          phone: '555 0100',
          email: 'patient@clinic.test',
        },
        lines: ['treatment', 'appointmentDate', 'slot', 'phone', 'email'],
      },
      {
        path: '/api/doctors',
        headers: admin,
        body: {
          name: 'Dr. X',
          email: 'x@clinic.test',
          specialty: 'General Dentistry',
          image: '/api/images/doctors/0123456789abcdef.png',
        },
        lines: ['name', 'email', 'specialty', 'image'],
      },
      {
        method: 'PUT',
        path: '/api/doctors/dr-hiro-tanaka',
        headers: admin,
        body: { name: 'Dr. Hiro Tanaka', email: 'hiro.tanaka@clinic.test', specialty: 'Orthodontics' },
        lines: ['name', 'email', 'specialty'],
      },
      {
        path: '/api/treatments',
        headers: admin,
        body: { name: 'Sealant', price: 40, durationMinutes: 30, specialty: 'General Dentistry' },
        lines: ['name', 'specialty'],
      },
      {
        method: 'PUT',
        path: '/api/treatments/teeth-cleaning',
        headers: admin,
        body: { name: 'Teeth Cleaning', specialty: 'General Dentistry' },
        lines: ['name', 'specialty'],
      },
      {
        path: '/api/closures',
        headers: admin,
        body: { from: date, to: date, reason: 'Holiday', doctorId: 'dr-hiro-tanaka' },
        lines: ['reason', 'doctorId'],
      },
      { path: '/api/chairs', headers: admin, body: { name: 'Chair 3' }, lines: ['name'] },
      {
        path: '/api/reviews',
        headers: patient,
        body: { review: 'Gentle and quick, thank you.', location: 'Boston' },
        lines: ['location'],
        multiline: ['review'],
      },
      {
        path: '/api/create-payment-intent',
        headers: patient,
        body: { bookingId: 'no-such-booking' },
        lines: ['bookingId'],
      },
      {
        path: '/api/payments',
        headers: patient,
        body: { transactionId: 'pi_1', bookingId: 'no-such-booking' },
        lines: ['transactionId', 'bookingId'],
      },
      {
        path: '/api/demo-payments/confirm',
        headers: patient,
        body: {
          clientSecret: 'pi_demo_x_secret_y',
          card: { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' },
        },
        lines: ['clientSecret', 'card.number', 'card.cvc'],
      },
      {
        path: '/api/contact',
        headers: { 'Idempotency-Key': 'sweep-control-0001' },
        body: { user_name: 'Ada', user_email: 'ada@example.com', subject: 'Hello', message: 'Hi there' },
        lines: ['user_name', 'user_email', 'subject'],
        multiline: ['message'],
      },
    ];
  }

  /** The body with one field (a dotted path) set to `value`. */
  function withField(body: Record<string, unknown>, field: string, value: string): Record<string, unknown> {
    const [head, ...rest] = field.split('.') as [string, ...string[]];
    if (rest.length === 0) return { ...body, [head]: value };
    return { ...body, [head]: withField(body[head] as Record<string, unknown>, rest.join('.'), value) };
  }

  const anyControl = [
    '\r\nBcc: victim@example.com',
    '\n',
    '\r',
    '\t',
    '\u0000',
    '\u0007',
    '\u001b[2J',
    '\u007f',
    '\u0085',
    '\u2028',
  ];
  const notInMultiline = ['\u0000', '\u0007', '\u001b[2J', '\u007f', '\u0085'];

  it('refuses control characters in every one-line field (400 naming the field), and all but line breaks and tabs in multi-line ones', async () => {
    const before = await snapshot();
    const failures: string[] = [];
    const send = async (
      method: string,
      path: string,
      headers: Record<string, string>,
      body: unknown,
      field: string,
      expected: string,
    ) => {
      const response = await call(path, {
        method,
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      const answer = await response.json<{ acknowledged?: boolean; message: string }>();
      if (response.status !== 400 || answer.acknowledged !== false || !answer.message.includes(expected)) {
        failures.push(`${path} ${field} ${JSON.stringify(body).slice(0, 80)} → ${response.status} ${answer.message}`);
      }
    };
    for (const { method = 'POST', path, headers, body, lines, multiline = [] } of await jsonEndpoints()) {
      for (const field of lines) {
        for (const control of anyControl) {
          await send(
            method,
            path,
            headers,
            withField(body, field, `ab${control}cd`),
            field,
            `${field} must be one line of text, without line breaks or control characters`,
          );
        }
      }
      for (const field of multiline) {
        for (const control of notInMultiline) {
          await send(
            method,
            path,
            headers,
            withField(body, field, `Fine words ${control} more words`),
            field,
            `${field} must not contain control characters`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  it('keeps line breaks and tabs in multi-line fields', async () => {
    const message = 'First line\r\nSecond line\n\tindented';
    const contact = await call('/api/contact', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'sweep-multiline-0001' },
      body: JSON.stringify({ user_name: 'Ada', user_email: 'ada@example.com', subject: 'Lines', message }),
    });
    expect(contact.status).toBe(201);
    const stored = await env.DB.prepare(
      "SELECT message FROM contact_messages WHERE idempotency_key = 'sweep-multiline-0001'",
    ).first<string>('message');
    expect(stored).toBe(message);
    await addUser('lines@example.com', 'Lee Lines');
    await addPastVisit('lines@example.com');
    const review = await postJson(
      '/api/reviews',
      { review: 'Gentle.\n\nAnd quick, thank you.', location: 'Boston' },
      bearer(await accessTokenFor('lines@example.com')),
    );
    expect(review.status).toBe(201);
  });

  it('answers HEAD on every path as GET answers it, without a body (405 with the same Allow where GET is not allowed)', async () => {
    const callers = [
      {},
      bearer(await accessTokenFor('patient@clinic.test')),
      bearer(await accessTokenFor('admin@clinic.test')),
    ];
    const paths = [...new Set(endpoints.map(([, template]) => template.replace('{id}', 'no-such-id')))];
    const failures: string[] = [];
    for (const auth of callers) {
      for (const path of paths) {
        const get = await call(path, { headers: auth });
        await get.body?.cancel();
        const head = await call(path, { method: 'HEAD', headers: auth });
        const body = await head.text();
        const same = (name: string) => head.headers.get(name) === get.headers.get(name);
        if (head.status !== get.status || !same('Content-Type') || !same('Allow') || body !== '') {
          failures.push(
            `HEAD ${path} → ${head.status} (GET ${get.status}), Allow ${head.headers.get('Allow')}, ${body.length} bytes`,
          );
        }
        if (get.status === 405 && get.headers.get('Allow')?.includes('HEAD'))
          failures.push(`${path} allows HEAD without GET`);
      }
    }
    expect(paths.length).toBeGreaterThan(15);
    expect(failures).toEqual([]);
  });

  it('stores hostile text only as text', async () => {
    await addPastVisit('patient@clinic.test');
    const text = "'; DROP TABLE reviews; -- <script>alert(1)</script>";
    const response = await postJson(
      '/api/reviews',
      { review: text, location: 'Nowhere' },
      bearer(await accessTokenFor('patient@clinic.test')),
    );
    expect(response.status).toBe(201);
    const reviews = await (
      await call('/api/reviews/moderation', { headers: bearer(await accessTokenFor('admin@clinic.test')) })
    ).json<{ review: string }[]>();
    expect(reviews[0]?.review).toBe(text);
  });
});
