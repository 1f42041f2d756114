import { expect, type Locator, type Page } from '@playwright/test';
import { format } from 'date-fns';
import { apiPath, bookViaApi, clinicDate, logIn, queryD1, SEED_ADMIN, SEED_PATIENT } from './support.ts';
import { expectConsoleErrors, test } from './test.ts';

/** Nothing sticks out sideways: the page does not scroll horizontally and `card` lies inside the viewport. */
async function expectWithinWidth(page: Page, card: Locator) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  const box = (await card.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(innerWidth);
}

test('a card charged for a booking cancelled meanwhile is refunded at once: the patient is told, the admin sees it in Refunds', async ({
  page,
  browser,
}) => {
  const date = clinicDate(20);
  // After paying, the page reads the booking again: cancelled meanwhile, it is gone (404).
  expectConsoleErrors(page, /status of 404 .*\/api\/bookings\//);
  await logIn(page, SEED_PATIENT);
  const id = await bookViaApi(page, { treatment: 'Teeth Whitening', date, slot: '11.30 AM - 12.30 PM' });
  await page.goto(`/dashboard/payment/${id}`);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Payment for Teeth Whitening' })).toBeVisible();
  await main.getByLabel('Card number').fill('4242 4242 4242 4242');
  await main.getByLabel('Expiry (MM/YY)').fill('12/34');
  await main.getByLabel('CVC').fill('123');

  // Meanwhile the booking is cancelled (the patient, on another device); the card is charged all the same.
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  expect(
    (
      await page.request.delete(apiPath('DELETE /bookings/:id', { params: { id } }), {
        headers: { Authorization: `Bearer ${token}` },
      })
    ).status(),
  ).toBe(200);
  await main.getByRole('button', { name: 'Pay' }).click();
  const notice = main.getByRole('status').filter({ hasText: 'Your payment will be refunded' });
  await expect(notice).toContainText(
    'The booking was cancelled before the payment arrived. $250.00 has been refunded to your card.',
  );
  await expect(main.getByText('Congrats your payment completed')).toHaveCount(0);
  const transactionId = `pi_demo_${id.replaceAll('-', '')}`;
  expect(
    queryD1(
      `SELECT b.status, b.paid, p.amount_cents, p.refund_status FROM bookings b JOIN payments p ON p.booking_id = b.id WHERE b.id = '${id}'`,
    ),
  ).toEqual([{ status: 'cancelled', paid: 0, amount_cents: 25000, refund_status: 'succeeded' }]);

  const admin = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  await logIn(admin, SEED_ADMIN);
  await admin.goto('/dashboard');
  await admin.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Refunds' }).click();
  await expect(admin).toHaveURL('/dashboard/refunds');
  await expect(admin.getByRole('heading', { level: 1, name: 'Refunds' })).toBeVisible();
  const card = admin
    .getByRole('article', { name: '$250 to Jamie Patient (Visa ending in 4242)' })
    .filter({ hasText: transactionId });
  await expect(card).toContainText('Refunded');
  await expect(card).toContainText('The booking was cancelled before the payment arrived');
  await expect(card).toContainText(
    `Teeth Whitening, ${format(new Date(`${date}T12:00:00`), 'PP')} at 11.30 AM - 12.30 PM (cancelled)`,
  );
  await expect(card).toContainText('patient@clinic.test');

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 768, height: 1024 },
    { width: 320, height: 640 },
  ]) {
    await admin.setViewportSize(viewport);
    await expect(card).toBeVisible();
    await expectWithinWidth(admin, card);
  }
  // On a phone the side menu is a drawer that still leads here.
  await admin.getByRole('button', { name: 'Menu', exact: true }).click();
  await expect(
    admin.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Refunds' }),
  ).toHaveAttribute('aria-current', 'page');
});
