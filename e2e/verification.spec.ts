import { expect } from '@playwright/test';
import { clinicDate, oobLinks, pickDay, queryD1, signUpInBrowser, uniqueEmail } from './support.ts';
import { test } from './test.ts';

test('a new patient verifies their email before booking: banner, the dialog waits, the emailed link, I’ve verified, booked', async ({
  page,
}) => {
  const email = uniqueEmail('verifier');
  await signUpInBrowser(page, { name: 'Vera Verify', email, password: 'Strong#2026' });
  await expect(page).toHaveURL('/');

  const banner = page.getByRole('region', { name: 'Verify your email' });
  await expect(banner).toContainText(`We sent a link to ${email}`);
  expect(queryD1(`SELECT email_verified FROM users WHERE email = '${email}'`)).toEqual([{ email_verified: 0 }]);

  // Browsing works; the booking dialog says why it waits instead of sending a booking the server refuses.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Appointment' }).click();
  await expect(banner).toBeVisible();
  await pickDay(page, clinicDate(4));
  const card = page.getByRole('article', { name: 'Dental Check-up' });
  const open = async () => {
    await card.getByRole('button', { name: 'Book Appointment' }).click();
    const modal = page.getByRole('dialog', { name: 'Dental Check-up' });
    await modal.getByLabel('Slot').selectOption('02.00 PM - 02.30 PM');
    await modal.getByLabel('Phone Number').fill('+1 555 0177');
    return modal;
  };
  const waiting = await open();
  await expect(waiting.getByText(`Verify your email to book: open the link we sent to ${email}.`)).toBeVisible();
  await expect(waiting.getByRole('button', { name: 'Submit' })).toBeDisabled();
  await waiting.getByRole('button', { name: 'Close' }).click();
  expect(queryD1(`SELECT id FROM bookings WHERE email = '${email}'`)).toEqual([]);

  // The person opens the link the emulator kept for them, then tells the app.
  const [link] = await oobLinks(email, 'VERIFY_EMAIL');
  expect(link).toBeTruthy();
  const opened = await page.request.get(link!);
  expect(await opened.json()).toMatchObject({ authEmulator: { success: 'The email has been successfully verified.' } });
  await banner.getByRole('button', { name: "I've verified" }).click();
  await expect(page.getByText('Thank you: your email is verified')).toBeVisible();
  await expect(banner).toBeHidden();
  expect(queryD1(`SELECT email_verified FROM users WHERE email = '${email}'`)).toEqual([{ email_verified: 1 }]);

  const accepted = await open();
  await accepted.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Booking confirmed')).toBeVisible();
  await expect(accepted).toBeHidden();

  // A reload keeps the banner away (the session remembers the verified email).
  await page.reload();
  await expect(page.getByRole('heading', { name: /^Available Appointments on/ })).toBeVisible();
  await expect(banner).toBeHidden();
});

test('the banner fits a 320 px phone, and Resend email sends another link', async ({ page }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  const email = uniqueEmail('narrow');
  await signUpInBrowser(page, { name: 'Nora Narrow', email, password: 'Strong#2026' });

  const banner = page.getByRole('region', { name: 'Verify your email' });
  await expect(banner).toBeVisible();
  // Sign-up mails the first link, then saves the user and stores the session; a navigation before
  // both are done would cancel them.
  await expect.poll(async () => (await oobLinks(email, 'VERIFY_EMAIL')).length).toBe(1);
  await page.waitForFunction(() => Boolean(localStorage.getItem('accessToken')));
  for (const where of ['/', '/dashboard']) {
    await page.goto(where);
    await expect(banner).toBeVisible();
    const box = (await banner.boundingBox())!;
    expect(box.x, where).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, where).toBeLessThanOrEqual(320);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), where).toBeLessThanOrEqual(320);
  }

  await banner.getByRole('button', { name: 'Resend email' }).click();
  await expect(page.getByText(`We sent a new link to ${email}`)).toBeVisible();
  await expect.poll(async () => (await oobLinks(email, 'VERIFY_EMAIL')).length).toBe(2);
});
