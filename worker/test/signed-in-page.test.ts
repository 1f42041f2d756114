import { format } from 'date-fns/format';
import { parseISO } from 'date-fns/parseISO';
import { SignJWT } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookAs, call, clinicDay, newPatient, optionsOn, seed } from './helpers.ts';

// My Appointments, the payment page and the booking page, rendered by the Worker with the patient's data when the
// navigation carries the session cookie (worker/src/signed-in-page.ts): the page the browser paints first
// already shows the bookings, or the day's free times.

const cookie = (token: string) => ({ Cookie: `theme=dark; clinic_session=${token}` });
const tokenOf = (auth: Record<string, string>) => (auth.Authorization ?? '').replace('Bearer ', '');
const rootOf = (html: string) => html.slice(html.indexOf('<div id="root"'), html.indexOf('</main>'));
const firstAnswersOf = (html: string) =>
  JSON.parse(/<script id="first-answers" type="application\/json">(.*?)<\/script>/s.exec(html)?.[1] ?? 'null');

let patient: Awaited<ReturnType<typeof newPatient>>;
let other: Awaited<ReturnType<typeof newPatient>>;
const day = clinicDay(9);

beforeAll(async () => {
  await seed();
  patient = await newPatient('rendered');
  other = await newPatient('someone-else');
  const [cleaning, checkup] = (await optionsOn(day)).filter((option) => option.slots.length > 0);
  if (!cleaning || !checkup) throw new Error(`no free treatments on ${day}`);
  const [slot] = cleaning.slots;
  const otherSlot = checkup.slots.at(-1);
  if (!slot || !otherSlot) throw new Error('no slot');
  expect((await bookAs(patient.auth, { treatment: cleaning.name, appointmentDate: day, slot })).status).toBe(201);
  expect((await bookAs(other.auth, { treatment: checkup.name, appointmentDate: day, slot: otherSlot })).status).toBe(
    201,
  );
});

