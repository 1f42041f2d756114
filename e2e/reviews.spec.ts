import { expect, type Page } from '@playwright/test';
import { clinicDate, createAccount, logIn, queryD1, SEED_ADMIN, SEED_PATIENT, uniqueEmail } from './support.ts';
import { test } from './test.ts';

const AWAITING = 'Your review is waiting for the clinic’s approval. You can still edit it.';

async function testimonials(page: Page) {
  await page.goto('/');
  const carousel = page.getByRole('region', { name: 'Patient testimonials' });
  await expect(carousel.getByText('Winson Herry').first()).toBeAttached();
  return carousel;
}

test('a patient with a past appointment writes a review; it reaches the home page once an admin approves it', async ({
  page,
  browser,
}) => {
  // The seed patient's appointment of three days ago, as the clinic's records would hold it.
  queryD1(
    `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes, user_id,
       patient_name, email, price_cents, paid)
     SELECT 'e2e-past-visit', 'teeth-cleaning', 'Teeth Cleaning', '${clinicDate(-3)}', '09.00 AM - 09.30 AM', 540, 30, id,
       name, email, 8000, 1
     FROM users WHERE email = '${SEED_PATIENT.email}'`,
  );
  await logIn(page, SEED_PATIENT, '/review');
  const main = page.getByRole('main');
  const text = `Spotless clinic and a painless check-up ${Date.now()}`;
  await main.getByLabel('Your review').fill(text);
  await main.getByLabel('Location').fill('Queens');
  await main.getByRole('button', { name: 'Post review' }).click();
  await expect(
    page.getByText('Thank you! Your review will show on the home page once the clinic approves it'),
  ).toBeVisible();
  await expect(main.getByText(AWAITING)).toBeVisible();
  await expect(main.getByRole('button', { name: 'Update review' })).toBeVisible();

  expect(await (await testimonials(page)).getByText(text).count()).toBe(0);

  // The admin approves it on a phone-sized screen.
  const adminPage = await (await browser.newContext({ viewport: { width: 320, height: 700 } })).newPage();
  await logIn(adminPage, SEED_ADMIN, '/dashboard/reviews');
  const waiting = adminPage.getByRole('region', { name: /^Waiting for approval/ });
  const card = waiting.getByRole('article', { name: 'Jamie Patient' });
  await expect(card.getByText(text)).toBeVisible();
  await expect(card).toContainText(SEED_PATIENT.email);
  expect(await adminPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
  const approve = card.getByRole('button', { name: 'Approve' });
  await approve.focus();
  await adminPage.keyboard.press('Enter');
  await expect(adminPage.getByText('The review by Jamie Patient is approved')).toBeVisible();
  await expect(
    adminPage.getByRole('region', { name: /^On the home page/ }).getByRole('article', { name: 'Jamie Patient' }),
  ).toBeVisible();

  const carousel = await testimonials(page);
  await expect(carousel.getByText(text).first()).toBeAttached();
  await expect(carousel.getByText('Jamie Patient').first()).toBeAttached();
});

test('a patient with no past appointment is told why they cannot write a review yet', async ({ page }) => {
  const email = uniqueEmail('newcomer');
  await createAccount(email, 'Strong#2026', 'New Comer');
  await logIn(page, { email, password: 'Strong#2026' }, '/review');
  const main = page.getByRole('main');
  await expect(main.getByText('You can write a review after your first appointment at the clinic.')).toBeVisible();
  await expect(main.getByRole('link', { name: 'Book an appointment' })).toHaveAttribute('href', '/appointment');
  await expect(main.getByLabel('Your review')).toHaveCount(0);
});
