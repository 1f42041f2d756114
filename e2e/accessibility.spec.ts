import { expect, type Page } from '@playwright/test';
import {
  apiPath,
  appTookOver,
  bookViaApi,
  clinicDate,
  createAccount,
  expectAccessible,
  logIn,
  networkQuiet,
  pickDay,
  requestsInFlight,
  SEED_ADMIN,
  SEED_PATIENT,
  uniqueEmail,
} from './support.ts';
import { test } from './test.ts';

// Its tests shared out between the workers rather than left to one: each works on data of its own (its own days
// or accounts; dialogs it opens and closes unchanged).
test.describe.configure({ mode: 'parallel' });

/** Opens `path` and waits until axe may see it: its heading shown, its lazy chunks and data landed. */
async function settle(page: Page, path: string, heading: string | RegExp) {
  const requests = requestsInFlight(page);
  await page.goto(path);
  await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
  await networkQuiet(requests);
}

// Every page and dialog of the app is judged by axe where the layout sweep opens it, at a phone's size and a
// desktop's (responsive.spec.ts). Here: the states that walk does not reach, and the keyboard.
for (const { size, viewport, isMobile } of [
  { size: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
  { size: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
]) {
  test.describe(size, () => {
    test.use({ viewport, isMobile, hasTouch: isMobile });

    test(`${size}: the verify-your-email banner has no serious accessibility violations, in both layouts`, async ({
      page,
    }) => {
      const email = uniqueEmail('unverified');
      await createAccount(email, 'Strong#2026', 'Una Verified');
      await logIn(page, { email, password: 'Strong#2026' });
      for (const [path, heading] of [
        ['/', 'What Our Patients Says'],
        ['/dashboard', 'My Appointments'],
      ] as const) {
        await settle(page, path, heading);
        await expect(page.getByRole('region', { name: 'Verify your email' })).toBeVisible();
        await expectAccessible(page, `${path} with the verify-your-email banner`);
      }
    });
  });
}

test('the front desk’s schedule and its dialogs have no serious accessibility violations', async ({
  page,
  browser,
}) => {
  // A booking the patient cancelled, shown on the day's schedule under Cancelled.
  const patient = await (await browser.newContext()).newPage();
  await logIn(patient, SEED_PATIENT);
  const id = await bookViaApi(patient, {
    treatment: 'Teeth Cleaning',
    date: clinicDate(22),
    slot: '09.00 AM - 09.30 AM',
  });
  const token = await patient.evaluate(() => localStorage.getItem('accessToken'));
  await patient.request.delete(apiPath('DELETE /bookings/:id', { params: { id } }), {
    headers: { Authorization: `Bearer ${token}` },
  });
  await patient.context().close();

  await logIn(page, SEED_ADMIN);
  await settle(page, '/dashboard/schedule', 'Schedule');
  await expectAccessible(page, '/dashboard/schedule');
  await page.getByLabel('Day', { exact: true }).fill(clinicDate(22));
  const cancelled = page.getByRole('region', { name: 'Cancelled' }).getByRole('button').first();
  await cancelled.click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expectAccessible(page, 'schedule: booking details dialog');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Book by phone' }).click();
  const phone = page.getByRole('dialog', { name: 'Book by phone' });
  await phone.getByLabel('Find by name or email').fill('jamie');
  await expect(phone.getByRole('radio', { name: /Jamie Patient/ })).toBeVisible();
  await expectAccessible(page, 'schedule: book by phone dialog');
});

test('the reschedule dialog has no serious accessibility violations', async ({ page }) => {
  await logIn(page, SEED_PATIENT);
  await bookViaApi(page, { treatment: 'Orthodontic Consultation', date: clinicDate(23), slot: '01.00 PM - 02.00 PM' });
  await settle(page, '/dashboard', 'My Appointments');
  await page
    .getByRole('row')
    .filter({ hasText: 'Orthodontic Consultation' })
    .getByRole('button', { name: 'Reschedule' })
    .first()
    .click();
  await expect(page.getByRole('dialog', { name: 'Reschedule Orthodontic Consultation' })).toBeVisible();
  await expect(page.getByText(/free times? that day|No free time that day/)).toBeVisible();
  await expectAccessible(page, 'reschedule dialog');
});

test('a patient books and pays with the keyboard only', async ({ page }) => {
  await logIn(page, SEED_PATIENT);
  await page.goto('/appointment');
  await pickDay(page, clinicDate(2), { keyboard: true }); // today's times may all have passed
  const book = page
    .getByRole('article', { name: 'Fluoride Treatment' })
    .getByRole('button', { name: 'Book Appointment' });
  await book.focus();
  await page.keyboard.press('Enter');
  const modal = page.getByRole('dialog', { name: 'Fluoride Treatment' });
  await expect(modal.getByLabel('Slot')).toBeFocused();
  // Tab stays inside the dialog.
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab');
    expect(await modal.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
  }
  await modal.getByLabel('Phone Number').focus();
  await page.keyboard.type('555 0199');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Booking confirmed')).toBeVisible();

  await page.goto('/dashboard');
  await appTookOver(page);
  const pay = page
    .getByRole('table', { name: 'My appointments' })
    .getByRole('row')
    .filter({ hasText: 'Fluoride Treatment' })
    .getByRole('link', { name: 'Pay' })
    .first();
  await pay.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Payment for Fluoride Treatment' })).toBeVisible();
  await page.getByLabel('Card number').focus();
  await page.keyboard.type('4242424242424242');
  await page.keyboard.press('Tab');
  await page.keyboard.type('12/34');
  await page.keyboard.press('Tab');
  await page.keyboard.type('123');
  await page.keyboard.press('Enter');
  await expect(page.getByText('Congrats your payment completed')).toBeVisible();
});

test('an admin manages users from the keyboard', async ({ page }) => {
  await logIn(page, SEED_ADMIN);
  await page.goto('/dashboard/all-users');
  const table = page.getByRole('table', { name: 'Users' });
  await expect(table).toBeVisible();
  const remove = table
    .getByRole('row')
    .filter({ hasText: 'patient@clinic.test' })
    .getByRole('button', { name: 'Delete' });
  await remove.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: /^Delete / });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter'); // Cancel: nothing is deleted
  await expect(dialog).toBeHidden();
  await expect(remove).toBeFocused();
  await expect(table.getByRole('row').filter({ hasText: 'patient@clinic.test' })).toHaveCount(1);
});
