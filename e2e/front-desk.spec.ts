import { expect, type Page } from '@playwright/test';
import { format } from 'date-fns';
import {
  bookViaApi,
  clinicDate,
  deliveredMails,
  logIn,
  pickDayIn,
  pp,
  queryD1,
  SEED_ADMIN,
  SEED_PATIENT,
} from './support.ts';
import { test } from './test.ts';

/** Whether the page itself scrolls sideways (it must not: only the schedule's own box may). */
const pageScrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test('the front desk’s schedule shows a patient’s booking in its doctor’s column, and its details', async ({
  page,
  browser,
}) => {
  const date = clinicDate(30);
  const patient = await (await browser.newContext()).newPage();
  await logIn(patient, SEED_PATIENT);
  await bookViaApi(patient, { treatment: 'Orthodontic Consultation', date, slot: '03.00 PM - 04.00 PM' });
  await patient.context().close();

  await logIn(page, SEED_ADMIN);
  await page.goto('/dashboard');
  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Schedule' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Schedule' })).toBeVisible();
  await page.getByLabel('Day', { exact: true }).fill(date);
  const column = page.getByRole('list', { name: 'Dr. Hiro Tanaka' });
  const block = column.getByRole('button', { name: /15:00–16:00 Jamie Patient Orthodontic Consultation/ });
  await expect(block).toBeVisible();
  // As tall as it is long: an hour on the grid.
  expect((await block.boundingBox())?.height).toBeGreaterThan(80);
  await expect(
    page.getByRole('button', {
      name: new RegExp(`^${format(new Date(`${date}T12:00:00`), 'EEEE, MMM d')}: 1 appointment$`),
    }),
  ).toHaveAttribute('aria-current', 'date');

  await block.click();
  const dialog = page.getByRole('dialog', { name: 'Jamie Patient: Orthodontic Consultation' });
  await expect(dialog).toContainText(`${pp(date)}, 03.00 PM - 04.00 PM (60 min)`);
  await expect(dialog).toContainText('patient@clinic.test');
  await expect(dialog).toContainText('Attendance can be marked once the appointment has started.');
  await page.keyboard.press('Escape');
  await expect(block).toBeFocused();

  await page.getByRole('button', { name: 'Chairs' }).click();
  await expect(page.getByRole('list', { name: 'Dr. Hiro Tanaka' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /15:00–16:00 Jamie Patient/ })).toBeVisible();

  // On a tablet and a phone the columns scroll inside their own box; the page does not scroll sideways.
  await page.getByRole('button', { name: 'Doctors' }).click();
  for (const viewport of [
    { width: 768, height: 1024 },
    { width: 360, height: 740 },
  ]) {
    await page.setViewportSize(viewport);
    await expect(block).toBeAttached();
    expect(await pageScrollsSideways(page), `${viewport.width} px`).toBe(false);
  }
});

test('a patient moves a booking to another day from My Appointments', async ({ page }) => {
  const [from, to] = [clinicDate(31), clinicDate(32)];
  await logIn(page, SEED_PATIENT);
  const id = await bookViaApi(page, { treatment: 'Teeth Whitening', date: from, slot: '10.00 AM - 11.00 AM' });
  await page.goto('/dashboard');
  const row = page
    .getByRole('table', { name: 'My appointments' })
    .getByRole('row')
    .filter({ hasText: pp(from) });
  await row.filter({ hasText: 'Teeth Whitening' }).getByRole('button', { name: 'Reschedule' }).click();

  const dialog = page.getByRole('dialog', { name: 'Reschedule Teeth Whitening' });
  await expect(dialog).toContainText(`Now: ${pp(from)}, 10.00 AM - 11.00 AM`);
  await pickDayIn(dialog, to);
  await dialog.getByLabel('New time').selectOption('02.00 PM - 03.00 PM');
  await dialog.getByRole('button', { name: 'Move appointment' }).click();
  await expect(page.getByText('Appointment moved')).toBeVisible();
  await expect(dialog).toBeHidden();

  const moved = page
    .getByRole('table', { name: 'My appointments' })
    .getByRole('row')
    .filter({ hasText: 'Teeth Whitening' })
    .filter({ hasText: pp(to) });
  await expect(moved).toContainText('02.00 PM - 03.00 PM');
  // The patient hears of it, both times named.
  await expect
    .poll(() =>
      deliveredMails().some((mail) =>
        /Your Teeth Whitening appointment has moved from .*10:00 AM.* to .*2:00 PM/s.test(mail),
      ),
    )
    .toBe(true);
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: 'Teeth Whitening' })
      .filter({ hasText: pp(from) }),
  ).toHaveCount(0);
  const [old] = queryD1<{ status: string; moved_to: string }>(
    `SELECT status, moved_to FROM bookings WHERE id = '${id}'`,
  );
  expect(old?.status).toBe('moved');
  const [successor] = queryD1<{ appointment_date: string; start_minute: number }>(
    `SELECT appointment_date, start_minute FROM bookings WHERE id = '${old?.moved_to}'`,
  );
  expect(successor).toEqual({ appointment_date: to, start_minute: 14 * 60 });
});
