import { expect, type Page } from '@playwright/test';
import { bookViaApi, clinicDate, logIn, payInBrowser, pp, queryD1, SEED_ADMIN, SEED_PATIENT } from './support.ts';
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
    const refused = await page.request.delete(`/api/bookings/${id}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(refused.status()).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toContain('please call the clinic');
  } finally {
    const token = await admin.evaluate(() => localStorage.getItem('accessToken'));
    const reset = await admin.request.put('/api/clinic/policy', {
      headers: { Authorization: `Bearer ${token}` },
      data: { freeCancellationHours: 24 },
    });
    expect(reset.status()).toBe(200);
  }
});
