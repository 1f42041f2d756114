import { expect, type Page } from '@playwright/test';
import {
  createAccount,
  oobLinks,
  queryD1,
  SEED_ADMIN,
  SEED_PATIENT,
  signUpInBrowser,
  submitLogin,
  uniqueEmail,
  verifyAccount,
} from './support.ts';
import { expectConsoleErrors, test } from './test.ts';

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

test('Login shows every validation message', async ({ page }) => {
  await page.goto('/login');
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { name: 'Login' })).toBeVisible();
  await main.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(main.getByText('This is email required!')).toBeVisible();
  await expect(main.getByText('This password required!')).toBeVisible();
  await main.getByLabel('Password').fill('abc');
  await main.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(main.getByText('password must be 6 characters')).toBeVisible();
  await expect(main.getByText('OR', { exact: true })).toBeVisible();
  await expect(main.getByRole('link', { name: 'Create new account' })).toHaveAttribute('href', '/signup');
  await expect(main.getByRole('button', { name: 'CONTINUE WITH GOOGLE' })).toBeVisible();
});

test('Sign Up shows every validation message, including a weak password', async ({ page }) => {
  await page.goto('/signup');
  const main = page.getByRole('main');
  await main.getByRole('button', { name: 'Sign Up' }).click();
  for (const message of ['name is required', 'email is required', 'password is required']) {
    await expect(main.getByText(message)).toBeVisible();
  }
  await main.getByLabel('Password').fill('abc');
  await main.getByRole('button', { name: 'Sign Up' }).click();
  await expect(main.getByText('password must be 6 characters')).toBeVisible();
  await main.getByLabel('Password').fill('abcdefgh');
  await main.getByRole('button', { name: 'Sign Up' }).click();
  await expect(main.getByText('password must be strong')).toBeVisible();
  // The spec's words, and beside them what "strong" means.
  await expect(
    main.getByText('At least 6 characters, with an uppercase and a lowercase letter, a digit and one of ! @ # $ & *'),
  ).toBeVisible();
  await expect(main.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
});

test('a new patient signs up, is stored on the server, signs out and logs back in', async ({ page }) => {
  const email = uniqueEmail('newpatient');
  await signUpInBrowser(page, { name: 'Nina New', email, password: 'Strong#2026' });
  await expect(page.getByText('Create your account')).toBeVisible();
  await expect(page.getByText('Your account is created; we emailed you a link to verify your address.')).toBeVisible();
  await expect(page).toHaveURL('/');
  await expect(nav(page).getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(nav(page).getByRole('button', { name: 'Sign Out' })).toBeVisible();
  await expect.poll(() => page.evaluate(() => localStorage.getItem('accessToken'))).toBeTruthy();
  expect(queryD1<{ name: string; role: string }>(`SELECT name, role FROM users WHERE email = '${email}'`)).toEqual([
    { name: 'Nina New', role: 'patient' },
  ]);

  await nav(page).getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL('/');
  await expect(nav(page).getByRole('link', { name: 'Login' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();

  await nav(page).getByRole('link', { name: 'Login' }).click();
  await submitLogin(page, { email, password: 'Strong#2026' });
  await expect(page).toHaveURL('/');
  await expect(nav(page).getByRole('link', { name: 'Dashboard' })).toBeVisible();
});

test('a guarded page sends a signed-out visitor to Login and back after signing in', async ({ page }) => {
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login\?from=%2Fdashboard$/);
  await submitLogin(page, SEED_PATIENT);
  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByRole('heading', { name: 'My Appointments' })).toBeVisible();
  const side = page.getByRole('navigation', { name: 'Dashboard' });
  await expect(side.getByRole('link', { name: 'My Appointments' })).toBeVisible();
  await expect(side.getByRole('link', { name: 'All Users' })).toHaveCount(0);
});

test('a wrong password or an unknown email shows one plain message in red under the form', async ({ page }) => {
  // The sign-in provider refuses them (400), as it should: the browser logs that.
  expectConsoleErrors(page, /status of 400 .*accounts:signInWithPassword/);
  await page.goto('/login');
  await submitLogin(page, { email: 'nobody@clinic.test', password: 'Wrong#2026' });
  const alert = page.getByRole('main').getByRole('alert');
  await expect(alert).toHaveText('Email or password is incorrect');
  await page.reload();
  await submitLogin(page, { email: SEED_PATIENT.email, password: 'Wrong#2026' });
  await expect(alert).toHaveText('Email or password is incorrect');
  const colour = await alert.evaluate((el) => getComputedStyle(el).color);
  const [r, g, b] = colour.match(/\d+/g)!.map(Number);
  expect(r!).toBeGreaterThan(g! + 60);
  expect(r!).toBeGreaterThan(b! + 60);
});

test('a forgotten password is reset through the emulator’s emailed link', async ({ page }) => {
  const email = uniqueEmail('forgetful');
  await createAccount(email, 'Before#2026', 'Forgetful Fay');
  await page.goto('/login');
  await page.getByRole('main').getByRole('button', { name: 'Forgot password?' }).click();
  const dialog = page.getByRole('dialog', { name: 'Put here your email' });
  await expect(dialog).toHaveAccessibleDescription(
    'Forgot your password? Enter the email you signed up with and we will send you a link to choose a new one.',
  );
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByRole('button', { name: 'Reset' }).click();
  const sent = page.getByRole('dialog', { name: 'Please check your email and reset your password' });
  await expect(sent).toBeVisible();
  await sent.getByRole('button', { name: 'Ok' }).click();
  await expect(sent).toBeHidden();

  const [link] = await oobLinks(email);
  expect(link).toBeTruthy();
  const reset = await page.request.get(`${link}&newPassword=After%232026`);
  expect(await reset.json()).toMatchObject({
    authEmulator: { success: 'The password has been successfully updated.' },
  });

  await page.goto('/login');
  await submitLogin(page, { email, password: 'After#2026' });
  await expect(nav(page).getByRole('link', { name: 'Dashboard' })).toBeVisible();
});

test('Google sign-in through the emulator works for a new and a returning user', async ({ page }) => {
  // Google's gapi script cannot load offline; a postMessage stand-in carries the emulator's messages.
  await page
    .context()
    .route('https://apis.google.com/js/api.js*', (route) =>
      route.fulfill({ path: 'e2e/fixtures/gapi-shim.js', contentType: 'text/javascript' }),
    );
  // The emulator's own sign-in page asks for Google's fonts and styles, which cannot load offline, and
  // the SDK reports the stand-in gapi's iframe as an internal error; the sign-in completes all the same.
  expectConsoleErrors(page, /ERR_NAME_NOT_RESOLVED/, /uncaught Firebase: Error \(auth\/internal-error\)/);
  const email = uniqueEmail('googler');
  for (const round of ['new', 'returning']) {
    await page.goto('/login');
    const popupPromise = page.waitForEvent('popup');
    await page.getByRole('main').getByRole('button', { name: 'CONTINUE WITH GOOGLE' }).click();
    const popup = await popupPromise;
    await popup.waitForLoadState();
    if (round === 'new') {
      await popup.getByText('Add new account').click();
      await popup.locator('#email-input').fill(email);
      await popup.locator('#display-name-input').fill('Gina Google');
      await popup.getByText(/Sign in with Google\.com/).click();
    } else {
      await popup.getByText(email).click();
    }
    await expect(nav(page).getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('accessToken')), { message: round }).toBeTruthy();
    await nav(page).getByRole('button', { name: 'Sign Out' }).click();
    await expect(nav(page).getByRole('link', { name: 'Login' })).toBeVisible();
  }
  // Google accounts arrive verified.
  expect(queryD1<{ name: string }>(`SELECT name, email_verified FROM users WHERE email = '${email}'`)).toEqual([
    { name: 'Gina Google', email_verified: 1 },
  ]);
});

test('an admin promotes a user and deletes another after confirming', async ({ page, browser }) => {
  const promoted = uniqueEmail('promoted');
  const leaving = uniqueEmail('leaving');
  // Each signs in once on a device of their own, as two patients would.
  for (const [email, name] of [
    [promoted, 'Pro Moted'],
    [leaving, 'Lee Ving'],
  ] as const) {
    await createAccount(email, 'Strong#2026', name);
    await verifyAccount(email); // only a verified email can become admin
    const device = await browser.newContext();
    const own = await device.newPage();
    await own.goto('/login');
    await submitLogin(own, { email, password: 'Strong#2026' });
    await expect(nav(own).getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await nav(own).getByRole('button', { name: 'Sign Out' }).click();
    await expect(nav(own).getByRole('link', { name: 'Login' })).toBeVisible();
    await device.close();
  }

  await page.goto('/dashboard/all-users');
  await expect(page).toHaveURL(/\/login\?from=/);
  await submitLogin(page, SEED_ADMIN);
  await expect(page).toHaveURL('/dashboard/all-users');
  const table = page.getByRole('table', { name: 'Users' });
  const row = (email: string) => table.getByRole('row').filter({ hasText: email });
  await expect(row(SEED_ADMIN.email)).toContainText('You');
  await expect(row(SEED_ADMIN.email).getByRole('button', { name: 'Make Admin' })).toHaveCount(0);

  await row(promoted).getByRole('button', { name: 'Make Admin' }).click();
  await expect(page.getByText('Pro Moted is now an admin')).toBeVisible();
  await expect(row(promoted).getByRole('button', { name: 'Make Admin' })).toHaveCount(0);
  await expect(row(promoted)).toContainText('Admin');

  await row(leaving).getByRole('button', { name: 'Delete' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Lee Ving?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(row(leaving)).toBeVisible();
  await row(leaving).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete Lee Ving?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Lee Ving deleted')).toBeVisible();
  await expect(row(leaving)).toHaveCount(0);
  expect(queryD1(`SELECT id FROM users WHERE email = '${leaving}'`)).toEqual([]);
  expect(queryD1<{ role: string }>(`SELECT role FROM users WHERE email = '${promoted}'`)).toEqual([{ role: 'admin' }]);
});

test('a patient is sent away from the admin pages, told they are for clinic staff', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('main').getByText('That page is for clinic staff')).toHaveCount(0);
  await submitLogin(page, SEED_PATIENT);
  await expect(nav(page).getByRole('link', { name: 'Dashboard' })).toBeVisible();
  for (const path of ['/dashboard/all-users', '/dashboard/add-doctors', '/dashboard/manage-doctors']) {
    await page.goto(path);
    await expect(page).toHaveURL(`/login?from=${encodeURIComponent(path)}`);
    await expect(page.getByRole('main').getByRole('status')).toHaveText('That page is for clinic staff');
  }
});
