import { expect, type Page } from '@playwright/test';
import { clinicDate, logIn, pickDay, pp, SEED_ADMIN } from './support.ts';
import { test } from './test.ts';

/** The page does not scroll sideways: nothing sticks out of the viewport. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, what).toBeLessThanOrEqual(innerWidth);
}

test('an admin adds a 45-minute treatment and it is bookable on /appointment with its length, then deletes it', async ({
  page,
}) => {
  const name = `Night Guard Fitting ${Date.now() % 100_000}`;
  const date = clinicDate(33);
  await logIn(page, SEED_ADMIN, '/dashboard/treatments');
  await expect(page.getByRole('heading', { level: 1, name: 'Treatments' })).toBeVisible();
  await page.getByRole('button', { name: 'Add treatment' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add treatment' });
  await dialog.getByRole('button', { name: 'Save' }).click();
  for (const message of ['name is required', 'price is required', 'specialty is required']) {
    await expect(dialog.getByText(message)).toBeVisible();
  }
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Price ($)').fill('120');
  await dialog.getByLabel('Length').selectOption('45');
  await dialog.getByLabel('Specialty').selectOption('General Dentistry');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText(`${name} added`)).toBeVisible();
  const row = page.getByRole('table', { name: 'Treatments' }).getByRole('row').filter({ hasText: name });
  await expect(row).toContainText('45 min');
  await expect(row).toContainText('Active');

  await page.goto('/appointment');
  await pickDay(page, date);
  const card = page.getByRole('article', { name });
  await expect(card.getByText('Length: 45 min')).toBeVisible();
  await expect(card.getByText('Price: $120')).toBeVisible();
  await expect(card.getByText('09.00 AM - 09.45 AM')).toBeVisible();
  await card.getByRole('button', { name: 'Book Appointment' }).click();
  const modal = page.getByRole('dialog', { name });
  await expect(modal.getByText('45 min', { exact: true })).toBeVisible();
  const slots = await modal.getByLabel('Slot').locator('option').allTextContents();
  expect(slots.slice(0, 3)).toEqual(['09.00 AM - 09.45 AM', '09.30 AM - 10.15 AM', '10.00 AM - 10.45 AM']);
  await modal.getByRole('button', { name: 'Close' }).click();

  await page.goto('/dashboard/treatments');
  await row.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: `Delete ${name}?` })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(row).toHaveCount(0);
  await page.goto('/appointment');
  await pickDay(page, date);
  await expect(page.getByRole('article', { name: 'Teeth Cleaning' })).toBeVisible();
  await expect(page.getByRole('article', { name })).toHaveCount(0);
});

test('an admin closes the clinic for a day: that date offers no times until the closure is deleted', async ({
  page,
}) => {
  const date = clinicDate(34);
  await logIn(page, SEED_ADMIN, '/dashboard/clinic-hours');
  await expect(page.getByRole('heading', { level: 1, name: 'Clinic hours and closures' })).toBeVisible();
  const form = page.getByRole('form', { name: 'Add a closure' });
  await form.getByLabel('First day').fill(date);
  await form.getByLabel('Reason').fill('Staff training');
  await form.getByRole('button', { name: 'Add closure' }).click();
  await expect(page.getByText('Closure added')).toBeVisible();
  const row = page.getByRole('table', { name: 'Closures' }).getByRole('row').filter({ hasText: 'Staff training' });
  await expect(row).toContainText(pp(date));
  await expect(row).toContainText('Whole clinic');

  await page.goto('/appointment');
  await pickDay(page, date);
  // Closed says closed and why, offers the next open day, and no card to book or wait on.
  await expect(page.getByText('Closed: Staff training')).toBeVisible();
  await expect(page.getByRole('button', { name: /, the next day the clinic opens$/ })).toBeVisible();
  await expect(page.getByRole('article')).toHaveCount(0);

  await page.goto('/dashboard/clinic-hours');
  await row.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete the closure “Staff training”?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByText('Closure deleted')).toBeVisible();
  await page.goto('/appointment');
  await pickDay(page, date);
  await expect(page.getByRole('article', { name: 'Teeth Cleaning' }).getByText('09.00 AM - 09.30 AM')).toBeVisible();
});

test('the home page shows Our doctors, and the navigation bar’s Doctors link leads there from another page', async ({
  page,
}) => {
  await page.goto('/login');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Doctors' }).click();
  await expect(page).toHaveURL('/#doctors');
  const section = page.getByRole('region', { name: 'Our doctors' });
  await expect(section).toBeInViewport();
  const cards = section.getByRole('listitem');
  await expect(cards).toHaveCount(4);
  for (const [name, specialty] of [
    ['Dr. Amelia Hart', 'Cosmetic Dentistry'],
    ['Dr. Kwame Mensah', 'Endodontics'],
    ['Dr. Sofia Alvarez', 'General Dentistry'],
    ['Dr. Hiro Tanaka', 'Orthodontics'],
  ]) {
    const card = cards.filter({ hasText: name! });
    await expect(card).toContainText(specialty!);
    await expect
      .poll(() => card.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
  }
});

test('the schedule screens, the admin tables and the home page fit a phone, 320 to 430 px wide', async ({ page }) => {
  await logIn(page, SEED_ADMIN);
  for (const width of [320, 430]) {
    await page.setViewportSize({ width, height: 800 });
    for (const [path, heading] of [
      ['/', 'Our doctors'],
      ['/dashboard/treatments', 'Treatments'],
      ['/dashboard/clinic-hours', 'Clinic hours and closures'],
      ['/dashboard/chairs', 'Chairs'],
      ['/dashboard/manage-doctors', 'Manage Doctors'],
      ['/dashboard/add-doctors', 'Add A Doctor'],
      ['/dashboard/all-users', 'All Users'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { name: heading, exact: true }).first()).toBeVisible();
      await expectNoSidewaysScroll(page, `${path} at ${width} px`);
    }
    await page.goto('/dashboard/treatments');
    await page.getByRole('button', { name: 'Add treatment' }).click();
    await expect(page.getByRole('dialog', { name: 'Add treatment' })).toBeVisible();
    await expectNoSidewaysScroll(page, `the treatment dialog at ${width} px`);
    await page.goto('/dashboard/manage-doctors');
    await page
      .getByRole('button', { name: /^Edit Dr\. / })
      .first()
      .click();
    await expect(page.getByRole('dialog', { name: /^Edit Dr\. / })).toBeVisible();
    await expectNoSidewaysScroll(page, `the doctor dialog at ${width} px`);
  }
});
