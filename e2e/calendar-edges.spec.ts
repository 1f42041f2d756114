import { expect } from '@playwright/test';
import { apiPath, createAccount, logIn, pickDay, pp, queryD1, uniqueEmail, verifyAccount } from './support.ts';
import { test } from './test.ts';

/**
 * The booking journey at the calendar's edges, on any day the tests run: the browser's clock and the
 * Worker's (the X-Test-Clock header, honoured by the test stack only) are pinned together at the
 * last evening of the year, the end of a month and the eves of both daylight-saving changes. The
 * pinned days are in the past, so nothing here meets the other specs' days.
 */
const EDGES = [
  // what, now (UTC), the day picked (ISO), its 09:00 in UTC
  {
    what: 'on New Year’s Eve at 10.30 pm',
    now: '2026-01-01T03:30:00Z',
    day: '2026-01-01',
    nineAm: '2026-01-01T14:00:00.000Z',
  },
  {
    what: 'on the last afternoon of January',
    now: '2026-01-31T20:00:00Z',
    day: '2026-02-02',
    nineAm: '2026-02-02T14:00:00.000Z',
  },
  {
    what: 'the day before the clocks go forward',
    now: '2026-03-07T17:00:00Z',
    day: '2026-03-08',
    nineAm: '2026-03-08T13:00:00.000Z',
  },
  {
    what: 'the day before the clocks go back',
    now: '2026-10-31T16:00:00Z',
    day: '2026-11-01',
    nineAm: '2026-11-01T14:00:00.000Z',
  },
];

for (const edge of EDGES) {
  test.describe(edge.what, () => {
    test.use({ extraHTTPHeaders: { 'X-Test-Clock': edge.now }, viewport: { width: 360, height: 740 } });

    test(`a patient books ${pp(edge.day)} at 9.00 AM and sees it at that time`, async ({ page }) => {
      await page.clock.setFixedTime(new Date(edge.now));
      const email = uniqueEmail('edge');
      await createAccount(email, 'Strong#2026', 'Edda Edge');
      await verifyAccount(email);
      await logIn(page, { email, password: 'Strong#2026' }, '/login?from=%2Fappointment');
      await expect(page).toHaveURL('/appointment');

      await pickDay(page, edge.day);
      const card = page.getByRole('article', { name: 'Teeth Cleaning' });
      await card.getByRole('button', { name: 'Book Appointment' }).click();
      const modal = page.getByRole('dialog', { name: 'Teeth Cleaning' });
      await expect(modal.getByLabel('Date')).toHaveValue(pp(edge.day));
      await modal.getByLabel('Slot').selectOption('09.00 AM - 09.30 AM');
      await modal.getByLabel('Phone Number').fill('+1 555 0142');
      await modal.getByRole('button', { name: 'Submit' }).click();
      const confirmed = page.getByRole('dialog', { name: 'Booking confirmed' });
      await expect(confirmed).toContainText(`${pp(edge.day)}, 09.00 AM - 09.30 AM`);
      await confirmed.getByRole('button', { name: 'Done' }).click();

      await page.goto('/dashboard');
      await expect(page.getByRole('heading', { name: 'My Appointments' })).toBeVisible();
      const row = page
        .getByRole('table', { name: 'My appointments' })
        .getByRole('row')
        .filter({ hasText: pp(edge.day) });
      await expect(row).toContainText('09.00 AM - 09.30 AM');
      // Stored at the instant 9.00 AM is on the clinic's clock that day, whatever the offset.
      const [stored] = queryD1<{ appointment_date: string; start_minute: number }>(
        `SELECT b.appointment_date, b.start_minute FROM bookings b JOIN users u ON u.id = b.user_id WHERE u.email = '${email}'`,
      );
      expect(stored).toMatchObject({ appointment_date: edge.day, start_minute: 540 });
      const token = await page.evaluate(() => localStorage.getItem('accessToken'));
      const mine = await page.request.get(apiPath('GET /bookings'), { headers: { Authorization: `Bearer ${token}` } });
      expect(((await mine.json()) as { startsAt: string }[]).map((b) => b.startsAt)).toEqual([edge.nineAm]);
    });
  });
}
