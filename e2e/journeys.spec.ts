import { expect, type Locator, type Page } from '@playwright/test';
import {
  apiPath,
  bookViaApi,
  clinicDate,
  createAccount,
  deliveredMails,
  expectAccessible,
  logIn,
  payViaApi,
  pickDay,
  pp,
  SEED_ADMIN,
  uniqueEmail,
  verifyAccount,
} from './support.ts';
import { test } from './test.ts';

// Where one feature meets another (issue 43), as the desk and the patient meet it, a phone and a
// desktop side by side. Every test here also holds the console to be clean (./test.ts): the
// closure below is asked first as a dry run, never sent to be refused. The API's side of the same
// journeys is worker/test/journeys.test.ts. They change the clinic's days and hours: they run alone.

const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 900 };

/** Nothing sticks out sideways: the page does not scroll horizontally. */
async function expectNoSideScroll(page: Page) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
}

/** The page judged by axe once the toasts of what it just did are gone (a toast fading is judged halfway). */
async function accessibleOnceToastsAreGone(page: Page, what: string) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  await expectAccessible(page, what);
}

/** By keyboard: focuses `target` (once the page takes input: it is inert until hydrated), then presses `key`. */
async function pressWhenFocused(target: Locator, key: string) {
  await expect(async () => {
    await target.focus();
    await expect(target).toBeFocused({ timeout: 500 });
  }).toPass();
  await target.page().keyboard.press(key);
}

test('a closure kept for review reaches the desk’s schedule without a reload, and the patient sees the day closed', async ({
  page,
  browser,
}) => {
  const day = clinicDate(56);
  // The patient, on a phone, has a visit that day.
  const patient = await (await browser.newContext({ viewport: PHONE })).newPage();
  const email = uniqueEmail('journey');
  await createAccount(email, 'Strong#2026', 'Jules Journey');
  await verifyAccount(email);
  await logIn(patient, { email, password: 'Strong#2026' });
  await bookViaApi(patient, { treatment: 'Teeth Whitening', date: day, slot: '10.00 AM - 11.00 AM' });

  // The owner, at a desk, closes the day. The page asks first: the dialog lists the visit, by keyboard.
  await page.setViewportSize(DESKTOP);
  await logIn(page, SEED_ADMIN, '/dashboard/clinic-hours');
  const form = page.getByRole('form', { name: 'Add a closure' });
  await form.getByLabel('First day').fill(day);
  await form.getByLabel('Reason').fill('Burst pipe');
  await pressWhenFocused(form.getByRole('button', { name: 'Add closure' }), 'Enter');
  const conflict = page.getByRole('dialog', { name: '1 upcoming booking would no longer fit' });
  await expect(conflict).toContainText('Jules Journey');
  // The dialog takes focus once it has opened (an effect after its first paint): asked until it has.
  await expect.poll(() => page.evaluate(() => Boolean(document.activeElement?.closest('[role="dialog"]')))).toBe(true);
  await expectAccessible(page, 'the dialog of a closure over a booked visit');
  await pressWhenFocused(conflict.getByRole('button', { name: 'Keep them for review' }), 'Enter');
  await expect(page.getByText('Closure added')).toBeVisible();

  // From the menu, not a reload: the schedule's review list has the visit, with the patient's contact.
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Schedule' }).click();
  const review = page.getByRole('region', { name: /^Needs review/ });
  const visit = review.getByRole('listitem').filter({ hasText: 'Jules Journey' });
  await expect(visit).toBeVisible();
  await expect(visit).toContainText(email);
  await accessibleOnceToastsAreGone(page, 'the schedule with a visit to review');

  // The patient's booking page says the day is closed and why, and offers no waitlist for it.
  await patient.goto('/appointment');
  await pickDay(patient, day);
  await expect(patient.getByText('Closed: Burst pipe')).toBeVisible();
  await expect(patient.getByRole('button', { name: /Join the waitlist/ })).toHaveCount(0);
  await expectNoSideScroll(patient);
  await expectAccessible(patient, 'the booking page on a closed day');
  // Their own visit that day is still on, not cancelled: the clinic will call.
  await patient.goto('/dashboard');
  await expect(patient.getByRole('main')).toContainText(pp(day));
  await patient.context().close();

  // The day opens again for the specs after this one.
  await page.goto('/dashboard/clinic-hours');
  const row = page.getByRole('table', { name: 'Closures' }).getByRole('row').filter({ hasText: 'Burst pipe' });
  await row.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expect(row).toHaveCount(0);
});

