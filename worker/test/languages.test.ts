import { env } from 'cloudflare:test';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LANGUAGES, pickLanguage } from '../../contract/languages.ts';
import { argumentsOf } from '../../scripts/icu-arguments.ts';
import { messageSettings } from '../src/clinic/data/message-settings.ts';
import type { MailData, MailKind } from '../src/messages/data/outbox.ts';
import type { MessageLinks } from '../src/messages/mail-compose.ts';
import { renderMail, renderSms } from '../src/messages/mail-templates.ts';
import { CATALOGS } from '../src/platform/words.ts';
import {
  accessTokenFor,
  bearer,
  call,
  clinicDay,
  emulatorIdToken,
  mailbox,
  payWithDemo,
  pinClock,
  runCron,
  seed,
  sendJson,
  textToClinic,
} from './helpers.ts';

// Issue 48: a patient's mails, texts and calendar files come in the language of their account (the
// account holder's, for a family member's visit), taken from the first sign-in's Accept-Language and
// changed with PUT /api/users/me/language.

const box = mailbox();
const MAIL = { MAILER: box.mailer };

beforeAll(seed);
afterEach(() => vi.useRealTimers());

describe('the catalogs', () => {
  it('have every English message in every language, with the same placeholders, and parse as ICU', () => {
    const english = CATALOGS.en;
    for (const language of LANGUAGES) {
      const catalog = CATALOGS[language];
      expect(Object.keys(catalog).sort(), language).toEqual(Object.keys(english).sort());
      for (const [key, message] of Object.entries(english)) {
        const translated = catalog[key as keyof typeof english];
        expect(translated.trim(), `${language} ${key}`).not.toBe('');
        expect(argumentsOf(translated), `${language} ${key}`).toEqual(argumentsOf(message));
      }
    }
  });
});

/** Every kind of message, in each of its shapes: a visit's, a fee's, a recall's, a waitlist offer's. */
function everyMessage(language: string): { name: string; kind: MailKind; data: MailData; links: MessageLinks }[] {
  const hold = new Date(Date.now() + 86_400_000).toISOString();
  const visit: MailData = {
    bookingId: 'b-1',
    treatment: 'Teeth Cleaning',
    date: clinicDay(3),
    startMinute: 600,
    durationMinutes: 30,
    patientName: 'Lucia',
    doctor: 'Dr. Sofia Alvarez',
    priceCents: 8000,
    paid: 0,
    holdUntil: hold,
    cancelReason: null,
    phone: '+1 555 0100',
    language,
  };
  const links = { confirm: 'https://x/c', callback: 'https://x/r', cancel: 'https://x/x', forms: 'https://x/f' };
  const paid = {
    ...visit,
    paid: 1,
    amountCents: 8000,
    currency: 'usd',
    transactionId: 'tx-1',
    card: 'Visa ending 4242',
  };
  const fee = { ...paid, feeId: 'f-1', feeKind: 'no_show' as const, amountCents: 5000 };
  const recall = { ...visit, recallId: 'r-1', dueDate: clinicDay(20), step: 0, accountName: 'Lucia' };
  const shapes: [string, MailKind, Partial<MailData> & Record<string, unknown>, MessageLinks?][] = [
    ['confirmation, unpaid, with forms', 'confirmation', { formsToFill: 2 }, links],
    ['confirmation of a dependant’s visit', 'confirmation', { paid: 1, guardianName: 'Ana' }],
    ['reschedule', 'reschedule', { from: { date: clinicDay(2), startMinute: 540 } }],
    ['cancellation by the patient, paid, with a reason', 'cancellation', { ...paid, by: 'patient', reason: 'Ill' }],
    ['cancellation by the clinic', 'cancellation', { by: 'admin' }],
    ['release of an unpaid visit', 'cancellation', { by: 'unpaid' }],
    ['receipt', 'receipt', paid],
    ['refund to a card', 'refund', paid],
    ['refund at the desk', 'refund', { ...paid, atDesk: 1, card: null }],
    ['pay soon', 'pay_soon', { depositCents: 2000 }],
    ['reminder the day before', 'reminder', { reminder: '24h', formsToFill: 1 }, links],
    ['reminder 2 hours before', 'reminder', { reminder: '2h' }],
    ['a changed schedule, with a phone', 'stranded', {}],
    ['a changed schedule, without a phone', 'stranded', { phone: null }],
    ['offer withdrawn', 'offer_withdrawn', {}],
    ['offer', 'offer', { offerId: 'o-1', expiresAt: hold }],
    ['fee charged', 'fee', { ...fee, feeStatus: 'charged' }],
    ['fee not charged', 'fee', { ...fee, feeStatus: 'unpaid', failure: 'Your card was declined' }],
    ['fee paid', 'fee', { ...fee, feeStatus: 'paid' }],
    ['fee waived and refunded', 'fee', { ...fee, feeStatus: 'waived', refunded: 1 }],
    ['fee waived', 'fee', { ...fee, feeStatus: 'waived' }],
    ['recall', 'recall', recall, { book: 'https://x/b' }],
    ['a dependant’s late recall', 'recall', { ...recall, step: 30, patientName: 'Leo', accountName: 'Lucia' }],
    ['an invitation to a family member’s own account', 'record_invite', { accountId: 'a-1' }],
  ];
  return shapes.map(([name, kind, data, extra]) => ({
    name,
    kind,
    data: { ...visit, ...data, language } as MailData,
    links: extra ?? {},
  }));
}