describe('My Appointments rendered with the patient’s data', () => {
  it('lists the patient’s bookings in the served page, and carries them for the app’s first render', async () => {
    const response = await call('/dashboard', { headers: cookie(tokenOf(patient.auth)) });
    expect(response.status).toBe(200);
    expect(response.headers.get('Content-Type')).toContain('text/html');
    // One patient's page: no cache keeps it, and it differs by cookie.
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
    expect(response.headers.get('Vary')).toContain('Cookie');
    const html = await response.text();
    const root = rootOf(html);
    // Hydrated by the app (no frame to render over), inert until then.
    expect(root).toContain('<div id="root" inert>');
    // Only the page's own data: nobody else's booking.
    const first = firstAnswersOf(html);
    expect(first.email).toBe(patient.email);
    const bookings = first.answers[`/bookings?email=${encodeURIComponent(patient.email)}`];
    expect(bookings).toHaveLength(1);
    expect(bookings[0].email).toBe(patient.email);
    expect(html).not.toContain(other.email);
    // The list as the page shows it, not its spinner.
    expect(root).toContain('<caption class="visually-hidden">My appointments</caption>');
    expect(root).toContain(`<strong>${bookings[0].treatment}</strong><span>${bookings[0].appointmentDate}</span>`);
    expect(root).toContain(`href="/dashboard/payment/${bookings[0]._id}"`);
    expect(root).not.toContain('Loading your appointments');
    // The clinic's details, as on every page.
    expect(html).toContain('<script id="clinic-info" type="application/json">');
  });

  it('renders the payment page with the booking for its owner, and only for them', async () => {
    const [booking] = firstAnswersOf(
      await (await call('/dashboard', { headers: cookie(tokenOf(patient.auth)) })).text(),
    ).answers[`/bookings?email=${encodeURIComponent(patient.email)}`];
    const own = await (
      await call(`/dashboard/payment/${booking._id}`, { headers: cookie(tokenOf(patient.auth)) })
    ).text();
    expect(rootOf(own)).toContain(`for your appointment on ${booking.appointmentDate} at ${booking.slot}</p>`);
    expect(firstAnswersOf(own).answers[`/bookings/${booking._id}`]._id).toBe(booking._id);
    // The card form paints with the page, its Pay button off until the payment is prepared (the provider is known).
    expect(firstAnswersOf(own).answers['/payments/provider']).toEqual({ provider: 'demo', publishableKey: null });
    expect(rootOf(own)).toContain('Demo payments: no card is charged.');
    expect(rootOf(own)).toMatch(/<label for="[^"]+">Card number<\/label>/);
    expect(rootOf(own)).toMatch(/<button type="submit" class="[^"]*" disabled="">Pay \$/);
    // The dashboard's menu comes whole too: the patient is no admin.
    expect(firstAnswersOf(own).answers[`/users/admin/${encodeURIComponent(patient.email)}`]).toEqual({
      isAdmin: false,
    });
    // Another patient's booking (the API answers 403), an unknown one, a malformed address: the plain frame.
    for (const path of [
      `/dashboard/payment/${booking._id}`,
      '/dashboard/payment/no-such-booking',
      '/dashboard/payment/%E0%A4%A',
    ]) {
      const response = await call(path, { headers: cookie(tokenOf(other.auth)) });
      expect(response.status, path).toBe(200);
      const html = await response.text();
      expect(html, path).not.toContain('id="first-answers"');
      expect(html, path).not.toContain('for your appointment on');
    }
  });

  it('serves the plain frame without a cookie, or with one that is no live session', async () => {
    const { email } = patient;
    const forged = await new SignJWT({ email, role: 'patient', verified: true, ver: 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject('someone')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('not-the-secret-of-this-worker-at-all-xx'));
    for (const headers of [{}, cookie(''), cookie('garbage'), cookie(forged), { Cookie: 'clinic_session' }]) {
      const response = await call('/dashboard', { headers });
      expect(response.status, JSON.stringify(headers)).toBe(200);
      expect(response.headers.get('Cache-Control')).not.toBe('private, no-store');
      const html = await response.text();
      expect(rootOf(html)).toContain('Loading your appointments');
      expect(html).not.toContain('id="first-answers"');
    }
  });

  it('ends with the session: after sign-out the cookie renders nothing', async () => {
    const session = await newPatient('signing-out');
    const token = tokenOf(session.auth);
    expect(await (await call('/dashboard', { headers: cookie(token) })).text()).toContain('id="first-answers"');
    expect((await call('/api/sessions/revoke', { method: 'POST', headers: session.auth })).status).toBe(200);
    const after = await (await call('/dashboard', { headers: cookie(token) })).text();
    expect(after).not.toContain('id="first-answers"');
    expect(rootOf(after)).toContain('Loading your appointments');
  });

  it('is never a session for the API, nor for a page without the patient’s data', async () => {
    const token = tokenOf(patient.auth);
    const list = await call(`/api/bookings?email=${encodeURIComponent(patient.email)}`, { headers: cookie(token) });
    expect(list.status).toBe(401);
    for (const path of ['/dashboard/all-users', '/', `/appointment?date=${day}`, '/appointment?family']) {
      const html = await (await call(path, { headers: cookie(token) })).text();
      expect(html, path).not.toContain('id="first-answers"');
    }
  });
});

describe('the booking page rendered for the patient', () => {
  it('shows every treatment with the clinic’s today’s free times, and carries the patient’s waitlist and family', async () => {
    const today = clinicDay(0);
    const options = await optionsOn(today);
    const response = await call('/appointment', { headers: cookie(tokenOf(patient.auth)) });
    expect(response.status).toBe(200);
    expect(response.headers.get('Cache-Control')).toBe('private, no-store');
    const html = await response.text();
    const root = rootOf(html);
    expect(root).toContain('<div id="root" inert>');
    const { email, answers } = firstAnswersOf(html);
    expect(email).toBe(patient.email);
    // The day as the page asks for it ("2026-11-27"), the clinic's today.
    const optionsPath = `/appointmentOptions?date=${today}`;
    expect(Object.keys(answers)[0]).toBe(optionsPath);
    expect(answers[optionsPath]).toEqual(options);
    expect(answers['/waitlist']).toEqual([]);
    expect(answers['/users/me/dependants']).toEqual([]);
    expect(options.length).toBeGreaterThan(0);
    for (const option of options) {
      expect(root).toContain(
        `>${option.name}</h3><p class="treatment-card__slot">${option.slots[0] ?? 'Try another day'}</p>`,
      );
    }
    expect(root).not.toContain('Loading appointments');
    // Rendered for this visit, so for its day: the calendar's month with today chosen, and the day named.
    expect(root).toContain(`Today, ${format(parseISO(today), 'EEEE, MMMM d, yyyy')}, selected`);
    expect(root).toContain(`Available Appointments on ${format(parseISO(today), 'PP')}`);
  });

  it('is the frame for a link that names a day, and for nobody signed in', async () => {
    for (const [path, headers] of [
      [`/appointment?date=${day}`, cookie(tokenOf(patient.auth))],
      ['/appointment', {}],
    ] as const) {
      const html = await (await call(path, { headers })).text();
      expect(html, path).not.toContain('id="first-answers"');
      expect(rootOf(html), path).toContain('Loading appointments');
    }
  });
});
