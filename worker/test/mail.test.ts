import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_MAIL_ATTEMPTS, retryAt } from '../src/messages/mail-outbox.ts';
import {
  accessTokenFor,
  bearer,
  bookAs,
  call,
  clinicDay,
  mailbox,
  newPatient,
  postJson,
  runCron,
  seed,
} from './helpers.ts';

beforeAll(seed);

const box = mailbox();
const MAIL = { MAILER: box.mailer };

async function book(patient: { auth: Record<string, string> }, treatment: string, days: number, slot: string) {
  const response = await bookAs(patient.auth, { treatment, appointmentDate: clinicDay(days), slot }, MAIL);
  expect(response.status, await response.clone().text()).toBe(201);
  return (await response.json<{ insertedId: string }>()).insertedId;
}

/** The booking's mails in the outbox; its pay-soon mail only when asked (it waits for the hold's last hours). */
const outboxOf = (bookingId: string, paySoon = false) =>
  env.DB.prepare(
    `SELECT kind, status, attempts, next_attempt_at, last_error FROM outbox
     WHERE booking_id = ?1 AND (?2 OR kind != 'pay_soon') ORDER BY created_at`,
  )
    .bind(bookingId, paySoon ? 1 : 0)
    .all<{ kind: string; status: string; attempts: number; next_attempt_at: string; last_error: string | null }>()
    .then((r) => r.results);

describe('the booking confirmation', () => {
  it('is mailed right after booking: plain text and HTML, the clinic, the time on its clock, the calendar file', async () => {
    const patient = await newPatient('confirm');
    const id = await book(patient, 'teeth-cleaning', 3, '10.00 AM - 10.30 AM');
    const [mail, ...more] = box.to(patient.email);
    expect(more).toHaveLength(0);
    expect(mail?.from).toEqual({ name: 'Smile Dental Clinic', email: env.MAIL_FROM });
    expect(mail?.subject).toMatch(/^Booked: Teeth Cleaning on \w{3} \d{1,2} at 10:00 AM$/);
    expect(mail?.text).toMatch(/When: \w+day, \w+ \d{1,2}, \d{4} at 10:00 AM Eastern (Standard|Daylight) Time/);
    expect(mail?.text).toContain('1200 Harbor Street, Brooklyn, NY 11201');
    expect(mail?.text).toContain('Please pay $');
    expect(mail?.html).toContain(
      '<th style="text-align: left; padding: 2px 12px 2px 0">Treatment</th><td>Teeth Cleaning</td>',
    );
    const [ics] = mail?.attachments ?? [];
    expect(ics).toMatchObject({
      disposition: 'attachment',
      type: 'text/calendar',
      filename: `appointment-${clinicDay(3)}.ics`,
    });
    expect(String(ics?.content)).toContain(`UID:${id}@dental-clinic`);
    expect(await outboxOf(id)).toMatchObject([{ kind: 'confirmation', status: 'sent', attempts: 1 }]);
  });

  it('never fails a booking: a mail that fails is kept and sent by a later cron run, after its backoff', async () => {
    const patient = await newPatient('retry');
    box.failing = true;
    const id = await book(patient, 'dental-checkup', 4, '11.00 AM - 11.30 AM');
    box.failing = false;
    const [queued] = await outboxOf(id);
    expect(queued).toMatchObject({
      kind: 'confirmation',
      status: 'pending',
      attempts: 1,
      last_error: 'mail relay down',
    });
    expect(box.to(patient.email)).toHaveLength(0);

    // A run before the retry is due leaves it; the one at its time sends it, once.
    const due = Date.parse(queued?.next_attempt_at ?? '');
    await runCron(due - 60_000, MAIL);
    expect(box.to(patient.email)).toHaveLength(0);
    await runCron(due, MAIL);
    await runCron(due + 5 * 60_000, MAIL);
    expect(box.to(patient.email)).toHaveLength(1);
    expect(await outboxOf(id)).toMatchObject([{ status: 'sent', attempts: 2 }]);
  });

  it('backs off 5, 10, 20 … minutes, at most 6 hours, and gives up after the last attempt', async () => {
    const now = new Date('2026-12-01T00:00:00Z');
    expect([1, 2, 3, 8, 9].map((n) => (retryAt(now, n).getTime() - now.getTime()) / 60_000)).toEqual([
      5, 10, 20, 360, 360,
    ]);
    const patient = await newPatient('gives-up');
    box.failing = true;
    const id = await book(patient, 'fluoride-treatment', 4, '12.00 PM - 12.30 PM');
    // The confirmation's own retries (the cron's hours may also release the unpaid visit, whose mail is another row).
    const confirmation = async () => (await outboxOf(id)).filter((row) => row.kind === 'confirmation');
    for (let attempt = 2; attempt <= MAX_MAIL_ATTEMPTS + 1; attempt++) {
      const [row] = await confirmation();
      await runCron(Date.parse(row?.next_attempt_at ?? ''), MAIL);
    }
    box.failing = false;
    expect(await confirmation()).toMatchObject([{ status: 'failed', attempts: MAX_MAIL_ATTEMPTS }]);
  });
});

