import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from '@playwright/test';
import { avatarPng } from '../scripts/avatar-png.ts';
import { logIn, SEED_ADMIN, uniqueEmail } from './support.ts';
import { expectConsoleErrors, test } from './test.ts';

test('an admin adds a doctor with a photo, sees it in Manage Doctors and deletes the doctor', async ({ page }) => {
  const photo = join(tmpdir(), `doctor-${Date.now()}.png`);
  writeFileSync(
    photo,
    avatarPng({ background: '#dbeafe', skin: '#e8b48f', hair: '#3b2a20', clothes: '#1d4ed8', coat: true }),
  );
  const email = uniqueEmail('dr-test');

  await logIn(page, SEED_ADMIN, '/dashboard/add-doctors');
  await expect(page).toHaveURL('/dashboard/add-doctors');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Add A Doctor' })).toBeVisible();
  await expect(main.getByLabel('Specialty')).toHaveValue('');
  await expect(main.getByRole('option', { name: 'Please select a Specialty' })).toBeDisabled();

  await main.getByRole('button', { name: 'Add' }).click();
  for (const message of ['name is required', 'email is required', 'specialty is required', 'Photo is required']) {
    await expect(main.getByText(message)).toBeVisible();
  }

  await main.getByLabel('Name').fill('Dr. Test Person');
  await main.getByLabel('Email').fill(email);
  await main.getByLabel('Specialty').selectOption('Cosmetic Dentistry');
  await main.getByLabel('Photo').setInputFiles(photo);
  await main.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText('success added a doctor')).toBeVisible();
  await expect(page).toHaveURL('/dashboard/manage-doctors');

  const table = page.getByRole('table', { name: 'Doctors' });
  const row = table.getByRole('row').filter({ hasText: 'Dr. Test Person' });
  await expect(row).toContainText('Cosmetic Dentistry');
  const img = row.getByRole('img', { name: 'Dr. Test Person' });
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBeGreaterThan(0);
  const photoUrl = await img.getAttribute('src');
  expect(photoUrl).toMatch(/^\/api\/images\/doctors\/[0-9a-f]{32}\.png$/);

  // The owner changes everything about them: name, specialty, photo, and Mondays 09:00–13:00 with
  // Wednesdays 12:00–17:00 (patients are then offered those times only).
  const newPhoto = join(tmpdir(), `doctor-new-${Date.now()}.png`);
  writeFileSync(
    newPhoto,
    avatarPng({ background: '#fee2e2', skin: '#8d5524', hair: '#111827', clothes: '#0f766e', coat: false }),
  );
  await row.getByRole('button', { name: 'Edit Dr. Test Person' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Dr. Test Person' });
  await edit.getByLabel('Name').fill('Dr. Test Renamed');
  await edit.getByLabel('Specialty').selectOption('General Dentistry');
  await edit.getByLabel('New photo (optional)').setInputFiles(newPhoto);
  for (const day of ['Tuesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'])
    await edit.getByRole('checkbox', { name: day }).uncheck();
  await edit.getByLabel('Monday ends at').selectOption('13:00');
  await edit.getByLabel('Wednesday starts at').selectOption('12:00');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Dr. Test Renamed saved')).toBeVisible();
  const renamed = table.getByRole('row').filter({ hasText: 'Dr. Test Renamed' });
  await expect(renamed).toContainText('General Dentistry');
  await expect(renamed).toContainText('Mon 09:00–13:00; Wed 12:00–17:00');
  const newUrl = await renamed.getByRole('img', { name: 'Dr. Test Renamed' }).getAttribute('src');
  expect(newUrl).not.toBe(photoUrl);
  expect((await page.request.get(photoUrl!)).status()).toBe(404);

  await renamed.getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Dr. Test Renamed?' });
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Doctor Dr. Test Renamed deleted success')).toBeVisible();
  await expect(renamed).toHaveCount(0);
  expect((await page.request.get(newUrl!)).status()).toBe(404);
});

test('a text file named .png is refused by the server and no doctor is added', async ({ page }) => {
  const fake = join(tmpdir(), `not-an-image-${Date.now()}.png`);
  writeFileSync(fake, 'this is text pretending to be a PNG');
  // The server refuses it (415), which this test is about.
  expectConsoleErrors(page, /status of 415 .*\/api\/images$/);
  await logIn(page, SEED_ADMIN, '/dashboard/add-doctors');
  await expect(page).toHaveURL('/dashboard/add-doctors');
  const main = page.getByRole('main');
  await main.getByLabel('Name').fill('Dr. Fake Photo');
  await main.getByLabel('Email').fill(uniqueEmail('dr-fake'));
  await main.getByLabel('Specialty').selectOption('General Dentistry');
  await main.getByLabel('Photo').setInputFiles(fake);
  await main.getByRole('button', { name: 'Add' }).click();
  await expect(page.getByText('Only JPEG, PNG, WebP, GIF or AVIF images are accepted')).toBeVisible();
  await expect(page).toHaveURL('/dashboard/add-doctors');
  await page.goto('/dashboard/manage-doctors');
  await expect(page.getByRole('table', { name: 'Doctors' })).toBeVisible();
  await expect(page.getByText('Dr. Fake Photo')).toHaveCount(0);
});
