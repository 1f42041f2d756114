import { expect } from '@playwright/test';
import {
  bookViaApi,
  clinicDate,
  createAccount,
  logIn,
  networkDown,
  networkUp,
  queryD1,
  SEED_PATIENT,
  uniqueEmail,
} from './support.ts';
import { expectConsoleErrors, test } from './test.ts';

test('a patient pays a booking with the demo provider: a declined card first, then 4242', async ({ page }) => {
  // The provider declines the first card (402), which this test is about.
  expectConsoleErrors(page, /status of 402 .*\/api\/demo-payments\/confirm$/);
  await logIn(page, SEED_PATIENT);
  const id = await bookViaApi(page, {
    treatment: 'Teeth Whitening',
    date: clinicDate(12),
    slot: '10.00 AM - 11.00 AM',
  });
  await page.goto(`/dashboard/payment/${id}`);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Payment for Teeth Whitening' })).toBeVisible();
  await expect(main.getByText('Please pay $250')).toBeVisible();
  await expect(main.getByText(/Demo payments: no card is charged/)).toBeVisible();
  // Until when to pay, and the cancellation policy, before the card is asked for.
  await expect(main.getByText(/^Pay by .+, or the time is released\.$/)).toBeVisible();
  await expect(main.getByText(/^Free cancellation until .+; reschedule online until .+\.$/)).toBeVisible();

  const pay = main.getByRole('button', { name: 'Pay' });
  await main.getByLabel('Card number').fill('4000 0000 0000 0002');
  await main.getByLabel('Expiry (MM/YY)').fill('12/34');
  await main.getByLabel('CVC').fill('123');
  await expect(pay).toBeEnabled();
  await pay.click();
  const error = main.getByRole('alert');
  await expect(error).toHaveText('Your card was declined.');
  const colour = await error.evaluate((el) => getComputedStyle(el).color);
  const [r, g, b] = colour.match(/\d+/g)!.map(Number);
  expect(r!).toBeGreaterThan(g! + 60);
  expect(r!).toBeGreaterThan(b! + 60);
  await expect(pay).toBeEnabled();
  expect(queryD1<{ paid: number }>(`SELECT paid FROM bookings WHERE id = '${id}'`)).toEqual([{ paid: 0 }]);

  await main.getByLabel('Card number').fill('4242 4242 4242 4242');
  await pay.click();
  await expect(main.getByText('Congrats your payment completed')).toBeVisible();
  await expect(
    main.getByText('Your appointment is paid and its time is yours; the receipt is below, and on its way by email.'),
  ).toBeVisible();
  await expect(main.getByText(/Your transaction id: pi_demo_/)).toBeVisible();
  await expect
    .poll(() =>
      queryD1<{ paid: number; payments: number }>(
        `SELECT paid, (SELECT count(*) FROM payments WHERE booking_id = '${id}') AS payments FROM bookings WHERE id = '${id}'`,
      ),
    )
    .toEqual([{ paid: 1, payments: 1 }]);
});

test('the payment page says payment needs a connection when offline', async ({ page, context }) => {
  await logIn(page, SEED_PATIENT);
  const id = await bookViaApi(page, {
    treatment: 'Root Canal Treatment',
    date: clinicDate(13),
    slot: '09.00 AM - 10.30 AM',
  });
  await page.goto(`/dashboard/payment/${id}`);
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Payment for Root Canal Treatment' })).toBeVisible();
  await main.getByLabel('Card number').fill('4242 4242 4242 4242');
  await main.getByLabel('Expiry (MM/YY)').fill('12/34');
  await main.getByLabel('CVC').fill('123');
  // The connection drops: the app learns it when its request fails, and charges nothing.
  await networkDown(context);
  await main.getByRole('button', { name: 'Pay' }).click();
  await expect(main.getByText('You are offline. Payment needs a connection.')).toBeVisible();
  await expect(main.getByRole('button', { name: 'Pay' })).toBeDisabled();
  await networkUp(context);
  await expect(main.getByRole('button', { name: 'Pay' })).toBeEnabled();
});

test('nobody opens the payment page of someone else’s booking', async ({ page, browser }) => {
  await logIn(page, SEED_PATIENT);
  const id = await bookViaApi(page, {
    treatment: 'Fluoride Treatment',
    date: clinicDate(14),
    slot: '09.00 AM - 09.30 AM',
  });
  const other = uniqueEmail('other');
  await createAccount(other, 'Strong#2026', 'Other Person');
  const stranger = await (await browser.newContext()).newPage();
  await logIn(stranger, { email: other, password: 'Strong#2026' });
  // The server refuses someone else's booking (403), which this test is about.
  expectConsoleErrors(stranger, /status of 403 .*\/api\/bookings\//);
  await stranger.goto(`/dashboard/payment/${id}`);
  const main = stranger.getByRole('main');
  await expect(main.getByText(/This booking could not be loaded: This booking is not yours/)).toBeVisible();
  await expect(main.getByRole('button', { name: 'Pay' })).toHaveCount(0);
});
