import { expect, type Page } from '@playwright/test';
import {
  apiPath,
  appTookOver,
  clinicDate,
  createAccount,
  expectAccessible,
  logIn,
  pickDay,
  uniqueEmail,
  verifyAccount,
} from './support.ts';
import { test } from './test.ts';

/** A new, verified patient signed in on `page`. */
async function newPatient(page: Page) {
  const email = uniqueEmail('family');
  await createAccount(email, 'Family#2026', `Pat Family ${Date.now()}`);
  await verifyAccount(email);
  await logIn(page, { email, password: 'Family#2026' });
}

/** Focuses a control and types into it, as a keyboard user does. */
async function typeInto(page: Page, label: string, text: string) {
  await page.getByLabel(label, { exact: true }).focus();
  await page.keyboard.type(text);
}

for (const viewport of [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
]) {
  test(`${viewport.width} px: a parent adds a child and books for them with the keyboard; My Appointments groups by person`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await newPatient(page);
    const child = `Milo ${viewport.width}`;
    await page.goto('/dashboard');
    await appTookOver(page);
    await expect(page.getByRole('heading', { level: 2, name: 'My family' })).toBeVisible();
    await typeInto(page, 'Their name', child);
    await typeInto(page, 'Date of birth', '04022016');
    await expect(page.getByLabel('Who they are to you')).toHaveValue('child');
    await page.getByRole('button', { name: 'Add to my family' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByText(/Child, born Apr 2, 2016$/)).toBeVisible();

    // Book for the child, keyboard only: "Who is this for?".
    const date = clinicDate(viewport.width === 360 ? 18 : 19);
    await page.goto('/appointment');
    await pickDay(page, date, { keyboard: true });
    const book = page
      .getByRole('article', { name: 'Dental Check-up' })
      .getByRole('button', { name: 'Book Appointment' });
    await book.focus();
    await page.keyboard.press('Enter');
    const modal = page.getByRole('dialog', { name: 'Dental Check-up' });
    const who = modal.getByLabel('Who is this for?');
    await expect(who).toBeVisible();
    await who.focus();
    await who.selectOption({ label: child });
    await expect(modal.getByLabel('Name', { exact: true })).toHaveValue(child);
    await expectAccessible(page, `the booking dialog with Who is this for? at ${viewport.width} px`);
    await modal.getByRole('button', { name: 'Submit' }).focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog', { name: 'Booking confirmed' })).toBeVisible();

    await page.goto('/dashboard');
    const theirs = page.getByRole('table', { name: `${child}’s appointments` });
    await expect(theirs.getByRole('row').filter({ hasText: 'Dental Check-up' })).toHaveCount(1);
    await expect(page.getByRole('table', { name: 'My appointments' })).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible(page, `My Appointments grouped by person at ${viewport.width} px`);
  });
}

for (const viewport of [
  { width: 360, height: 740 },
  { width: 1280, height: 800 },
]) {
  test(`a parent books a family visit for two at once and pays it in one payment at ${viewport.width} px`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await newPatient(page);
    const token = await page.evaluate(() => localStorage.getItem('accessToken'));
    const added = await page.request.post(apiPath('POST /users/me/dependants'), {
      headers: { Authorization: `Bearer ${token}` },
      data: { name: 'Ivy Family', birthDate: '2015-09-09', relationship: 'child' },
    });
    expect(added.status()).toBe(201);
    await page.goto('/appointment');
    await pickDay(page, clinicDate(21));
    await page.getByRole('button', { name: 'Book a family visit' }).click();
    const dialog = page.getByRole('dialog', { name: /^Family visit on / });
    await dialog.getByLabel(/\(me\)$/).selectOption({ label: 'Teeth Cleaning' });
    await dialog.getByLabel('Ivy Family').selectOption({ label: 'Dental Check-up' });
    await dialog.getByLabel('One after another').check();
    await expect(dialog.getByLabel('Start')).toBeVisible();
    await expectAccessible(page, 'the family visit dialog');
    await dialog.getByRole('button', { name: 'Book the family visit' }).click();
    // The confirmation says who comes when, for how much, and offers to pay for everyone at once.
    await expect(dialog.getByText(/^Family visit booked on /)).toBeVisible();
    await expect(dialog.getByRole('listitem')).toHaveText([
      /: Teeth Cleaning, \d\d\.\d\d [AP]M - \d\d\.\d\d [AP]M \(\$80\)$/,
      /^Ivy Family: Dental Check-up, \d\d\.\d\d [AP]M - \d\d\.\d\d [AP]M \(\$45\)$/,
    ]);
    await expect(dialog.getByText('Total $125.')).toBeVisible();
    await expect(dialog.getByRole('link', { name: 'Pay now' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await page.goto('/dashboard');
    await expect(page.getByRole('table', { name: 'My appointments' }).getByText('Teeth Cleaning')).toBeVisible();
    await expect(
      page.getByRole('table', { name: 'Ivy Family’s appointments' }).getByText('Dental Check-up'),
    ).toBeVisible();

    // One payment pays both: the whole family visit is the default, and each gets a receipt.
    await page.getByRole('table', { name: 'Ivy Family’s appointments' }).getByRole('link', { name: 'Pay' }).click();
    const main = page.getByRole('main');
    await expect(main.getByRole('radio', { name: 'The whole family visit: $125' })).toBeChecked();
    await expectAccessible(page, `the family visit’s payment at ${viewport.width} px`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await main.getByLabel('Card number').fill('4242 4242 4242 4242');
    await main.getByLabel('Expiry (MM/YY)').fill('12/34');
    await main.getByLabel('CVC').fill('123');
    // The page asks for, and the button charges, the whole visit's amount (issue 45).
    await expect(main.getByText('Please pay $125 for your family visit on ')).toBeVisible();
    await main.getByRole('button', { name: 'Pay $125', exact: true }).click();
    await expect(main.getByText('Congrats your payment completed')).toBeVisible();
    await expect(main.getByText('You paid $125 for 2 appointments;')).toBeVisible();
    await expect(main.getByRole('article', { name: 'Receipt' })).toHaveCount(2);
    await page.goto('/dashboard');
    await expect(page.getByRole('main').getByText('Paid', { exact: true })).toHaveCount(2);
  });
}