describe('every message a patient gets', () => {
  it('is in their language: no line of the English message is left in the Spanish or French one', async () => {
    const settings = await messageSettings(env.DB);
    const now = new Date();
    // What is the same in every language: the clinic's name, address and phone under the signature.
    const common = ['', '--', settings.clinic_name, settings.clinic_address, settings.clinic_phone];
    const english = everyMessage('en');
    for (const language of ['es', 'fr']) {
      for (const [i, message] of everyMessage(language).entries()) {
        const theirs = renderMail(env, message.kind, message.data, settings, now, message.links);
        const ours = english[i];
        if (!ours) throw new Error('the lists differ');
        const inEnglish = renderMail(env, ours.kind, ours.data, settings, now, ours.links);
        const what = `${language}: ${message.name}`;
        expect(theirs.subject, what).not.toBe(inEnglish.subject);
        const englishLines = new Set(inEnglish.text.split('\n'));
        expect(
          theirs.text.split('\n').filter((line) => englishLines.has(line) && !common.includes(line)),
          what,
        ).toEqual([]);
        expect(theirs.html, what).toContain(`<html lang="${language}">`);
        const text = renderSms(env, message.kind, message.data, settings, message.links);
        expect(text, `${what}, by text`).not.toBe(renderSms(env, ours.kind, ours.data, settings, ours.links));
      }
    }
  });
});

describe('pickLanguage', () => {
  it('takes the best supported language of an Accept-Language header, by quality, else English', () => {
    expect(pickLanguage('es-MX,es;q=0.9,en;q=0.8')).toBe('es');
    expect(pickLanguage('de-DE,fr;q=0.7,es;q=0.5')).toBe('fr');
    expect(pickLanguage('en;q=0.2, es;q=0.8')).toBe('es');
    expect(pickLanguage('es;q=0, fr;q=0.1')).toBe('fr');
    expect(pickLanguage('de, it')).toBe('en');
    expect(pickLanguage('')).toBe('en');
    expect(pickLanguage(null)).toBe('en');
  });
});

