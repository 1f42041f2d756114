import { expect } from '@playwright/test';
import {
  apiPath,
  clinicDate,
  logIn,
  pickDayIn,
  pp,
  queryD1,
  SEED_ADMIN,
  signUpInBrowser,
  submitLogin,
  uniqueEmail,
} from './support.ts';
import { expectConsoleErrors, test } from './test.ts';

// Day one at the front desk (docs/product-admin.md#book-by-phone): a caller who will never book online
// keeps their time and pays at the desk; a caller the desk booked by phone claims their record by
// signing up; the staff start their day on the schedule.

test('an admin signing in lands on the schedule', async ({ page }) => {
  await page.goto('/login');
  await submitLogin(page, SEED_ADMIN);
  await expect(page).toHaveURL('/dashboard/schedule');
  await expect(page.getByRole('heading', { level: 1, name: 'Schedule' })).toBeVisible();
});

test('the desk books a caller who has no email in four steps; the time is kept, and paid in cash at the desk', async ({
  page,
}) => {
  const date = clinicDate(36);
  const caller = `Walter Walkin ${Date.now()}`;
  await logIn(page, SEED_ADMIN);
  await page.goto('/dashboard/schedule');
  await page.getByRole('button', { name: 'Book by phone' }).click();
  const dialog = page.getByRole('dialog', { name: 'Book by phone' });
  const book = dialog.getByRole('button', { name: 'Book' });
  await expect(book).toBeDisabled();
  await expect(dialog.getByText('Find the caller and choose them in the list.')).toBeVisible();
  await dialog.getByRole('radio', { name: 'New patient' }).check();
  await dialog.getByLabel('Name').fill(caller);
  await expect(dialog.getByText('Enter a phone number to reach the patient.')).toBeVisible();
  await dialog.getByLabel('Phone Number').fill('555 0177');
  await dialog.getByLabel('Treatment').selectOption({ label: 'Teeth Cleaning (30 min, $80)' });
  await pickDayIn(dialog, date);
  await dialog.getByLabel('Time', { exact: true }).selectOption('02.00 PM - 02.30 PM');
  await book.click();
  await expect(page.getByText(`Booked for ${caller}`)).toBeVisible();
  await expect(page.getByText('To pay at the clinic: the time is kept.')).toBeVisible();

  // On its day: unpaid, to pay at the desk, never released.
  const block = page.getByRole('button', { name: new RegExp(`14:00–14:30 ${caller}`) });
  await expect(block).toContainText('Pays at desk');
  const [row] = queryD1<{ id: string; hold_until: string | null; email: string }>(
    `SELECT id, hold_until, email FROM bookings WHERE patient_name = '${caller}'`,
  );
  expect(row).toMatchObject({ hold_until: null, email: expect.stringMatching(/\.invalid$/) });
  await block.click();
  const details = page.getByRole('dialog', { name: `${caller}: Teeth Cleaning` });
  await expect(details).toContainText(`${pp(date)}, 02.00 PM - 02.30 PM`);
  await expect(details).toContainText('$80, unpaid: pays at the clinic');
  await details.getByRole('button', { name: 'In cash' }).click();
  await expect(page.getByText('$80.00 paid in cash at the desk')).toBeVisible();
  await expect(block).not.toContainText('Pays at desk');
  expect(queryD1(`SELECT provider, method, amount_cents FROM payments WHERE booking_id = '${row?.id}'`)).toEqual([
    { provider: 'desk', method: 'cash', amount_cents: 8000 },
  ]);
});

test('a caller the desk booked by phone who signs up is told to verify the address, not shown an error', async ({
  page,
  browser,
}) => {
  // The server keeps the caller's record until the address is verified (403), which this test is about.
  expectConsoleErrors(page, /status of 403 .*\/api\/users$/);
  const email = uniqueEmail('phoned');
  const admin = await (await browser.newContext()).newPage();
  await logIn(admin, SEED_ADMIN);
  const token = await admin.evaluate(() => localStorage.getItem('accessToken'));
  const booked = await admin.request.post(apiPath('POST /phone-bookings'), {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      patient: { name: 'Phoebe Phoned', email },
      phone: '555 0160',
      treatment: 'Dental Check-up',
      appointmentDate: pp(clinicDate(37)),
      slot: '04.00 PM - 04.30 PM',
    },
  });
  expect(booked.status()).toBe(201);
  await admin.context().close();

  await signUpInBrowser(page, { name: 'Phoebe Phoned', email, password: 'Strong#2026' });
  await expect(page.getByRole('heading', { level: 1, name: 'Check your email' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'The clinic already has your record' })).toContainText(
    'Open the link we emailed you to confirm this address is yours',
  );
  await expect(page.getByRole('main').getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Go to Login' })).toBeVisible();
});
