import { expect, type Page } from '@playwright/test';
import {
  apiPath,
  bookViaApi,
  clinicDate,
  createAccount,
  expectAccessible,
  logIn,
  payInBrowser,
  pickDay,
  pp,
  queryD1,
  SEED_ADMIN,
  SEED_PATIENT,
  uniqueEmail,
  verifyAccount,
} from './support.ts';
import { test } from './test.ts';

const bookingsTable = (page: Page) => page.getByRole('table', { name: 'My appointments' });
const rowOf = (page: Page, date: string) =>
  bookingsTable(page)
    .getByRole('row')
    .filter({ hasText: pp(date) });

test('a patient pays with the demo card, opens the receipt, cancels within the policy and sees the refund', async ({
  page,
}) => {
  const date = clinicDate(25);
  await logIn(page, SEED_PATIENT);
  const id = await bookViaApi(page, { treatment: 'Teeth Whitening', date, slot: '02.00 PM - 03.00 PM' });

  const main = await payInBrowser(page, id);
  const transactionId = `pi_demo_${id.replaceAll('-', '')}`;
  const onPaymentPage = main.getByRole('article', { name: 'Receipt' });
  await expect(onPaymentPage).toContainText('Visa ending in 4242');
  await expect(onPaymentPage).toContainText(transactionId);

  // My Appointments: Paid, with a Receipt link beside it.
  await page.goto('/dashboard');
  const row = rowOf(page, date);
  await expect(row.getByText('Paid')).toBeVisible();
  await row.getByRole('link', { name: /^Receipt for Teeth Whitening/ }).click();
  await expect(page).toHaveURL(`/dashboard/receipt/${id}`);
  const receipt = main.getByRole('article', { name: 'Receipt' });
  await expect(receipt).toContainText('$250.00');
  await expect(receipt).toContainText(`${pp(date)} at 02.00 PM - 03.00 PM`);
  await expect(receipt).toContainText('Visa ending in 4242');
  await expect(receipt).not.toContainText('Refund');
  // On a 320 px phone nothing sticks out sideways.
  await page.setViewportSize({ width: 320, height: 640 });
  await expect(receipt).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  const box = (await receipt.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(320);
  await page.setViewportSize({ width: 1280, height: 720 });
  // Printed, the receipt stands alone: no navigation bar, no menu, no buttons.
  await page.emulateMedia({ media: 'print' });
  await expect(receipt).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Dashboard' })).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print receipt' })).toBeHidden();
  await page.emulateMedia({ media: 'screen' });

  // 25 days ahead is well outside the clinic's 24 hours: the patient cancels and is refunded.
  await page.goto('/dashboard');
  await rowOf(page, date).getByRole('button', { name: 'Cancel' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this appointment?' });
  await expect(dialog).toContainText('The $250 you paid will be refunded to your card.');
  await dialog.getByRole('button', { name: 'Cancel appointment' }).click();
  const notice = main.getByRole('status').filter({ hasText: 'is cancelled' });
  await expect(notice).toContainText(
    `Your Teeth Whitening appointment on ${pp(date)} is cancelled. $250.00 has been refunded to your card.`,
  );
  await expect(rowOf(page, date)).toHaveCount(0);
  expect(
    queryD1(`SELECT b.status, p.refund_status, p.refund_reason, p.refund_amount_cents FROM bookings b
      JOIN payments p ON p.booking_id = b.id WHERE b.id = '${id}'`),
  ).toEqual([
    { status: 'cancelled', refund_status: 'succeeded', refund_reason: 'cancelled', refund_amount_cents: 25000 },
  ]);
  await notice.getByRole('link', { name: 'View receipt' }).click();
  await expect(main.getByRole('article', { name: 'Receipt' })).toContainText('$250.00 refunded to your card');
  await expect(main.getByRole('article', { name: 'Receipt' })).toContainText('(cancelled)');
});