/** A new account signed up as the PWA does (POST /api/users) from a browser that asks for `acceptLanguage`. */
async function signUp(name: string, acceptLanguage: string) {
  const email = `${name.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const response = await call('/api/users', {
    method: 'POST',
    headers: {
      ...bearer(emulatorIdToken({ email, name })),
      'Content-Type': 'application/json',
      'Accept-Language': acceptLanguage,
    },
    body: JSON.stringify({ name, email }),
  });
  expect(response.status).toBe(201);
  return { email, auth: bearer(await accessTokenFor(email)) };
}

describe('the account’s language', () => {
  it('comes from the sign-up’s Accept-Language, and the patient changes it; anything else is refused', async () => {
    const spanish = await signUp('Lucia', 'es-MX,es;q=0.9,en;q=0.8');
    const languageOf = async (auth: Record<string, string>) =>
      (await call('/api/users/me/language', { headers: auth })).json<{ language: string }>();
    expect(await languageOf(spanish.auth)).toEqual({ language: 'es' });
    expect(await languageOf((await signUp('Dieter', 'de-DE')).auth)).toEqual({ language: 'en' });

    const changed = await sendJson('PUT', '/api/users/me/language', spanish.auth, { language: 'fr' });
    expect(changed.status).toBe(200);
    expect(await changed.json()).toEqual({ language: 'fr' });
    expect(await languageOf(spanish.auth)).toEqual({ language: 'fr' });

    for (const body of [{ language: 'de' }, { language: 1 }, {}, { language: 'es', extra: true }]) {
      const refused = await sendJson('PUT', '/api/users/me/language', spanish.auth, body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    expect(await languageOf(spanish.auth)).toEqual({ language: 'fr' });
    expect((await sendJson('PUT', '/api/users/me/language', {}, { language: 'es' })).status).toBe(401);
  });

  it('the front desk sets it for a new patient booked by phone, whose mails then come in it', async () => {
    const admin = bearer(await accessTokenFor('admin@clinic.test'));
    const email = `telefono-${crypto.randomUUID().slice(0, 8)}@example.com`;
    const booking = (language: unknown) => ({
      patient: { name: 'Rosa Telefono', email, language },
      phone: '+1 555 0199',
      treatment: 'Teeth Cleaning',
      appointmentDate: clinicDay(7),
      slot: '02.00 PM - 02.30 PM',
    });
    expect((await sendJson('POST', '/api/phone-bookings', admin, booking('de'), MAIL)).status).toBe(400);
    const booked = await sendJson('POST', '/api/phone-bookings', admin, booking('es'), MAIL);
    expect(booked.status, await booked.clone().text()).toBe(201);
    expect(await env.DB.prepare('SELECT language FROM users WHERE email = ?1').bind(email).first('language')).toBe(
      'es',
    );
    expect(box.to(email).map((mail) => mail.subject)).toEqual([
      expect.stringMatching(/^Reservada: Teeth Cleaning el /),
    ]);
  });

  it('existing accounts stay in English (migration 0026)', async () => {
    expect(
      await env.DB.prepare("SELECT language FROM users WHERE email = 'patient@clinic.test'").first('language'),
    ).toBe('en');
  });
});

/** The clinic's answer to a text from `phone` (the TwiML's message), through the signed webhook. */
async function replyTo(phone: string, text: string): Promise<string> {
  const response = await textToClinic({ From: phone, Body: text });
  expect(response.status).toBe(200);
  const xml = await response.text();
  return (/<Message>([^<]*)<\/Message>/.exec(xml)?.[1] ?? xml).replace(/&#39;/g, "'").replace(/&amp;/g, '&');
}

/** Text with its no-break spaces as plain ones (Intl keeps "80,00 US$" together with one). */
const plain = (text: unknown) => String(text).replace(/\s/g, ' ');

describe('a Spanish-speaking patient’s visit, from booking to refund', () => {
  it('is confirmed, paid, reminded, cancelled and refunded in Spanish, by mail, text and calendar file', async () => {
    // Tomorrow morning on the clinic's clock (texts go out from 8:00 to 21:00); the visit two days on.
    pinClock(`${clinicDay(1)}T14:00:00.000Z`);
    const patient = await signUp('Lucia', 'es-ES,es;q=0.9');
    const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`;
    expect((await sendJson('PUT', '/api/users/me/sms', patient.auth, { phone, smsConsent: true }, MAIL)).status).toBe(
      200,
    );
    const booked = await sendJson(
      'POST',
      '/api/bookings',
      patient.auth,
      { treatment: 'Teeth Cleaning', appointmentDate: clinicDay(3), slot: '10.00 AM - 10.30 AM' },
      MAIL,
    );
    expect(booked.status, await booked.clone().text()).toBe(201);
    const { insertedId: id } = await booked.json<{ insertedId: string }>();

    const [confirmation] = box.to(patient.email);
    expect(confirmation?.subject).toMatch(/^Reservada: Teeth Cleaning el \d{1,2} \p{L}+, 10:00$/u);
    expect(confirmation?.text).toContain('Estimado/a Lucia:');
    expect(confirmation?.text).toContain('Su cita en Smile Dental Clinic está reservada.');
    expect(confirmation?.text).toMatch(/Cuándo: \p{L}+, \d{1,2} de \p{L}+ de \d{4}, 10:00 /u);
    expect(confirmation?.text).toContain('Duración: 30 minutos');
    expect(plain(confirmation?.text)).toMatch(/Pague 80,00 US\$ antes del \p{L}+, \d{1,2} de \p{L}+ de \d{4}, 9:00 /u);
    expect(confirmation?.html).toContain('<html lang="es">');
    const ics = String(confirmation?.attachments?.[0]?.content);
    expect(ics).toContain('SUMMARY;LANGUAGE=es:Teeth Cleaning en Smile Dental Clinic');
    expect(ics).toMatch(/DESCRIPTION;LANGUAGE=es:Teeth Cleaning\\, \d{1,2} \p{L}+ \d{4}\\, 10:00 - 10:30/u);
    expect(ics).toContain('Paciente: Lucia.');
    // As the file My Appointments downloads.
    const downloaded = await call(`/api/bookings/${id}/calendar.ics`, { headers: patient.auth });
    expect(await downloaded.text()).toContain('SUMMARY;LANGUAGE=es:Teeth Cleaning en Smile Dental Clinic');

    await payWithDemo(id, patient.auth, undefined, MAIL);
    expect(box.to(patient.email).map((mail) => plain(mail.subject))).toContain('Recibo: 80,00 US$ por Teeth Cleaning');

    // The evening before: the reminder, by mail and by text.
    const booking = await (await call(`/api/bookings/${id}`, { headers: patient.auth })).json<{ startsAt: string }>();
    await runCron(Date.parse(booking.startsAt) - 24 * 3600_000, MAIL);
    const reminder = box.to(patient.email).find((mail) => mail.subject.startsWith('Recordatorio'));
    expect(reminder?.subject).toMatch(/^Recordatorio: Teeth Cleaning mañana, \d{1,2} \p{L}+, 10:00$/u);
    expect(reminder?.text).toContain('Iré: ');
    // Her replies to the reminder's text are answered in Spanish too.
    expect(await replyTo(phone, 'hola')).toContain('responda C para confirmar su visita, R para que le llamemos');
    expect(await replyTo(phone, 'C')).toBe('Smile Dental Clinic: Gracias: la clínica sabe que vendrá.');

    expect((await sendJson('DELETE', `/api/bookings/${id}`, patient.auth, undefined, MAIL)).status).toBe(200);
    const subjects = box.to(patient.email).map((mail) => plain(mail.subject));
    expect(subjects).toContainEqual(expect.stringMatching(/^Cancelada: Teeth Cleaning el /));
    expect(subjects).toContain('Reembolsado: 80,00 US$ por Teeth Cleaning');
    const refund = box.to(patient.email).find((mail) => mail.subject.startsWith('Reembolsado'));
    expect(plain(refund?.text)).toContain(
      'Reembolsamos 80,00 US$ por su cita de Teeth Cleaning a la tarjeta con la que pagó (Visa terminada en 4242).',
    );
    // Her calendar feed, subscribed once, speaks Spanish too.
    const feed = await sendJson('POST', '/api/feeds', patient.auth, {});
    expect(feed.status).toBe(201);
    const { url } = await feed.json<{ url: string }>();
    expect(await (await call(new URL(url).pathname)).text()).toContain(
      'SUMMARY;LANGUAGE=es:Cita en Smile Dental Clinic',
    );

    const cancelled = box.to(patient.email).find((mail) => mail.subject.startsWith('Cancelada'));
    expect(String(cancelled?.attachments?.[0]?.content)).toContain('METHOD:CANCEL');

    const { results } = await env.DB.prepare(
      "SELECT body FROM sms_log WHERE direction = 'out' AND phone = ?1 ORDER BY id",
    )
      .bind(phone)
      .all<{ body: string }>();
    const texts = results.map((row) => plain(row.body));
    expect(texts).toContainEqual(
      expect.stringMatching(/^Smile Dental Clinic: recordatorio de su visita el \d{1,2} \p{L}+, 10:00\. Responda C/u),
    );
    expect(texts).toContain(
      'Smile Dental Clinic: reembolsamos 80,00 US$ a Visa terminada en 4242; los bancos lo muestran en 5 a 10 días hábiles. Responda STOP para no recibir más.',
    );
  });

  it('a family member’s visit is mailed in the account holder’s language', async () => {
    const parent = await signUp('Amelie', 'fr-CA,fr;q=0.9');
    const added = await sendJson('POST', '/api/users/me/dependants', parent.auth, {
      name: 'Leo',
      birthDate: '2018-04-02',
      relationship: 'child',
    });
    expect(added.status, await added.clone().text()).toBe(201);
    const { insertedId: childId } = await added.json<{ insertedId: string }>();
    // The child's own record takes the account's language (for the invitation to an account of their own).
    expect(await env.DB.prepare('SELECT language FROM users WHERE id = ?1').bind(childId).first('language')).toBe('fr');
    const booked = await sendJson(
      'POST',
      '/api/bookings',
      parent.auth,
      { treatment: 'Teeth Cleaning', appointmentDate: clinicDay(5), slot: '11.00 AM - 11.30 AM', patientId: childId },
      MAIL,
    );
    expect(booked.status, await booked.clone().text()).toBe(201);
    const [mail] = box.to(parent.email);
    expect(mail?.subject).toMatch(/^Réservé : Teeth Cleaning le /);
    expect(mail?.text).toContain('Bonjour Amelie,');
    expect(mail?.text).toContain('Pour: Leo');
  });
});

