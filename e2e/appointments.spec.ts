import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import {
  apiPath,
  appTookOver,
  bookViaApi,
  clinicDate,
  logIn,
  networkDown,
  networkUp,
  payInBrowser,
  pickDay,
  pp,
  requestsInFlight,
  SEED_PATIENT,
} from './support.ts';
import { test } from './test.ts';

test('a patient books a slot, sees it in My Appointments, exports it, cancels it and finds the slot free again', async ({
  page,
}) => {
  await logIn(page, SEED_PATIENT, '/login?from=%2Fappointment');
  await expect(page).toHaveURL('/appointment');
  await expect(page.getByRole('heading', { name: `Available Appointments on ${pp(clinicDate(0))}` })).toBeVisible();

  const date = clinicDate(3);
  await pickDay(page, date);
  await pickDay(page, date); // choosing the chosen day again keeps it chosen
  const card = page.getByRole('article', { name: 'Dental Check-up' });
  await expect(card.getByText('Price: $45')).toBeVisible();
  await card.getByRole('button', { name: 'Book Appointment' }).click();

  const modal = page.getByRole('dialog', { name: 'Dental Check-up' });
  await expect(modal.getByLabel('Date')).toHaveValue(pp(date));
  await expect(modal.getByLabel('Date')).toHaveAttribute('readonly', '');
  await expect(modal.getByLabel('Email')).toHaveValue(SEED_PATIENT.email);
  await expect(modal.getByLabel('Name')).toHaveAttribute('readonly', '');
  await modal.getByLabel('Slot').selectOption('11.00 AM - 11.30 AM');
  await modal.getByLabel('Phone Number').fill('+1 555 0142');
  await modal.getByRole('button', { name: 'Submit' }).click();
  // The booking ends on a confirmation: what, when, with whom, the price, the deadline to pay, the policy.
  const confirmed = page.getByRole('dialog', { name: 'Booking confirmed' });
  // The confirmation, or what the app told the patient instead (a toast): a failure then says what they saw.
  const toasts = page.locator('[data-sonner-toast]');
  await expect(confirmed.or(toasts).first()).toBeVisible();
  const told = (await toasts.allInnerTexts()).join(' | ');
  await expect(confirmed.getByRole('heading', { name: 'Booking confirmed' }), `the app said: ${told}`).toBeFocused();
  await expect(confirmed).toContainText('Dental Check-up, 30 min');
  await expect(confirmed).toContainText(`${pp(date)}, 11.00 AM - 11.30 AM`);
  await expect(confirmed).toContainText('Dr. Sofia Alvarez');
  await expect(confirmed).toContainText('$45');
  await expect(confirmed.getByText(/^Pay by .+, or the time is released\.$/)).toBeVisible();
  await expect(confirmed.getByText(/^Free cancellation until .+; reschedule online until .+\.$/)).toBeVisible();
  await expect(confirmed.getByRole('link', { name: 'Pay now' })).toHaveAttribute('href', /\/dashboard\/payment\//);
  await confirmed.getByRole('button', { name: 'Done' }).click();
  await expect(confirmed).toBeHidden();

  // The slot list was fetched again: the booked slot is no longer offered.
  await card.getByRole('button', { name: 'Book Appointment' }).click();
  await expect(
    page.getByRole('dialog', { name: 'Dental Check-up' }).getByRole('option', { name: '11.00 AM - 11.30 AM' }),
  ).toHaveCount(0);
  await page.keyboard.press('Escape');
  await expect(card.getByRole('button', { name: 'Book Appointment' })).toBeFocused();

  await page.goto('/dashboard');
  const row = page
    .getByRole('table', { name: 'My appointments' })
    .getByRole('row')
    .filter({ hasText: 'Dental Check-up' })
    .filter({ hasText: pp(date) });
  await expect(row).toContainText('11.00 AM - 11.30 AM');
  await expect(row).toContainText('$45');
  await expect(row.getByRole('link', { name: 'Pay' })).toHaveAttribute('href', /\/dashboard\/payment\//);

  const downloadPromise = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Add to calendar' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toBe(`appointment-${date}.ics`);
  const ics = readFileSync((await download.path())!, 'utf8');
  expect(ics).toContain('BEGIN:VEVENT');
  expect(ics).toContain('SUMMARY:Dental Check-up at Smile Dental Clinic');
  expect(ics).toMatch(/DTSTART:\d{8}T1[56]0000Z/); // 11:00 in New York is 15:00 or 16:00 UTC

  await row.getByRole('button', { name: 'Cancel' }).click();
  const confirm = page.getByRole('dialog', { name: 'Cancel this appointment?' });
  await confirm.getByRole('button', { name: 'Cancel appointment' }).click();
  await expect(page.getByText('Booking cancelled')).toBeVisible();
  await expect(row).toHaveCount(0);

  const free = await page.request.get(apiPath('GET /appointmentOptions', { query: { date } }));
  const options = (await free.json()) as { name: string; slots: string[] }[];
  expect(options.find((o) => o.name === 'Dental Check-up')?.slots).toContain('11.00 AM - 11.30 AM');
});

test('the booking modal says booking needs a connection when offline', async ({ page, context }) => {
  const inFlight = requestsInFlight(page);
  await logIn(page, SEED_PATIENT);
  await page.goto('/appointment');
  await pickDay(page, clinicDate(4));
  await page.getByRole('article', { name: 'Teeth Cleaning' }).getByRole('button', { name: 'Book Appointment' }).click();
  const modal = page.getByRole('dialog', { name: 'Teeth Cleaning' });
  await modal.getByLabel('Phone Number').fill('555 0100');
  // Nothing of the page's own under way when the connection drops: a request of the dialog's failing first
  // would tell the app sooner, and Submit would be disabled before it is tapped.
  await expect(modal.getByLabel('Slot')).not.toHaveValue('');
  await expect.poll(inFlight).toBe(0);
  // The connection drops: the app learns it when its request fails.
  await networkDown(context);
  await modal.getByRole('button', { name: 'Submit' }).click();
  await expect(modal.getByText('You are offline. Booking needs a connection.')).toBeVisible();
  await expect(modal.getByRole('button', { name: 'Submit' })).toBeDisabled();
  // Back: the app's own check finds the server answering again.
  await networkUp(context);
  await expect(modal.getByRole('button', { name: 'Submit' })).toBeEnabled();
});

test('a patient page loads the date formats in a worker, which ends once done; the landing page starts none', async ({
  page,
}) => {
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(new URL(worker.url()).pathname));
  await page.goto('/');
  await appTookOver(page);
  await logIn(page, SEED_PATIENT);
  expect(workers).toEqual([]);
  const started = page.waitForEvent('worker');
  await page.goto('/appointment');
  const worker = await started;
  expect(new URL(worker.url()).pathname).toMatch(/^\/assets\/date-formats\.worker-[\w-]+\.js$/);
  // Ended by the page once it has answered (a worker left running would hold a thread for nothing).
  await new Promise((resolve) => worker.on('close', resolve));
  await appTookOver(page);
  await expect(page.getByRole('heading', { name: /^Available Appointments on/ })).toBeVisible();
});

test('a visit to My Appointments or a payment page asks the server for its data once', async ({ page }) => {
  await logIn(page, SEED_PATIENT);
  const id = await bookViaApi(page, { treatment: 'Teeth Cleaning', date: clinicDate(6), slot: '03.00 PM - 03.30 PM' });
  const row = page
    .getByRole('table', { name: 'My appointments' })
    .getByRole('row')
    .filter({ hasText: '03.00 PM - 03.30 PM' })
    .filter({ hasText: pp(clinicDate(6)) });
  const asked: string[] = [];
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    if (pathname === apiPath('GET /bookings') || pathname === apiPath('GET /bookings/:id', { params: { id } })) {
      asked.push(pathname);
    }
  });
  /** Past the frame after the app took the page over, when a page's hooks ask for what they have not got. */
  const settled = async () => {
    await appTookOver(page);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
  };
  // The page comes with the data (the Worker asked its own API), and the app does not ask again.
  await page.goto('/dashboard');
  await expect(row).toBeVisible();
  await settled();
  await page.goto(`/dashboard/payment/${id}`);
  await expect(page.getByRole('heading', { name: 'Payment for Teeth Cleaning' })).toBeVisible();
  await settled();
  expect(asked).toEqual([]);
  // Without the session cookie (a page the service worker answers is the same), the page asks for it beside the
  // app's code, and the app takes that answer: still once.
  await page.context().clearCookies({ name: 'clinic_session' });
  await page.goto('/dashboard');
  await expect(row).toBeVisible();
  await settled();
  // The list is on screen once the app's call for it has answered: that call made no request of its own.
  expect(asked).toEqual([apiPath('GET /bookings')]);
});

