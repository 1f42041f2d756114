import { expect } from '@playwright/test';
import {
  apiPath,
  clinicDate,
  deliveredMails,
  expectAccessible,
  logIn,
  pickDay,
  pp,
  queryD1,
  SEED_ADMIN,
  SEED_PATIENT,
} from './support.ts';
import { test } from './test.ts';

const TREATMENT = 'Root Canal Treatment';

test('a patient joins the waitlist on a full day, gets an offer by mail when the time frees up, accepts it and is reminded', async ({
  page,
  browser,
}) => {
  const date = clinicDate(24);
  // The front desk books every root canal of that day by phone: it has no free time (a closed day would
  // have none either, but nothing can free up on a closed day, so it cannot be waited for).
  const adminPage = await (await browser.newContext()).newPage();
  await logIn(adminPage, SEED_ADMIN);
  const admin = { Authorization: `Bearer ${await adminPage.evaluate(() => localStorage.getItem('accessToken'))}` };
  const freeStarts = async () =>
    (
      (await (await adminPage.request.get(apiPath('GET /appointmentOptions', { query: { date } }))).json()) as {
        name: string;
        slots: string[];
      }[]
    ).find((option) => option.name === TREATMENT)?.slots ?? [];
  expect((await freeStarts())[0]).toBe('09.00 AM - 10.30 AM');
  const phoneBooked: string[] = [];
  // A start taken covers the starts that overlap it: book the first free one until none is left.
  for (let slots = await freeStarts(); slots.length > 0; slots = await freeStarts()) {
    const booked = await adminPage.request.post(apiPath('POST /phone-bookings'), {
      headers: admin,
      data: {
        patient: { name: `Caller ${phoneBooked.length + 1}` },
        phone: `555 01${10 + phoneBooked.length}`,
        treatment: TREATMENT,
        appointmentDate: date,
        slot: slots[0],
      },
    });
    expect(booked.status(), await booked.text()).toBe(201);
    phoneBooked.push(((await booked.json()) as { insertedId: string }).insertedId);
  }

  // The patient finds no time that day and joins the waitlist.
  await logIn(page, SEED_PATIENT, '/login?from=%2Fappointment');
  await pickDay(page, date);
  const card = page.getByRole('article', { name: TREATMENT });
  await expect(card.getByText('0 spaces available')).toBeVisible();
  await card.getByRole('button', { name: 'Join the waitlist' }).click();
  await expect(page.getByText(`You are on the waitlist for ${TREATMENT} on ${pp(date)}`)).toBeVisible();
  // The card says so instead of offering to join again.
  await expect(card.getByText('You are on the waitlist: we will mail you if a time frees up.')).toBeVisible();
  await expect(card.getByRole('button', { name: 'Join the waitlist' })).toHaveCount(0);

  await page.goto('/dashboard');
  const waitlist = page.getByRole('region', { name: 'My waitlist' });
  await expect(waitlist.getByText(`${TREATMENT} on ${pp(date)}`)).toBeVisible();
  await expectAccessible(page, 'My Appointments with a waitlist entry');

  // The first caller cancels: the time frees up and the first in line gets an offer by mail.
  expect(
    (
      await adminPage.request.delete(apiPath('DELETE /bookings/:id', { params: { id: phoneBooked[0] ?? '' } }), {
        headers: admin,
      })
    ).status(),
  ).toBe(200);
  let offerId = '';
  await expect
    .poll(() => {
      offerId =
        queryD1<{ id: string }>(
          `SELECT o.id FROM waitlist_offers o JOIN waitlist w ON w.id = o.entry_id JOIN users u ON u.id = w.user_id
           WHERE u.email = '${SEED_PATIENT.email}' AND o.day = '${date}' AND o.status = 'open'`,
        )[0]?.id ?? '';
      return offerId;
    })
    .not.toBe('');
  await expect
    .poll(() => deliveredMails().find((mail) => mail.includes(`/offers/${offerId}`)) ?? '')
    .toContain(`A time you are waiting for is free: ${TREATMENT},`);
  const mail = deliveredMails().find((text) => text.includes(`/offers/${offerId}`)) ?? '';
  const link = /(http\S+\/offers\/\S+)/.exec(mail)?.[1] ?? '';
  expect(new URL(link).pathname).toBe(`/offers/${offerId}`);

  // The link opens the offer; the time is held for the patient, and accepting books it.
  await page.goto(new URL(link).pathname);
  await expect(page.getByText(`${TREATMENT} on ${pp(date)} at 09.00 AM - 10.30 AM`)).toBeVisible();
  await expect(page.getByText(/^We are holding this time for you until /)).toBeVisible();
  await expectAccessible(page, 'an open waitlist offer');
  await page.getByRole('button', { name: 'Accept and book' }).click();
  await expect(page.getByText('Booking confirmed')).toBeVisible();
  await expect(page).toHaveURL('/dashboard');
  const row = page
    .getByRole('table', { name: 'My appointments' })
    .getByRole('row')
    .filter({ hasText: TREATMENT })
    .filter({ hasText: pp(date) });
  await expect(row).toContainText('09.00 AM - 10.30 AM');
  await expect(waitlist.getByText(`${TREATMENT} on ${pp(date)}`)).toHaveCount(0);

  // Paid (an unpaid one would be released by then), the booking gets its receipt, and a cron run
  // replayed at 24 hours before the appointment sends its reminder.
  const [booked] = queryD1<{ id: string }>(
    `SELECT id FROM bookings WHERE email = '${SEED_PATIENT.email}' AND appointment_date = '${date}' AND status = 'active'`,
  );
  const patient = { Authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('accessToken'))}` };
  const intent = await page.request.post(apiPath('POST /create-payment-intent'), {
    headers: patient,
    data: { bookingId: booked?.id },
  });
  const { clientSecret } = (await intent.json()) as { clientSecret: string };
  const testCard = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };
  const paid = await page.request.post(apiPath('POST /demo-payments/confirm'), {
    headers: patient,
    data: { clientSecret, card: testCard },
  });
  expect(paid.status()).toBe(200);
  await expect
    .poll(() =>
      deliveredMails().some((text) => text.includes('Thank you: we received your payment for your Root Canal')),
    )
    .toBe(true);
  // The reminders are written by the messages consumer, from the booking's event on the queue.
  const withReminder = () =>
    queryD1<{ id: string; due_at: string }>(
      `SELECT b.id, r.due_at FROM bookings b JOIN reminders r ON r.booking_id = b.id AND r.kind = '24h'
       WHERE b.email = '${SEED_PATIENT.email}' AND b.appointment_date = '${date}' AND b.status = 'active'`,
    );
  await expect.poll(() => withReminder().length).toBe(1);
  const [booking] = withReminder();
  const replay = await page.request.get(
    `/cdn-cgi/local/scheduled?cron=*/5+*+*+*+*&time=${Date.parse(booking?.due_at ?? '')}`,
  );
  expect(replay.status()).toBe(200);
  await expect
    .poll(() =>
      queryD1<{ status: string }>(`SELECT status FROM outbox WHERE dedupe_key = 'reminder:${booking?.id}:24h:1'`),
    )
    .toEqual([{ status: 'sent' }]);
  // Wrangler writes the mail it was handed a moment after the send returned.
  await expect
    .poll(() =>
      deliveredMails().some((text) => text.includes(`This is a reminder of your ${TREATMENT} appointment tomorrow`)),
    )
    .toBe(true);
});