describe('the cancellation mail', () => {
  it('says the patient cancelled', async () => {
    const patient = await newPatient('cancels');
    const id = await book(patient, 'teeth-cleaning', 5, '02.00 PM - 02.30 PM');
    expect((await call(`/api/bookings/${id}`, { method: 'DELETE', headers: patient.auth }, MAIL)).status).toBe(200);
    const mail = box.to(patient.email).find((m) => m.subject.startsWith('Cancelled'));
    expect(mail?.text).toContain('You cancelled your Teeth Cleaning appointment.');
    expect(mail?.text).toMatch(/When: .* at 2:00 PM Eastern/);
  });

  it('says the clinic cancelled, when an admin did', async () => {
    const patient = await newPatient('cancelled-for');
    const admin = await newPatient('admin-cancels');
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?1").bind(admin.id).run();
    const id = await book(patient, 'teeth-cleaning', 5, '03.00 PM - 03.30 PM');
    expect((await call(`/api/bookings/${id}`, { method: 'DELETE', headers: admin.auth }, MAIL)).status).toBe(200);
    const mail = box.to(patient.email).find((m) => m.subject.startsWith('Cancelled'));
    expect(mail?.text).toContain('The clinic cancelled your Teeth Cleaning appointment.');
  });

  it('tells a patient whose unpaid booking was released, and until when it was held', async () => {
    const patient = await newPatient('released');
    const id = await book(patient, 'teeth-whitening', 6, '09.00 AM - 10.00 AM');
    const { hold_until } = (await env.DB.prepare('SELECT hold_until FROM bookings WHERE id = ?1')
      .bind(id)
      .first<{ hold_until: string }>()) ?? { hold_until: '' };
    await runCron(Date.parse(hold_until), MAIL);
    const mail = box.to(patient.email).find((m) => m.subject.startsWith('Released: not paid, Teeth Whitening on '));
    expect(mail?.text).toMatch(/Your Teeth Whitening appointment was released because it was not paid by \w+day/);
    expect(await outboxOf(id)).toMatchObject([{ kind: 'confirmation' }, { kind: 'cancellation', status: 'sent' }]);
  });
});