test('My Appointments and the booking page come with the patient’s data in their HTML, only while signed in', async ({
  page,
  browser,
}) => {
  await logIn(page, SEED_PATIENT);
  await bookViaApi(page, { treatment: 'Teeth Whitening', date: clinicDate(7), slot: '04.00 PM - 05.00 PM' });
  // The session reaches the Worker on a navigation to the dashboard's pages and the booking page only, never on an
  // API call.
  const sessions = (await page.context().cookies()).filter((cookie) => cookie.name === 'clinic_session');
  expect(sessions.map(({ path, sameSite, httpOnly }) => ({ path, sameSite, httpOnly }))).toEqual(
    expect.arrayContaining([
      { path: '/dashboard', sameSite: 'Strict', httpOnly: false },
      { path: '/appointment', sameSite: 'Strict', httpOnly: false },
    ]),
  );
  expect(sessions).toHaveLength(2);
  // With no script at all, the page the Worker sends already lists the booking.
  const state = await page.context().storageState();
  const scriptless = await browser.newContext({ javaScriptEnabled: false, storageState: state });
  const bare = await scriptless.newPage();
  await bare.goto('/dashboard');
  const row = (on: Page) =>
    on
      .getByRole('table', { name: 'My appointments' })
      .getByRole('row')
      .filter({ hasText: 'Teeth Whitening' })
      .filter({ hasText: pp(clinicDate(7)) });
  await expect(row(bare)).toBeVisible();
  // The booking page: today's treatments with their free times, and the calendar of bookable days.
  await bare.goto('/appointment');
  await expect(bare.getByRole('heading', { name: `Available Appointments on ${pp(clinicDate(0))}` })).toBeVisible();
  await expect(bare.getByRole('heading', { name: 'Teeth Whitening', level: 3 })).toBeVisible();
  await expect(bare.getByRole('button', { name: /^Today, .*, selected$/ })).toBeVisible();
  // With the app: it takes over the same list (its buttons work once it has).
  await page.goto('/dashboard');
  await row(page).getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('dialog', { name: 'Cancel this appointment?' })).toBeVisible();
  await page.getByRole('button', { name: 'Keep it' }).click();
  // Signed out: the cookie is gone, and the page sent has nobody's data.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL('/');
  await expect
    .poll(async () => (await page.context().cookies()).map((cookie) => cookie.name))
    .not.toContain('clinic_session');
  await bare.goto('/dashboard');
  await expect(bare.getByText('Loading your appointments')).toBeAttached();
  await expect(row(bare)).toHaveCount(0);
  await bare.goto('/appointment');
  await expect(bare.getByText('Loading appointments')).toBeAttached();
  await scriptless.close();
});

test('a paid booking shows Paid with its Receipt, and Cancel outside the clinic’s cancellation window', async ({
  page,
}) => {
  await logIn(page, SEED_PATIENT);
  const id = await bookViaApi(page, { treatment: 'Cavity Filling', date: clinicDate(5), slot: '09.30 AM - 10.30 AM' });
  const main = await payInBrowser(page, id);
  await main.getByRole('link', { name: 'Back to My Appointments' }).click();
  const row = page
    .getByRole('table', { name: 'My appointments' })
    .getByRole('row')
    .filter({ hasText: 'Cavity Filling' })
    .filter({ hasText: pp(clinicDate(5)) });
  await expect(row.getByText('Paid', { exact: true })).toBeVisible();
  await expect(row.getByRole('link', { name: 'Pay' })).toHaveCount(0);
  await expect(row.getByRole('link', { name: /^Receipt for Cavity Filling/ })).toHaveAttribute(
    'href',
    `/dashboard/receipt/${id}`,
  );
  // Five days ahead is outside the default 24 hours: the patient may cancel it (refunded).
  await expect(row.getByRole('button', { name: 'Cancel' })).toBeVisible();
});
