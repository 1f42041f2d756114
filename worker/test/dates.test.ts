/**
 * Dates are dates (docs/architecture.md#one-origin-and-its-error-policy): every route that takes a date refuses one
 * outside 2000–2100 with a 400 and never loops over it. A property test sends random date strings
 * (any year 0000–9999, months and days just outside their ranges, the display format too) to every
 * date-taking route and checks that none answers with a 5xx or takes a second or more.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  accessTokenFor,
  bearer,
  bookAs,
  call,
  clinicDay,
  newPatient,
  type Option,
  optionsOn,
  seed,
} from './helpers.ts';

const SEED = 20261128;
const RUNS = 25;

beforeAll(seed);

const pad = (n: number, width: number) => String(n).padStart(width, '0');

/** "yyyy-MM-dd" of any year, with months 00–13 and days 00–32; or the same as "Mon d, yyyy". */
const dateString = fc.oneof(
  fc
    .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
    .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`),
  fc
    .tuple(
      fc.integer({ min: 0, max: 9999 }),
      fc.constantFrom('Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'),
      fc.integer({ min: 1, max: 31 }),
    )
    .map(([y, m, d]) => `${m} ${d}, ${y}`),
  fc.constantFrom('9999-12-31', '0000-01-01', '10000-01-01', '2100-12-31', '2101-01-01', '1999-12-31'),
);

interface DateRoute {
  name: string;
  send(date: string, other: string): Promise<Response>;
}

describe('every route that takes a date', () => {
  let admin: Record<string, string>;
  let patient: Awaited<ReturnType<typeof newPatient>>;
  let bookingId: string;
  let linkless: Option;
  let childId: string;
  const json = (method: string, auth: Record<string, string>, body: unknown): RequestInit => ({
    method,
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

  beforeAll(async () => {
    admin = bearer(await accessTokenFor('admin@clinic.test'));
    patient = await newPatient('dates');
    const options = await optionsOn(clinicDay(20));
    linkless = options.find((o) => o.slots.length > 0) as Option;
    const booked = await bookAs(patient.auth, {
      treatment: linkless.name,
      appointmentDate: clinicDay(20),
      slot: linkless.slots[0] as string,
    });
    bookingId = ((await booked.json()) as { insertedId: string }).insertedId;
    const child = await call(
      '/api/users/me/dependants',
      json('POST', patient.auth, { name: 'Date Child', birthDate: '2018-04-01', relationship: 'child' }),
    );
    childId = ((await child.json()) as { insertedId: string }).insertedId;
  });

  const routes: DateRoute[] = [
    { name: 'GET /appointmentOptions', send: (d) => call(`/api/appointmentOptions?date=${encodeURIComponent(d)}`) },
    {
      name: 'GET /appointmentOptions/family',
      send: (d) =>
        call(
          `/api/appointmentOptions/family?date=${encodeURIComponent(d)}&arrangement=together&members=${encodeURIComponent(`me:${linkless.name},${childId}:${linkless.name}`)}`,
          {
            headers: patient.auth,
          },
        ),
    },
    {
      name: 'POST /bookings',
      send: (d) =>
        call(
          '/api/bookings',
          json('POST', patient.auth, {
            treatment: linkless.name,
            appointmentDate: d,
            slot: '09.00 AM - 09.30 AM',
            phone: '555',
          }),
        ),
    },
    {
      name: 'POST /bookings/:id/reschedule',
      send: (d) =>
        call(
          `/api/bookings/${bookingId}/reschedule`,
          json('POST', admin, { appointmentDate: d, slot: '09.00 AM - 09.30 AM' }),
        ),
    },
    {
      name: 'POST /phone-bookings',
      send: (d) =>
        call(
          '/api/phone-bookings',
          json('POST', admin, {
            patient: { name: 'Date Caller' },
            phone: '555 0100',
            treatment: linkless.name,
            appointmentDate: d,
            slot: '09.00 AM - 09.30 AM',
          }),
        ),
    },
    {
      name: 'POST /bookings/family',
      send: (d) =>
        call(
          '/api/bookings/family',
          json('POST', patient.auth, {
            appointmentDate: d,
            slot: '09.00 AM - 09.30 AM',
            arrangement: 'together',
            members: [{ treatment: linkless.name }, { patientId: childId, treatment: linkless.name }],
          }),
        ),
    },
    {
      name: 'GET /schedule?date=',
      send: (d) => call(`/api/schedule?date=${encodeURIComponent(d)}`, { headers: admin }),
    },
    {
      name: 'GET /schedule?from=&to=',
      send: (d, o) =>
        call(`/api/schedule?from=${encodeURIComponent(d)}&to=${encodeURIComponent(o)}`, { headers: admin }),
    },
    {
      name: 'GET /schedule.csv',
      send: (d, o) =>
        call(`/api/schedule.csv?from=${encodeURIComponent(d)}&to=${encodeURIComponent(o)}`, { headers: admin }),
    },
    {
      name: 'GET /insights',
      send: (d, o) =>
        call(`/api/insights?from=${encodeURIComponent(d)}&to=${encodeURIComponent(o)}`, { headers: admin }),
    },
    {
      name: 'POST /closures',
      send: (d, o) => call('/api/closures', json('POST', admin, { from: d, to: o, reason: 'Dates', force: true })),
    },
    {
      name: 'POST /waitlist',
      send: (d, o) => call('/api/waitlist', json('POST', patient.auth, { treatment: linkless.name, from: d, to: o })),
    },
    {
      name: 'POST /recalls',
      send: (d) =>
        call('/api/recalls', json('POST', admin, { patientId: patient.id, treatmentId: linkless._id, dueDate: d })),
    },
    {
      name: 'POST /recalls/import',
      send: (d) =>
        call(
          '/api/recalls/import',
          json('POST', admin, { csv: `email,treatment,dueDate\n${patient.email},${linkless.name},${d}` }),
        ),
    },
    {
      name: 'POST /users/me/dependants',
      send: (d) =>
        call(
          '/api/users/me/dependants',
          json('POST', patient.auth, { name: 'Date Child', birthDate: d, relationship: 'child' }),
        ),
    },
  ];

  it(`answers random dates of any year without a 5xx, each within a second (seed ${SEED})`, async () => {
    for (const route of routes) {
      await fc.assert(
        fc.asyncProperty(dateString, dateString, async (date, other) => {
          const started = performance.now();
          const response = await route.send(date, other);
          const took = performance.now() - started;
          await response.body?.cancel();
          expect(response.status, `${route.name} ${date} ${other}`).toBeLessThan(500);
          expect(took, `${route.name} ${date} ${other}`).toBeLessThan(1000);
        }),
        {
          seed: SEED,
          numRuns: RUNS,
          examples: [
            ['9999-12-31', '9999-12-31'],
            ['0000-01-01', '9999-12-31'],
          ],
        },
      );
    }
  }, 300_000);

  it('refuses a year outside 2000–2100 with a 400 that says the range', async () => {
    for (const [path, field] of [
      ['/api/insights?from=9999-12-31&to=9999-12-31', 'from'],
      ['/api/schedule?from=9999-12-25&to=9999-12-31', 'from'],
      ['/api/schedule?date=1999-12-31', 'date'],
      ['/api/appointmentOptions?date=Dec%2031%2C%202101', 'date'],
    ] as const) {
      const response = await call(path, { headers: admin });
      expect(response.status, path).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain(field);
    }
    const insights = await call('/api/insights?from=9999-12-31&to=9999-12-31', { headers: admin });
    expect(await insights.json()).toMatchObject({
      message: 'from must be a date from 2000 to 2100; to must be a date from 2000 to 2100',
    });
  });

  it('takes a date of birth from 1900, and a range up to its limit whatever the year', async () => {
    const child = await call(
      '/api/users/me/dependants',
      json('POST', patient.auth, { name: 'Elder Parent', birthDate: '1931-05-02', relationship: 'parent' }),
    );
    expect(child.status).toBe(201);
    const range = await call('/api/schedule?from=2100-10-01&to=2100-12-31', { headers: admin });
    expect(range.status).toBe(200);
    expect(((await range.json()) as unknown[]).length).toBe(92);
  });
});