test('inside the clinic’s cancellation window a paid booking says to call the clinic; the admin sets the window', async ({
  page,
  browser,
}) => {
  const admin = await (await browser.newContext()).newPage();
  await logIn(admin, SEED_ADMIN);
  await admin.goto('/dashboard');
  await admin.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Clinic settings' }).click();
  const hours = admin.getByLabel('Free cancellation until (hours before the appointment)');
  await expect(hours).toHaveValue('24');
  await hours.fill('720');
  await admin.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(admin.getByText('Cancellation policy saved')).toBeVisible();

  try {
    const date = clinicDate(26);
    await logIn(page, SEED_PATIENT);
    const id = await bookViaApi(page, { treatment: 'Teeth Whitening', date, slot: '02.00 PM - 03.00 PM' });
    await payInBrowser(page, id);

    await page.goto('/dashboard');
    const row = rowOf(page, date);
    await expect(row.getByText('To cancel, call the clinic: +1 (555) 010-2026')).toBeVisible();
    await expect(row.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
    // The server holds the rule too.
    const token = await page.evaluate(() => localStorage.getItem('accessToken'));
    const refused = await page.request.delete(apiPath('DELETE /bookings/:id', { params: { id } }), {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toContain('please call the clinic');
  } finally {
    const token = await admin.evaluate(() => localStorage.getItem('accessToken'));
    const reset = await admin.request.put(apiPath('PUT /clinic/policy'), {
      headers: { Authorization: `Bearer ${token}` },
      data: { freeCancellationHours: 24 },
    });
    expect(reset.status()).toBe(200);
  }
});

test('a card on file keeps a visit: saved in the booking dialog, its fees accepted, then on the statement', async ({
  page,
  browser,
}) => {
  // The clinic offers a treatment kept with a card on file, with a missed-visit and a late-cancel fee.
  await logIn(page, SEED_ADMIN);
  const headers = { Authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('accessToken'))}` };
  const added = await page.request.post(apiPath('POST /treatments'), {
    headers,
    data: { name: 'Implant consult', price: 150, durationMinutes: 30, specialty: 'General Dentistry', payment: 'card' },
  });
  expect(added.status()).toBe(201);
  const { insertedId } = (await added.json()) as { insertedId: string };
  expect(
    (
      await page.request.put(apiPath('PUT /clinic/policy'), { headers, data: { noShowFee: 40, lateCancelFee: 25 } })
    ).status(),
  ).toBe(200);
  try {
    const email = uniqueEmail('card');
    await createAccount(email, 'Card#2026', 'Casey Card');
    await verifyAccount(email);
    const patient = await (await browser.newContext({ viewport: { width: 360, height: 740 } })).newPage();
    await logIn(patient, { email, password: 'Card#2026' });
    await patient.goto('/appointment');
    const date = clinicDate(30);
    await pickDay(patient, date);
    const card = patient.getByRole('article', { name: 'Implant consult' });
    await expect(card.getByText('Keep it with a card on file; pay at the clinic')).toBeVisible();
    await card.getByRole('button', { name: 'Book Appointment' }).click();

    const dialog = patient.getByRole('dialog', { name: 'Implant consult' });
    const submit = dialog.getByRole('button', { name: 'Submit' });
    await expect(submit).toBeDisabled();
    await dialog.getByRole('button', { name: 'Save a card' }).click();
    await dialog.getByLabel('Card number').fill('4242 4242 4242 4242');
    await dialog.getByLabel('Expiry (MM/YY)').fill('12/34');
    await dialog.getByLabel('CVC').fill('123');
    await dialog.getByRole('button', { name: 'Save card' }).click();
    await expect(dialog.getByText('Visa ending in 4242')).toBeVisible();
    const accept = dialog.getByLabel(
      /^I accept that the clinic charges my card on file \$40 if I miss the visit, and \$25 if I cancel after /,
    );
    await expect(submit).toBeDisabled();
    await accept.check();
    await expectAccessible(patient, 'the booking dialog of a visit kept with a card, at 360 px');
    await submit.click();
    const confirmed = patient.getByRole('dialog', { name: 'Booking confirmed' });
    await expect(confirmed).toBeVisible();
    // Nothing to pay online: no deadline, no Pay now.
    await expect(confirmed.getByRole('link', { name: 'Pay now' })).toHaveCount(0);
    await expect(confirmed.getByText(/^Pay by /)).toHaveCount(0);

    await patient.goto('/dashboard');
    const row = patient
      .getByRole('table', { name: 'My appointments' })
      .getByRole('row')
      .filter({ hasText: pp(date) });
    await expect(row.getByText('Card on file; pay at the clinic')).toBeVisible();
    const money = patient.getByRole('region', { name: 'Payments and cards' });
    await expect(money.getByText('Visa ending in 4242')).toBeVisible();
    await expect(money.getByText('Balance: $150 to pay at the clinic')).toBeVisible();
    await expect(money.getByRole('table', { name: 'Casey Card: $150 to pay at the clinic' })).toContainText(
      `Visit: Implant consult, ${pp(date)}`,
    );
    expect(await patient.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible(patient, 'My Appointments with a card on file and the statement, at 360 px');
    await patient.context().close();
  } finally {
    await page.request.put(apiPath('PUT /clinic/policy'), { headers, data: { noShowFee: 0, lateCancelFee: 0 } });
    // Its visit stays; patients can no longer book it.
    await page.request.delete(apiPath('DELETE /treatments/:id', { params: { id: insertedId } }), { headers });
  }
});
