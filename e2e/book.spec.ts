import { expect, type Locator, type Page } from '@playwright/test';
import { format } from 'date-fns';
import {
  appTookOver,
  bookViaApi,
  clinicDate,
  createAccount,
  logIn,
  oobLinks,
  queryD1,
  uniqueEmail,
  verifyAccount,
} from './support.ts';
import { test } from './test.ts';

// From "I need a cleaning" to booked (issue 46): free times before an account, the account at the end, the
// chosen time kept through sign-up and the verification mail, and a returning patient's Book again.

/** Taps that count: each is one a person makes. */
function tapper() {
  let taps = 0;
  return {
    tap: async (target: Locator) => {
      taps += 1;
      await target.click();
    },
    get taps() {
      return taps;
    },
  };
}

/** A day of /book's week of days (the next six are in the first week). */
const dayButton = (page: Page, iso: string) =>
  page
    .getByRole('navigation', { name: 'Days' })
    .getByRole('button', { name: format(new Date(`${iso}T12:00:00`), 'EEE d MMM'), exact: true });

/** The first free time of a treatment's card on /book (its button), and that time's start as it shows. */
async function firstTime(page: Page, treatment: string) {
  const time = page.getByRole('article', { name: treatment }).getByRole('link').first();
  await expect(time).toBeVisible();
  return { time, start: (await time.textContent()) ?? '' };
}

test('a new visitor books from the landing page at 360 px: the chosen time survives sign-up and the mail’s link', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const taps = tapper();
  await page.goto('/');
  await appTookOver(page);
  await taps.tap(page.getByRole('link', { name: 'Get Started' }));
  await expect(page.getByRole('heading', { level: 1, name: 'Book a visit' })).toBeVisible();
  await appTookOver(page);
  await taps.tap(dayButton(page, clinicDate(1)));
  const { time, start } = await firstTime(page, 'Teeth Cleaning');
  await expect(time).toHaveAccessibleName(`Teeth Cleaning at ${start}`);
  await taps.tap(time);

  // Sign Up says the time waits; nothing is held yet.
  await expect(page).toHaveURL(/\/signup\?from=/);
  const main = page.getByRole('main');
  await expect(main.getByRole('status')).toContainText(`at ${start}: sign in or create your account`);
  await expect(main.getByLabel('Name')).toBeFocused();
  const email = uniqueEmail('funnel');
  expect(queryD1(`SELECT id FROM bookings WHERE email = '${email}'`)).toEqual([]);
  await main.getByLabel('Name').fill('Nia New');
  await main.getByLabel('Email').fill(email);
  await main.getByLabel('Password').fill('Strong#2026');
  await taps.tap(main.getByRole('button', { name: 'Sign Up' }));

  // Back on the booking, the time chosen; booking waits for the verified address.
  const dialog = page.getByRole('dialog', { name: 'Teeth Cleaning' });
  await expect(dialog.getByLabel('Slot').locator('option:checked')).toHaveText(new RegExp(`^${start} - `));
  await expect(dialog.getByText(`Verify your email to book: open the link we sent to ${email}.`)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Submit' })).toBeDisabled();
  await expect.poll(async () => (await oobLinks(email, 'VERIFY_EMAIL')).length).toBe(1);
  await page.waitForFunction(() => Boolean(localStorage.getItem('accessToken')));

  // The mail's link verifies the address and leads back to the same booking, its time still chosen.
  const [link] = await oobLinks(email, 'VERIFY_EMAIL');
  await page.goto(link!);
  await expect(page).toHaveURL(/\/appointment\?date=/);
  await expect(dialog.getByLabel('Slot').locator('option:checked')).toHaveText(new RegExp(`^${start} - `));
  await expect(dialog.getByRole('button', { name: 'Submit' })).toBeEnabled();
  await taps.tap(dialog.getByRole('button', { name: 'Submit' }));
  await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible();
  expect(queryD1(`SELECT treatment FROM bookings WHERE email = '${email}' AND status = 'active'`)).toEqual([
    { treatment: 'Teeth Cleaning' },
  ]);
  expect(taps.taps).toBeLessThanOrEqual(6);
  test.info().annotations.push({
    type: 'measured',
    description: `new visitor: ${taps.taps} taps plus name, email, password and the mail's link`,
  });
});

