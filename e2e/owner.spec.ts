import { expect, type Page } from '@playwright/test';
import {
  bookViaApi,
  clinicDate,
  createAccount,
  deliveredMails,
  logIn,
  pp,
  queryD1,
  SEED_ADMIN,
  uniqueEmail,
  verifyAccount,
} from './support.ts';
import { test } from './test.ts';

// The owner edits what the clinic has (docs/product-admin.md#chairs,
// #clinic-settings), and a closure over booked visits tells each patient
// (docs/product-admin.md#clinic-hours-and-closures). These change what every page shows: they run alone.

/** A new patient of this test, signed in on a page of their own, who books `treatment` on `date`. */
async function patientBooks(page: Page, booking: { treatment: string; date: string; slot: string }) {
  const email = uniqueEmail('closure');
  await createAccount(email, 'Strong#2026', 'Clara Closure');
  await verifyAccount(email);
  await logIn(page, { email, password: 'Strong#2026' });
  return { email, id: await bookViaApi(page, booking) };
}

test('a closure over booked visits: keep them for review, or cancel them and tell the patients', async ({
  page,
  browser,
}) => {
  const patientPage = await (await browser.newContext()).newPage();
  const [keptDay, cancelledDay] = [clinicDate(57), clinicDate(58)];
  const kept = await patientBooks(patientPage, {
    treatment: 'Teeth Whitening',
    date: keptDay,
    slot: '10.00 AM - 11.00 AM',
  });
  const cancelled = await bookViaApi(patientPage, {
    treatment: 'Teeth Whitening',
    date: cancelledDay,
    slot: '10.00 AM - 11.00 AM',
  });
  await patientPage.context().close();

  await logIn(page, SEED_ADMIN);
  const closeDay = async (day: string, reason: string, choice: string) => {
    await page.goto('/dashboard/clinic-hours');
    const form = page.getByRole('form', { name: 'Add a closure' });
    await form.getByLabel('First day').fill(day);
    await form.getByLabel('Reason').fill(reason);
    await form.getByRole('button', { name: 'Add closure' }).click();
    const conflict = page.getByRole('dialog', { name: '1 upcoming booking would no longer fit' });
    await expect(conflict).toContainText('Clara Closure');
    await conflict.getByRole('button', { name: choice }).click();
    await expect(page.getByText('Closure added')).toBeVisible();
  };

  // Kept: the patient is told the clinic will call; the booking waits on the schedule's review list.
  await closeDay(keptDay, 'Burst pipe', 'Keep them for review');
  await expect(page.getByText(/^Kept 1 upcoming booking for the front desk to rearrange/)).toBeVisible();
  await page.goto('/dashboard/schedule');
  const review = page.getByRole('region', { name: /^Needs review/ });
  await review.getByRole('button', { name: new RegExp(`^${pp(keptDay)}, 10:00: Clara Closure`) }).click();
  const details = page.getByRole('dialog', { name: 'Clara Closure: Teeth Whitening' });
  await expect(details).toContainText('Needs review');
  await details.getByRole('button', { name: 'Keep as it is' }).click();
  await expect(page.getByText('Booking kept')).toBeVisible();
  await expect(review.getByText('Clara Closure')).toHaveCount(0);
  await expect
    .poll(() => deliveredMails().some((mail) => mail.includes('the clinic will call you to arrange it')))
    .toBe(true);

  // Cancelled: the booking is off, the patient is mailed why.
  await closeDay(cancelledDay, 'Staff training', 'Cancel them and tell the patients');
  await expect(page.getByText('Cancelled 1 upcoming booking; each patient was told why by mail:')).toBeVisible();
  expect(queryD1(`SELECT status, cancel_note FROM bookings WHERE id = '${cancelled}'`)).toEqual([
    { status: 'cancelled', cancel_note: 'The clinic is closed that day (Staff training)' },
  ]);
  await expect.poll(() => deliveredMails().some((mail) => mail.includes('Staff training'))).toBe(true);
  expect(queryD1(`SELECT needs_review FROM bookings WHERE id = '${kept.id}'`)).toEqual([{ needs_review: 0 }]);

  // The days open again for the specs after this one.
  await page.goto('/dashboard/clinic-hours');
  for (const reason of ['Burst pipe', 'Staff training']) {
    const row = page.getByRole('table', { name: 'Closures' }).getByRole('row').filter({ hasText: reason });
    await row.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    // The first deletion's notice may still show beside the second's.
    await expect(page.getByText('Closure deleted').last()).toBeVisible();
    await expect(row).toHaveCount(0);
  }
});

test('the owner renames a chair and sets the messages', async ({ page }) => {
  await logIn(page, SEED_ADMIN);

  // A chair renamed, and back.
  await page.goto('/dashboard/chairs');
  const rename = async (from: string, to: string) => {
    await page.getByRole('button', { name: `Rename ${from}` }).click();
    const dialog = page.getByRole('dialog', { name: `Rename ${from}` });
    await dialog.getByLabel('New name').fill(to);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(
      page.getByRole('table', { name: 'Chairs' }).getByRole('cell', { name: to, exact: true }),
    ).toBeVisible();
  };
  await rename('Chair 2', 'Window chair');
  await rename('Window chair', 'Chair 2');

  // The messages: the clinic's phone on the home page follows.
  await page.goto('/dashboard/settings');
  const messages = page.getByRole('form', { name: 'Messages' });
  const phone = messages.getByLabel('Phone');
  const before = await phone.inputValue();
  await phone.fill('+1 (555) 010-9999');
  await messages.getByLabel('A waitlist offer holds the time for (minutes)').fill('45');
  await messages.getByRole('button', { name: 'Save messages' }).click();
  await expect(page.getByText('Message settings saved')).toBeVisible();
  await page.goto('/');
  await expect(page.locator('[data-clinic="phone"]').first()).toHaveText('+1 (555) 010-9999');
  await page.goto('/dashboard/settings');
  await phone.fill(before);
  await messages.getByLabel('A waitlist offer holds the time for (minutes)').fill('30');
  await messages.getByRole('button', { name: 'Save messages' }).click();
  await expect(page.getByText('Message settings saved')).toBeVisible();
});