test('Activity reads like a log: an hours change is one line in words, at every width', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await logIn(page, SEED_ADMIN, '/dashboard/clinic-hours');
  const saturday = page.getByRole('group', { name: 'Saturday' });
  const setSaturdayClose = async (time: string) => {
    await saturday.getByLabel('Closes at').selectOption(time);
    await page.getByRole('button', { name: 'Save hours' }).click();
    await expect(page.getByText('Opening hours saved').last()).toBeVisible();
  };
  // Later, then back: a longer day strands nothing, and the clinic ends as it began.
  await setSaturdayClose('18:00');
  await setSaturdayClose('17:00');

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Activity' }).click();
  const log = page.getByRole('list', { name: 'Activity' });
  const entries = log.locator('> li').filter({ hasText: 'Changed opening hours' });
  await expect(entries.first()).toContainText('Saturday: 09:00–18:00 → 09:00–17:00');
  await expect(entries.nth(1)).toContainText('Saturday: 09:00–17:00 → 09:00–18:00');
  // One day changed, one line: no other day, no JSON, no ids.
  await expect(entries.first().getByRole('listitem')).toHaveCount(1);
  await expect(log).not.toContainText('{');
  for (const viewport of [{ width: 320, height: 640 }, PHONE, DESKTOP, { width: 1920, height: 1080 }]) {
    await page.setViewportSize(viewport);
    await expectNoSideScroll(page);
    const box = await entries.first().boundingBox();
    expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY) <= viewport.width).toBe(
      true,
    );
  }
  await accessibleOnceToastsAreGone(page, 'Activity with real entries');
});

test('a child’s paid visit, cancelled by the parent, stays in the parent’s past visits with its refund and receipt', async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  const { headers, childId } = await parentWithChild(page, 'parent', 'Leo Whitfield');
  const day = clinicDate(59);
  await payViaApi(page, await bookForChild(page, headers, childId, day, '11.00 AM - 11.30 AM'));

  // The parent cancels it in My Appointments, by keyboard.
  await page.goto('/dashboard');
  const row = page
    .getByRole('table', { name: 'Leo Whitfield’s appointments' })
    .getByRole('row')
    .filter({ hasText: pp(day) });
  await pressWhenFocused(row.getByRole('button', { name: 'Cancel' }), 'Enter');
  const confirm = page.getByRole('dialog', { name: 'Cancel this appointment?' });
  await expect(confirm).toContainText('will be refunded to your card');
  await pressWhenFocused(confirm.getByRole('button', { name: 'Cancel appointment' }), 'Enter');
  await expect(row).toHaveCount(0);
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Booking cancelled' })).toBeVisible();

  // Past and cancelled, without a reload: the child's visit under the child's name, refunded, with its receipt.
  const past = page.getByRole('region', { name: 'Past and cancelled' });
  const leo = past.getByRole('region', { name: 'Leo Whitfield' });
  await expect(leo).toContainText('Dental Check-up');
  await expect(leo).toContainText('refunded');
  await expect(leo.getByRole('link', { name: `Receipt for Dental Check-up on ${pp(day)}` })).toBeVisible();
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await expectNoSideScroll(page);
  }
  await accessibleOnceToastsAreGone(page, 'a family’s past visits');
});