test('without a password: name, email and the mail’s link take a new visitor from a chosen time to booked', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const taps = tapper();
  await page.goto('/book');
  await appTookOver(page);
  await taps.tap(dayButton(page, clinicDate(2)));
  const { time, start } = await firstTime(page, 'Dental Check-up');
  await taps.tap(time);
  const main = page.getByRole('main');
  const email = uniqueEmail('link');
  await main.getByLabel('Name').fill('Lee Link');
  await main.getByLabel('Email').fill(email);
  await taps.tap(main.getByRole('button', { name: 'Email me a link instead (no password)' }));
  await expect(main.getByText(`We sent a sign-in link to ${email}.`, { exact: false })).toBeVisible();

  await expect.poll(async () => (await oobLinks(email, 'EMAIL_SIGNIN')).length).toBe(1);
  const [link] = await oobLinks(email, 'EMAIL_SIGNIN');
  await page.goto(link!);
  // Signed in, the address verified by the link itself, on the booking with the time chosen.
  const dialog = page.getByRole('dialog', { name: 'Dental Check-up' });
  await expect(dialog.getByLabel('Slot').locator('option:checked')).toHaveText(new RegExp(`^${start} - `));
  await expect(dialog.getByLabel('Name')).toHaveValue('Lee Link');
  await taps.tap(dialog.getByRole('button', { name: 'Submit' }));
  await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible();
  expect(queryD1(`SELECT email_verified FROM users WHERE email = '${email}'`)).toEqual([{ email_verified: 1 }]);
  expect(taps.taps).toBeLessThanOrEqual(6);
  test.info().annotations.push({
    type: 'measured',
    description: `new visitor without a password: ${taps.taps} taps plus name, email and the mail's link`,
  });
});

test('the doctor chosen on /book is the one booked, and a taken time offers the nearest', async ({ page }) => {
  const who = { email: uniqueEmail('doctor-choice'), password: 'Strong#2026' };
  await createAccount(who.email, who.password, 'Dora Doctor');
  await verifyAccount(who.email);
  await logIn(page, who);
  await page.goto('/book');
  await appTookOver(page);
  await page.getByRole('button', { name: /^Doctor Any doctor/ }).click();
  const doctors = page.getByRole('group', { name: 'Doctor' });
  await expect(doctors.getByText('Orthodontics')).toBeVisible();
  await doctors.getByRole('radio', { name: /^Dr\. Sofia Alvarez/ }).click();
  await expect(page.getByRole('button', { name: /^Doctor Dr\. Sofia Alvarez/ })).toHaveAttribute(
    'aria-expanded',
    'false',
  );
  const date = clinicDate(6);
  await dayButton(page, date).click();
  // Only her treatments: no braces consultation with a general dentist.
  await expect(page.getByRole('article', { name: 'Dental Check-up' })).toBeVisible();
  await expect(page.getByRole('article', { name: 'Orthodontic Consultation' })).toHaveCount(0);
  const { time, start } = await firstTime(page, 'Dental Check-up');
  const href = (await time.getAttribute('href')) ?? '';
  expect(href).toContain('doctor=dr-sofia-alvarez');

  // Someone takes that time meanwhile.
  const taken = new URLSearchParams(href.split('?')[1]).get('start') ?? '';
  await bookViaApi(page, { treatment: 'Dental Check-up', date, start: taken });
  await page.goto('/book');
  await page.goto(href);
  const dialog = page.getByRole('dialog', { name: 'Dental Check-up' });
  await expect(
    dialog.getByText(new RegExp(`^${start} is no longer free; the nearest free time, .+, is chosen\\.$`)),
  ).toBeVisible();
  await expect(dialog.getByText('Dr. Sofia Alvarez')).toBeVisible();
});

