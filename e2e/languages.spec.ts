import { expect } from '@playwright/test';
import {
  bookViaApi,
  clinicDate,
  createAccount,
  deliveredMails,
  logIn,
  queryD1,
  uniqueEmail,
  verifyAccount,
} from './support.ts';
import { test } from './test.ts';

// docs/languages.md: a browser that asks for Spanish makes a Spanish account; its mails come in
// Spanish until the patient chooses another language on My Appointments.
test.use({ locale: 'es-MX', viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

test('a patient whose browser asks for Spanish gets Spanish mail, and English once they choose it', async ({
  page,
}) => {
  const email = uniqueEmail('idioma');
  const name = 'Lucía Idioma';
  await createAccount(email, 'Fuerte#2026', name);
  await verifyAccount(email);
  await logIn(page, { email, password: 'Fuerte#2026' });
  expect(queryD1(`SELECT language FROM users WHERE email = '${email}'`)).toEqual([{ language: 'es' }]);

  const mailsTo = (greeting: string) => deliveredMails().filter((body) => body.startsWith(greeting));
  await bookViaApi(page, { treatment: 'Dental Check-up', date: clinicDate(31), slot: '09.00 AM - 09.30 AM' });
  await expect.poll(() => mailsTo(`Estimado/a ${name}:`).length).toBe(1);
  expect(mailsTo(`Estimado/a ${name}:`)[0]).toContain('Su cita en Smile Dental Clinic está reservada.');

  await page.goto('/dashboard');
  const chooser = page.getByLabel('Language of your mails and texts');
  await expect(chooser).toHaveValue('es');
  await chooser.selectOption({ label: 'English' });
  await expect(page.getByText('Your mails and texts will be in English')).toBeVisible();
  const box = await chooser.boundingBox();
  expect((box?.x ?? -1) >= 0 && (box?.x ?? 0) + (box?.width ?? 999) <= 360, 'the chooser fits a 360 px phone').toBe(
    true,
  );

  await bookViaApi(page, { treatment: 'Dental Check-up', date: clinicDate(32), slot: '09.00 AM - 09.30 AM' });
  await expect.poll(() => mailsTo(`Dear ${name},`).length).toBe(1);
  expect(mailsTo(`Dear ${name},`)[0]).toContain('Your appointment at Smile Dental Clinic is booked.');
  expect(mailsTo(`Estimado/a ${name}:`)).toHaveLength(1);
});
