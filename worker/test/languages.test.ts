import { env } from 'cloudflare:test';
import { parse, type Token } from '@messageformat/parser';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LANGUAGES, pickLanguage } from '../../contract/languages.ts';
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
} from './helpers.ts';

// Issue 48: a patient's mails, texts and calendar files come in the language of their account (the
// account holder's, for a family member's visit), taken from the first sign-in's Accept-Language and
// changed with PUT /api/users/me/language.

const box = mailbox();
const MAIL = { MAILER: box.mailer };

beforeAll(seed);
afterEach(() => vi.useRealTimers());

/** The argument names a message uses (`{name}`, `{count, plural, …}`), found by the ICU parser. */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  const walk = (tokens: readonly Token[]) => {
    for (const token of tokens) {
      if (token.type === 'argument' || token.type === 'function') names.add(token.arg);
      if (token.type === 'plural' || token.type === 'select') {
        names.add(token.arg);
        for (const c of token.cases) walk(c.tokens);
      }
    }
  };
  walk(parse(message));
  return [...names].sort();
}

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

  it('existing accounts stay in English (migration 0026)', async () => {
    expect(
      await env.DB.prepare("SELECT language FROM users WHERE email = 'patient@clinic.test'").first('language'),
    ).toBe('en');
  });
});

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

    await payWithDemo(id, patient.auth, undefined, MAIL);
    expect(box.to(patient.email).map((mail) => plain(mail.subject))).toContain('Recibo: 80,00 US$ por Teeth Cleaning');

    // The evening before: the reminder, by mail and by text.
    const booking = await (await call(`/api/bookings/${id}`, { headers: patient.auth })).json<{ startsAt: string }>();
    await runCron(Date.parse(booking.startsAt) - 24 * 3600_000, MAIL);
    const reminder = box.to(patient.email).find((mail) => mail.subject.startsWith('Recordatorio'));
    expect(reminder?.subject).toMatch(/^Recordatorio: Teeth Cleaning mañana, \d{1,2} \p{L}+, 10:00$/u);
    expect(reminder?.text).toContain('Iré: ');

    expect((await sendJson('DELETE', `/api/bookings/${id}`, patient.auth, undefined, MAIL)).status).toBe(200);
    const subjects = box.to(patient.email).map((mail) => plain(mail.subject));
    expect(subjects).toContainEqual(expect.stringMatching(/^Cancelada: Teeth Cleaning el /));
    expect(subjects).toContain('Reembolsado: 80,00 US$ por Teeth Cleaning');
    const refund = box.to(patient.email).find((mail) => mail.subject.startsWith('Reembolsado'));
    expect(plain(refund?.text)).toContain(
      'Reembolsamos 80,00 US$ por su cita de Teeth Cleaning a la tarjeta con la que pagó (Visa terminada en 4242).',
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