describe('the pages, in the reader’s language', () => {
  const page = (path: string, headers: Record<string, string>) => call(path, { headers });

  it('serves the landing page and each frame prerendered in the browser’s language, its <html lang> saying so', async () => {
    for (const [path, spanish, french] of [
      ['/', '<h1 id="hero-title">Su nueva sonrisa empieza aquí</h1>', 'Votre nouveau sourire commence ici'],
      ['/book', '<h1 id="book-title">Reserve una visita</h1>', 'Réservez une visite'],
      ['/login', '<h1 id="login-title">Iniciar sesión</h1>', 'Connexion'],
      ['/dashboard', 'Mis citas', 'Mes rendez-vous'],
    ] as const) {
      const es = await page(path, { 'Accept-Language': 'es-MX,es;q=0.9,en;q=0.5' });
      expect(es.status, path).toBe(200);
      const html = await es.text();
      expect(html, path).toMatch(/^<!doctype html>\s*<html lang="es"/i);
      expect(html, path).toContain(spanish);
      // The clinic's own details are written in, as into the English page.
      expect(html, path).toContain('<script id="clinic-info" type="application/json">');
      // A cache keeps one copy per language.
      expect(es.headers.get('Vary'), path).toMatch(/Accept-Language/);
      expect(await (await page(path, { 'Accept-Language': 'fr-CA' })).text(), path).toContain(french);
      // English for any language the clinic does not have, and with none asked.
      const other = await (await page(path, { 'Accept-Language': 'de-DE,de' })).text();
      expect(other, path).toMatch(/<html lang="en"/);
      expect(other, path).not.toContain(spanish);
    }
  });

  it('keeps the language chosen on the device (its cookie) over the browser’s, on every kind of page', async () => {
    const chosen = { 'Accept-Language': 'en-US', Cookie: 'other=1; clinic_language=es' };
    expect(await (await page('/', chosen)).text()).toContain('Su nueva sonrisa empieza aquí');
    // The app shell of every other page says its language, which the app renders it in.
    const shell = await (await page('/dashboard/all-users', chosen)).text();
    expect(shell).toMatch(/<html lang="es"/);
    // A cookie naming no language of the clinic's changes nothing.
    const unknown = await (await page('/', { 'Accept-Language': 'fr', Cookie: 'clinic_language=xx' })).text();
    expect(unknown).toContain('Votre nouveau sourire commence ici');
  });
});