/** A new, verified patient of this test with a child of 8, signed in on `page`; answers the API's headers. */
async function parentWithChild(page: Page, who: string, child: string) {
  const email = uniqueEmail(who);
  await createAccount(email, 'Strong#2026', `${child.split(' ')[0]}’s parent`);
  await verifyAccount(email);
  await logIn(page, { email, password: 'Strong#2026' });
  const headers = { Authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('accessToken'))}` };
  const added = await page.request.post(apiPath('POST /users/me/dependants'), {
    headers,
    data: { name: child, birthDate: '2018-06-01', relationship: 'child' },
  });
  return { email, headers, childId: ((await added.json()) as { insertedId: string }).insertedId };
}

/** Books a Dental Check-up for the child through the API, as their parent; answers its id. */
async function bookForChild(page: Page, headers: Record<string, string>, childId: string, day: string, slot: string) {
  const booked = await page.request.post(apiPath('POST /bookings'), {
    headers,
    data: { treatment: 'Dental Check-up', appointmentDate: day, slot, phone: '555 0101', patientId: childId },
  });
  expect(booked.status(), await booked.text()).toBe(201);
  return ((await booked.json()) as { insertedId: string }).insertedId;
}

test('the forms link in a mail opens a child’s forms without an account, asks no adult questions, and leads back', async ({
  page,
  browser,
}) => {
  const { headers, childId } = await parentWithChild(page, 'forms-parent', 'Nico Formsby');
  const day = clinicDate(54);
  await bookForChild(page, headers, childId, day, '10.00 AM - 10.30 AM');
  // The confirmation mail carries the visit's forms link, to be opened on any phone.
  let link = '';
  await expect
    .poll(() => {
      const mail = deliveredMails().find((body) => body.includes('Nico Formsby') && body.includes('no sign-in needed'));
      link = mail?.match(/no sign-in needed\): (http\S+)/)?.[1] ?? '';
      return link;
    })
    .not.toBe('');

  const phone = await (await browser.newContext({ viewport: PHONE })).newPage();
  await phone.goto(new URL(link).pathname);
  await expect(phone.getByRole('heading', { level: 1, name: 'Forms for Nico Formsby' })).toBeVisible();
  const history = phone.getByRole('region', { name: /^Medical history/ });
  await expect(history.getByText('Are you allergic to penicillin?')).toBeVisible();
  for (const adult of ['Sex assigned at birth', 'Are you pregnant, or could you be?', 'Do you smoke?']) {
    await expect(history.getByText(adult)).toHaveCount(0);
  }
  await expectAccessible(phone, 'a child’s forms from a mail');
  // By keyboard: a required answer left out is marked at its question, and the focus goes there.
  const answer = async (question: string, choice: string) => {
    await pressWhenFocused(
      history.getByRole('group', { name: new RegExp(`^${question}`) }).getByLabel(choice, { exact: true }),
      'Space',
    );
  };
  await answer('Are you allergic to penicillin\\?', 'No');
  await answer('Do you take blood thinners\\?', 'No');
  await pressWhenFocused(history.getByRole('button', { name: 'Save' }), 'Enter');
  await expect(history.getByRole('alert')).toHaveText(/heart condition/);
  const heart = history.getByRole('group', { name: /^Do you have a heart condition/ });
  await expect.poll(() => heart.evaluate((group) => group.contains(document.activeElement))).toBe(true);
  await phone.keyboard.press('Space');
  await pressWhenFocused(history.getByRole('button', { name: 'Save' }), 'Enter');
  await expect(history.getByText('Saved: the clinic has your answers.')).toBeVisible();
  await expectNoSideScroll(phone);
  await phone.context().close();
});

test('a family visit that cannot be at the same time says why, and what would work', async ({ page }) => {
  await page.setViewportSize(DESKTOP);
  await parentWithChild(page, 'fit-parent', 'Fenna Fit');
  await page.goto('/appointment');
  await pickDay(page, clinicDate(53));
  await page.getByRole('button', { name: 'Book a family visit' }).click();
  const dialog = page.getByRole('dialog', { name: /^Family visit on / });
  await dialog.getByLabel(/\(me\)$/).selectOption({ label: 'Teeth Cleaning' });
  await dialog.getByLabel('Fenna Fit').selectOption({ label: 'Dental Check-up' });
  await dialog.getByLabel('All at the same time').check();
  const none = dialog.getByRole('status').filter({ hasText: 'No time that day fits' });
  await expect(none).toContainText('need the same dentist');
  await expectAccessible(page, 'a family visit that cannot fit');
  await none.getByRole('button', { name: /^One after another works, from / }).click();
  await expect(dialog.getByLabel('One after another')).toBeChecked();
  await expect(dialog.getByLabel('Start (the whole family’s time)')).toBeVisible();
});
