import { env } from 'cloudflare:test';
import { addDays, format } from 'date-fns';
import { beforeAll, describe, expect, it } from 'vitest';
import { clinicNow } from '../src/clinic-time.ts';
import { accessTokenFor, addPastVisit, bearer, call, emulatorIdToken, postJson, seed } from './helpers.ts';

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
  const tight = () => ({ CONTACT_LIMITER: env.TIGHT_LIMITER, TOKEN_LIMITER: env.TIGHT_LIMITER, BOOKING_LIMITER: env.TIGHT_LIMITER });

  it('answers the 4th contact message from one address within a minute with 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await call(
        '/api/contact',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'Idempotency-Key': `rate-limit-${i}-abcdef`, 'CF-Connecting-IP': '198.51.100.7' },
          body: JSON.stringify({ user_name: 'A', user_email: 'a@example.com', subject: 'S', message: `M ${i}` }),
        },
        tight(),
      );
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.headers.get('Retry-After')).toBe('60');
        expect(await response.json()).toMatchObject({ message: expect.stringContaining('Too many messages') });
      }
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM contact_messages WHERE idempotency_key LIKE 'rate-limit-%'").first<{ n: number }>();
    expect(stored?.n).toBe(3);
  });

  it('limits token requests per address and bookings per patient', async () => {
    const token = { ...bearer(emulatorIdToken({ email: 'patient@clinic.test' })), 'CF-Connecting-IP': '198.51.100.8' };
    const tokenStatuses = [];
    for (let i = 0; i < 4; i++) tokenStatuses.push((await call('/api/jwt?email=patient@clinic.test', { headers: token }, tight())).status);
    expect(tokenStatuses).toEqual([200, 200, 200, 429]);

    const patient = bearer(await accessTokenFor('patient@clinic.test'));
    const date = format(addDays(new Date(`${clinicNow(env).date}T12:00:00`), 3), 'yyyy-MM-dd');
    const bookingStatuses = [];
    for (const treatment of ['Teeth Cleaning', 'Dental Check-up', 'Fluoride Treatment', 'Root Canal Treatment']) {
      const response = await call('/api/bookings', { method: 'POST', headers: { ...patient, 'Content-Type': 'application/json' }, body: JSON.stringify({ treatment, appointmentDate: date, slot: '09.00 AM - 09.30 AM' }) }, tight());
      bookingStatuses.push(response.status);
    }
    expect(bookingStatuses).toEqual([201, 201, 201, 429]);
  });
});

describe('bad-input sweep: no 5xx and no changed data, whatever a client sends', () => {
  const tables = ['users', 'treatments', 'treatment_slots', 'bookings', 'payments', 'stripe_events', 'doctors', 'reviews', 'contact_messages'];
  async function snapshot(): Promise<string> {
    const parts = [];
    for (const table of tables) {
      const { results } = await env.DB.prepare(`SELECT * FROM ${table} ORDER BY rowid`).all();
      parts.push(JSON.stringify(results));
    }
    return parts.join('\n');
  }

  const huge = 'x'.repeat(100_000);
  const injection = ["'; DROP TABLE bookings; --", '" OR 1=1 --', '<script>alert(1)</script>', '../../etc/passwd', '\u0000', '%00', '{{7*7}}'];
  const bodies: (string | undefined)[] = [
    undefined,
    '',
    '{',
    'null',
    '[]',
    '42',
    '"text"',
    JSON.stringify({}),
    JSON.stringify({ bookingId: 42, treatment: ['x'], appointmentDate: { $gt: '' }, slot: null, name: true, email: 7, image: {}, review: 1, location: [], transactionId: false }),
    JSON.stringify({ bookingId: huge, treatment: huge, appointmentDate: huge, slot: huge, name: huge, email: huge, review: huge, location: huge, transactionId: huge }),
    ...injection.map((s) => JSON.stringify({ bookingId: s, treatment: s, appointmentDate: s, slot: s, name: s, email: s, specialty: s, image: s, transactionId: s, clientSecret: s })),
    `{"pad":"${'y'.repeat(300_000)}"}`,
  ];
  const endpoints: [string, string][] = [
    ['POST', '/api/users'], ['PUT', '/api/users/admin/{id}'], ['DELETE', '/api/users/{id}'],
    ['POST', '/api/bookings'], ['DELETE', '/api/bookings/{id}'],
    ['POST', '/api/doctors'], ['DELETE', '/api/doctors/{id}'], ['POST', '/api/images'],
    ['POST', '/api/reviews'], ['POST', '/api/create-payment-intent'], ['POST', '/api/payments'],
    ['POST', '/api/demo-payments/confirm'], ['POST', '/api/stripe/webhook'],
    ['GET', '/api/jwt?email={id}'], ['GET', '/api/users/admin/{id}'], ['GET', '/api/bookings?email={id}'],
    ['GET', '/api/bookings/{id}'], ['GET', '/api/bookings/{id}/calendar.ics'], ['GET', '/api/appointmentOptions?date={id}'],
    ['GET', '/api/images/{id}'], ['PATCH', '/api/bookings'], ['PUT', '/api/contact'], ['DELETE', '/api/reviews'],
    ['GET', '/api/reviews/mine'], ['GET', '/api/reviews/moderation?status={id}'], ['PUT', '/api/reviews/{id}/status'],
  ];
  const ids = ['no-such-id', ...injection.map(encodeURIComponent), 'x'.repeat(5000)];

  it('survives the whole corpus as anonymous, patient and admin', async () => {
    const callers = {
      anonymous: {},
      patient: bearer(await accessTokenFor('patient@clinic.test')),
      admin: bearer(await accessTokenFor('admin@clinic.test')),
      'bad token': bearer(`${'a'.repeat(40)}.${'b'.repeat(40)}.${'c'.repeat(40)}`),
    };
    const before = await snapshot();
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
            if (response.status >= 500) failures.push(`${who} ${method} ${path.slice(0, 60)} ${String(body).slice(0, 40)} → ${response.status}`);
            await response.body?.cancel();
          }
          if (!template.includes('{id}')) break;
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot()).toBe(before);
  }, 120_000);

  it('stores hostile text only as text', async () => {
    await addPastVisit('patient@clinic.test');
    const text = "'; DROP TABLE reviews; -- <script>alert(1)</script>";
    const response = await postJson('/api/reviews', { review: text, location: 'Nowhere' }, bearer(await accessTokenFor('patient@clinic.test')));
    expect(response.status).toBe(201);
    const reviews = await (await call('/api/reviews/moderation', { headers: bearer(await accessTokenFor('admin@clinic.test')) })).json<{ review: string }[]>();
    expect(reviews[0]?.review).toBe(text);
  });
});