test('a returning patient books again in two taps, and by keyboard alone', async ({ page }) => {
  const who = { email: uniqueEmail('again'), password: 'Strong#2026' };
  await createAccount(who.email, who.password, 'Rae Return');
  await verifyAccount(who.email);
  await logIn(page, who);
  await bookViaApi(page, { treatment: 'Teeth Cleaning', date: clinicDate(9), slot: '02.00 PM - 02.30 PM' });

  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/appointment?date=${clinicDate(10)}`);
  await appTookOver(page);
  const taps = tapper();
  await taps.tap(page.getByRole('button', { name: 'Book again: Teeth Cleaning with Dr. Sofia Alvarez' }));
  const dialog = page.getByRole('dialog', { name: 'Teeth Cleaning' });
  await expect(dialog.getByLabel('Slot')).not.toHaveValue('');
  await taps.tap(dialog.getByRole('button', { name: 'Submit' }));
  await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible();
  expect(taps.taps).toBeLessThanOrEqual(3);

  // By keyboard: from the page's top to a booking, counting every key.
  await page.goto(`/appointment?date=${clinicDate(11)}`);
  await appTookOver(page);
  let keys = 0;
  const press = async (key: string) => {
    keys += 1;
    await page.keyboard.press(key);
  };
  const again = page.getByRole('button', { name: 'Book again: Teeth Cleaning with Dr. Sofia Alvarez' });
  await expect(again).toBeVisible();
  // biome-ignore lint/suspicious/noPlaywrightNetworkidle: keys count from a settled page, as a person starts once it has loaded.
  await page.waitForLoadState('networkidle');
  while (!(await again.evaluate((button) => button === document.activeElement)) && keys < 40) await press('Tab');
  await press('Enter');
  await expect(dialog.getByLabel('Slot')).toBeFocused();
  // As anyone does, the keys go on once the doctor's free times are shown (until then Submit waits, and Tab passes it).
  await expect(dialog.getByLabel('Slot')).not.toHaveValue('');
  while (
    !(await dialog.getByRole('button', { name: 'Submit' }).evaluate((button) => button === document.activeElement)) &&
    keys < 40
  )
    await press('Tab');
  await press('Enter');
  await expect(page.getByRole('heading', { name: 'Booking confirmed' })).toBeVisible();
  test.info().annotations.push({ type: 'measured', description: `booking by keyboard: ${keys} key presses` });
  expect(keys).toBeLessThanOrEqual(12);
});

/** Every button's and link's name in `scope`'s accessibility tree, to check that none is said twice. */
async function repeatedNames(scope: Locator): Promise<string[]> {
  const names = [...(await scope.ariaSnapshot()).matchAll(/- (?:button|link) "([^"]+)"/g)].map((m) => m[1] ?? '');
  return names.filter((name, at) => names.indexOf(name) !== at);
}

test('a screen reader walks the booking: each step’s tree in a logical order, no two controls named alike', async ({
  page,
}) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/book?date=${clinicDate(12)}`);
  await appTookOver(page);
  const main = page.getByRole('main');
  await expect(page.getByRole('article', { name: 'Teeth Cleaning' }).getByRole('link').first()).toBeVisible();
  await expect(main).toMatchAriaSnapshot(`
    - main:
      - region "Book a visit":
        - heading "Book a visit" [level=1]
        - paragraph: Pick a day and a time. You sign in only to confirm it; nothing is held until then.
        - button "Doctor Any doctor Change" [expanded=false]
        - navigation "Days"
      - region "Free times":
        - heading "Free times" [level=2]
        - paragraph: /\\w+, \\w+ \\d+, \\d{4}/
        - article "Teeth Cleaning":
          - heading "Teeth Cleaning" [level=3]
          - paragraph: /\\d+ min · \\$\\d+/
          - list:
            - listitem:
              - link /Teeth Cleaning at \\d\\d\\.\\d\\d [AP]M/
  `);
  expect(await repeatedNames(main)).toEqual([]);

  await page.getByRole('article', { name: 'Teeth Cleaning' }).getByRole('link').first().click();
  await expect(main).toMatchAriaSnapshot(`
    - heading "Sign Up" [level=1]
    - status: /One step to book .+ at \\d\\d\\.\\d\\d [AP]M/
    - textbox "Name"
    - textbox "Email"
    - textbox "Password"
    - button "Sign Up"
    - button "Email me a link instead (no password)"
    - paragraph:
      - text: Already have an account?
      - link "Login"
  `);
  expect(await repeatedNames(main)).toEqual([]);

  const who = { email: uniqueEmail('walk'), password: 'Strong#2026' };
  await createAccount(who.email, who.password, 'Walt Walker');
  await verifyAccount(who.email);
  await main.getByRole('link', { name: 'Login' }).click();
  await main.getByLabel('Email').fill(who.email);
  await main.getByLabel('Password').fill(who.password);
  await main.getByRole('button', { name: 'Login', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Teeth Cleaning' });
  await expect(dialog).toMatchAriaSnapshot(`
    - heading "Teeth Cleaning" [level=2]
    - button "Close"
    - term: Doctor
    - definition: Dr. Sofia Alvarez
    - term: Length
    - definition: 30 min
    - textbox "Date"
    - combobox "Slot"
    - textbox "Name"
    - textbox "Email"
    - textbox "Phone Number"
    - button "Submit"
  `);
  expect(await repeatedNames(dialog)).toEqual([]);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('dialog', { name: 'Booking confirmed' })).toMatchAriaSnapshot(`
    - heading "Booking confirmed" [level=2]
    - term: What
    - definition: Teeth Cleaning, 30 min
    - term: With
    - definition: Dr. Sofia Alvarez
    - button "Done"
    - link "Pay now"
  `);
});
