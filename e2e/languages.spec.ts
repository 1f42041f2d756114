import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { clinicDate, createAccount, deliveredMails, queryD1, uniqueEmail, verifyAccount } from './support.ts';
import { test } from './test.ts';

// docs/languages.md: a browser that asks for Spanish gets the app in Spanish from the first paint, books, pays
// and cancels in it, and its account's mails come in Spanish, until the patient chooses another language.
test.use({ locale: 'es-MX', viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });

/** Nothing wider than the phone: no sideways scrolling on the page as it is. */
async function fitsThePhone(page: Page, where: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${where} is ${width} px wide on a 360 px phone`).toBeLessThanOrEqual(360);
}

test('a Spanish-speaking visitor books, pays and cancels in Spanish, and gets their mail in Spanish', async ({
  page,
}) => {
  // The first paint is Spanish: the Worker serves the landing page prerendered in it, before any script.
  const landing = await page.goto('/');
  expect(await landing?.text()).toContain('Su nueva sonrisa empieza aquí');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Su nueva sonrisa empieza aquí');
  await fitsThePhone(page, 'the landing page');

  const email = uniqueEmail('idioma');
  const name = 'Lucía Idioma';
  const password = 'Fuerte#2026';
  await createAccount(email, password, name);
  await verifyAccount(email);
  await page.goto('/login');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Iniciar sesión' })).toBeVisible();
  await main.getByLabel('Correo electrónico').fill(email);
  await main.getByLabel('Contraseña').fill(password);
  await main.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
  await page.waitForFunction(() => Boolean(localStorage.getItem('accessToken')));
  // The account made at this first sign-in takes the browser's language.
  expect(queryD1(`SELECT language FROM users WHERE email = '${email}'`)).toEqual([{ language: 'es' }]);

  // Booking, in Spanish.
  const date = clinicDate(33);
  await page.goto(`/appointment?date=${date}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Cita' })).toBeVisible();
  const card = page.getByRole('article', { name: 'Dental Check-up' });
  await expect(card.getByText('Precio: 45 US$')).toBeVisible();
  await fitsThePhone(page, 'the booking page');
  await card.getByRole('button', { name: 'Reservar cita' }).click();
  const modal = page.getByRole('dialog', { name: 'Dental Check-up' });
  await modal.getByLabel('Hora').selectOption('09.00 AM - 09.30 AM');
  await modal.getByLabel('Teléfono').fill('+1 555 0199');
  await expect(
    modal.getByText(/^Cancelación gratuita hasta el .+; puede cambiarla en línea hasta el .+\./),
  ).toBeVisible();
  await modal.getByRole('button', { name: 'Enviar' }).click();
  const confirmed = page.getByRole('dialog', { name: 'Reserva confirmada' });
  await expect(confirmed.getByRole('heading', { name: 'Reserva confirmada' })).toBeFocused();
  await expect(confirmed).toContainText('45 US$');
  await expect(confirmed.getByText(/^Pague antes del .+; si no, la hora quedará libre\.$/)).toBeVisible();
  await confirmed.getByRole('link', { name: 'Pagar ahora' }).click();

  // Paying, in Spanish.
  await expect(page.getByRole('heading', { name: 'Pago de Dental Check-up' })).toBeVisible();
  await main.getByLabel('Número de tarjeta').fill('4242 4242 4242 4242');
  await main.getByLabel('Caducidad (MM/AA)').fill('12/34');
  await main.getByLabel('CVC').fill('123');
  await fitsThePhone(page, 'the payment page');
  await main.getByRole('button', { name: 'Pagar 45 US$' }).click();
  await expect(main.getByText('Enhorabuena, su pago se ha completado')).toBeVisible();
  await expect(main.getByRole('article', { name: 'Recibo' })).toBeVisible();

  // My Appointments, in Spanish: the calendar file, then cancelling with the refund.
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Mis citas' })).toBeVisible();
  const row = page.getByRole('table', { name: 'Mis citas' }).getByRole('row').filter({ hasText: 'Dental Check-up' });
  await expect(row.getByText('Pagada')).toBeVisible();
  const download = page.waitForEvent('download');
  await row.getByRole('button', { name: 'Añadir al calendario' }).click();
  const ics = readFileSync((await (await download).path()) ?? '', 'utf8');
  expect(ics).toContain('SUMMARY;LANGUAGE=es:');
  await fitsThePhone(page, 'My Appointments');
  await row.getByRole('button', { name: 'Cancelar' }).click();
  await page
    .getByRole('dialog', { name: '¿Cancelar esta cita?' })
    .getByRole('button', { name: 'Cancelar la cita' })
    .click();
  await expect(
    page.getByText(
      /Su cita de Dental Check-up del .+ está cancelada\. Se (han devuelto|están devolviendo) 45,00\sUS\$ a su tarjeta\./,
    ),
  ).toBeVisible();

  // Every mail of the visit came in Spanish: booked, receipt, cancelled, refunded.
  const mine = () => deliveredMails().filter((body) => body.startsWith(`Estimado/a ${name}:`));
  await expect.poll(() => mine().length).toBeGreaterThanOrEqual(4);
  // Amounts as Intl writes them in Spanish, with a no-break space: "45,00 US$".
  const all = mine()
    .join('\n')
    .replace(/\u00a0/g, ' ');
  for (const line of [
    'Su cita en Smile Dental Clinic está reservada.',
    'Gracias: hemos recibido su pago por su cita de Dental Check-up.',
    'Usted canceló su cita de Dental Check-up.',
    'Reembolsamos 45,00 US$ por su cita de Dental Check-up a la tarjeta con la que pagó',
  ])
    expect(all).toContain(line);
  expect(deliveredMails().filter((body) => body.startsWith(`Dear ${name},`))).toEqual([]);
});

test('the language chosen in the menu is kept on the device and on the account, over the browser’s', async ({
  page,
}) => {
  const email = uniqueEmail('idioma');
  const name = 'Mateo Idioma';
  await createAccount(email, 'Fuerte#2026', name);
  await verifyAccount(email);
  await page.goto('/login');
  const main = page.getByRole('main');
  await main.getByLabel('Correo electrónico').fill(email);
  await main.getByLabel('Contraseña').fill('Fuerte#2026');
  await main.getByRole('button', { name: 'Iniciar sesión', exact: true }).click();
  await page.waitForFunction(() => Boolean(localStorage.getItem('accessToken')));
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Mis citas' })).toBeVisible();

  // On a phone the language is in the menu, with the site's links.
  await page.getByRole('button', { name: 'Menú' }).click();
  const chooser = page.getByRole('combobox', { name: 'Idioma' });
  await expect(chooser).toHaveValue('es');
  await chooser.selectOption({ label: 'English' });
  await expect(page.getByRole('heading', { level: 1, name: 'My Appointments' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect.poll(() => queryD1(`SELECT language FROM users WHERE email = '${email}'`)).toEqual([{ language: 'en' }]);

  // Served again, the page is English from its first paint, though the browser still asks for Spanish.
  const again = await page.goto('/');
  expect(await again?.text()).toContain('Your new smile starts here');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your new smile starts here');
});