describe('the pay-soon mail (issue 45)', () => {
  const HOUR = 3_600_000;
  const holdOf = async (id: string) =>
    Date.parse(
      (await env.DB.prepare('SELECT hold_until FROM bookings WHERE id = ?1').bind(id).first<string>('hold_until')) ??
        '',
    );
  const kinds = (email: string) => box.to(email).map((m) => m.subject.split(':')[0]);

  it('comes 6 hours before an unpaid hold ends, with the amount and a Pay link; then the release', async () => {
    const patient = await newPatient('pay-soon');
    const id = await book(patient, 'teeth-whitening', 6, '09.00 AM - 10.00 AM');
    const hold = await holdOf(id);
    await runCron(hold - 6 * HOUR - 1000, MAIL);
    expect(kinds(patient.email)).toEqual(['Booked']);
    await runCron(hold - 6 * HOUR, MAIL);
    await runCron(hold - 6 * HOUR + 5 * 60_000, MAIL); // the next run sends nothing again
    const [mail, ...more] = box.to(patient.email).filter((m) => m.subject.startsWith('Pay soon:'));
    expect(more).toHaveLength(0);
    expect(mail?.subject).toMatch(/^Pay soon: Teeth Whitening on \w{3} \d{1,2} at 9:00 AM is held until /);
    expect(mail?.text).toMatch(
      /Please pay \$\d+\.\d\d by \w+day, .+, or the time will be released for other patients\./,
    );
    expect(mail?.text).toContain(`${env.APP_URL}/dashboard/payment/${id}`);
    await runCron(hold, MAIL);
    expect(kinds(patient.email)).toEqual(['Booked', 'Pay soon', 'Released']);
  });

  it('follows the clinic’s setting: 0 hours sends none, and more than 48 is refused', async () => {
    const admin = bearer(await accessTokenFor('admin@clinic.test'));
    const put = (paySoonHours: unknown) =>
      call('/api/messages/settings', {
        method: 'PUT',
        headers: { ...admin, 'Content-Type': 'application/json' },
        body: JSON.stringify({ paySoonHours }),
      });
    const refused = await put(49);
    expect([refused.status, (await refused.json<{ message: string }>()).message]).toEqual([
      400,
      'paySoonHours must be 0 to 48',
    ]);
    expect((await (await put(0)).json<{ paySoonHours: number }>()).paySoonHours).toBe(0);
    try {
      const patient = await newPatient('no-pay-soon');
      const id = await book(patient, 'teeth-cleaning', 6, '03.00 PM - 03.30 PM');
      expect((await outboxOf(id, true)).map((m) => m.kind)).toEqual(['confirmation']);
    } finally {
      expect((await put(6)).status).toBe(200);
    }
  });

  it('is not sent once the booking is paid', async () => {
    const patient = await newPatient('paid-in-time');
    const id = await book(patient, 'teeth-cleaning', 6, '02.00 PM - 02.30 PM');
    const hold = await holdOf(id);
    await env.DB.prepare('UPDATE bookings SET paid = 1 WHERE id = ?1').bind(id).run();
    await runCron(hold - 6 * HOUR, MAIL);
    expect(kinds(patient.email)).toEqual(['Booked']);
    expect((await outboxOf(id, true)).map((m) => [m.kind, m.status])).toEqual([
      ['confirmation', 'sent'],
      ['pay_soon', 'dropped'],
    ]);
  });
});

describe('the payment receipt', () => {
  it('is mailed once the payment paid the booking', async () => {
    const patient = await newPatient('pays');
    const id = await book(patient, 'cavity-filling', 7, '01.00 PM - 02.00 PM');
    const intent = await (await postJson('/api/create-payment-intent', { bookingId: id }, patient.auth)).json<{
      clientSecret: string;
    }>();
    const confirmed = await call(
      '/api/demo-payments/confirm',
      {
        method: 'POST',
        headers: { ...patient.auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({
          clientSecret: intent.clientSecret,
          card: { number: '4242 4242 4242 4242', expMonth: 12, expYear: new Date().getUTCFullYear() + 2, cvc: '123' },
        }),
      },
      MAIL,
    );
    expect(confirmed.status).toBe(200);
    const receipts = box.to(patient.email).filter((m) => m.subject.startsWith('Receipt'));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.subject).toMatch(/^Receipt: \$\d+\.00 for Cavity Filling$/);
    expect(receipts[0]?.text).toMatch(/Transaction: \S+/);
  });
});
