import { expect, type Page } from '@playwright/test';
import {
  apiPath,
  appTookOver,
  bookViaApi,
  clinicDate,
  createAccount,
  expectAccessible,
  logIn,
  queryD1,
  SEED_ADMIN,
  SEED_PATIENT,
  submitLogin,
  uniqueEmail,
  verifyAccount,
} from './support.ts';
import { test } from './test.ts';

// Offline, the app's code comes from the service worker's cache.
test.use({ serviceWorkers: 'allow' });

/** A new, verified patient signed in on `page`, with a root canal booked: its id and the patient's name. */
async function patientWithRootCanal(page: Page, day: number) {
  const email = uniqueEmail('forms');
  const name = `Rosa Forms ${Date.now()}`;
  await createAccount(email, 'Forms#2026', name);
  await verifyAccount(email);
  await logIn(page, { email, password: 'Forms#2026' });
  const id = await bookViaApi(page, {
    treatment: 'Root Canal Treatment',
    date: clinicDate(day),
    slot: '01.30 PM - 03.00 PM',
  });
  return { id, name };
}

const responses = (bookingId: string) =>
  queryD1<{ form_id: string }>(`SELECT form_id FROM form_responses WHERE booking_id = '${bookingId}' ORDER BY form_id`);

/** Checks a radio button by its label with the keyboard: focus, then Space. */
async function choose(page: Page, scope: ReturnType<Page['getByRole']>, question: string, answer: string) {
  await scope
    .getByRole('group', { name: new RegExp(`^${question}`) })
    .getByLabel(answer, { exact: true })
    .focus();
  await page.keyboard.press('Space');
}

test('at 320 px, keyboard only: a patient fills the medical history, then the consent offline, sent once back online', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 320, height: 640 });
  const { id } = await patientWithRootCanal(page, 47);
  await page.goto('/dashboard');
  await appTookOver(page);
  const link = page.getByRole('link', { name: '2 forms to fill before your visit' });
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Forms for your visit' })).toBeVisible();
  await expectAccessible(page, 'the forms page at 320 px');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  const history = page.getByRole('region', { name: /^Medical history/ });
  await expect(history.getByText('To fill')).toBeVisible();
  await choose(page, history, 'Are you allergic to penicillin\\?', 'Yes');
  await choose(page, history, 'Do you take blood thinners\\?', 'No');
  // A required question left out: the form says which, and takes the focus there.
  await history.getByRole('button', { name: 'Save' }).focus();
  await page.keyboard.press('Enter');
  await expect(history.getByRole('alert')).toHaveText('Please answer “Do you have a heart condition or a pacemaker?”');
  await page.keyboard.press('Space');
  await history.getByLabel('Which medicines do you take? One per line.').focus();
  await page.keyboard.type('Ibuprofen');
  await history.getByRole('button', { name: 'Save' }).focus();
  await page.keyboard.press('Enter');
  await expect(history.getByText('Saved: the clinic has your answers.')).toBeVisible();
  expect(responses(id)).toEqual([{ form_id: 'medical-history' }]);

  // The connection drops: the consent is kept on the phone and sent once it is back.
  await context.setOffline(true);
  const consent = page.getByRole('region', { name: /^Consent to root canal treatment/ });
  await choose(page, consent, 'I understand what the treatment involves', 'Yes');
  await consent.getByLabel('Type your full name to sign (required)').focus();
  await page.keyboard.type('Rosa Forms');
  await consent.getByRole('button', { name: 'Save' }).focus();
  await page.keyboard.press('Enter');
  await expect(consent.getByText('Saved on this phone, will be sent when you are back online.')).toBeVisible();
  expect(responses(id)).toEqual([{ form_id: 'medical-history' }]);
  await context.setOffline(false);
  await expect(page.getByText('Your “Consent to root canal treatment” form was sent to the clinic.')).toBeVisible();
  await expect.poll(() => responses(id)).toEqual([{ form_id: 'medical-history' }, { form_id: 'root-canal-consent' }]);
  await page.reload();
  // biome-ignore lint/suspicious/noPlaywrightNetworkidle: "sent once" can only be checked once the page has stopped sending.
  await page.waitForLoadState('networkidle');
  expect(responses(id)).toHaveLength(2);
  await expect(
    page.getByRole('region', { name: /^Consent to root canal treatment/ }).getByText('Filled'),
  ).toBeVisible();
});

test('the front desk sees the alert, hands the tablet over for the missing form, and it locks showing no patient', async ({
  page,
  browser,
}) => {
  const { id, name } = await patientWithRootCanal(page, 48);
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const saved = await page.request.put(
    apiPath('PUT /bookings/:id/forms/:formId', { params: { id, formId: 'medical-history' } }),
    {
      headers: { Authorization: `Bearer ${token}` },
      data: { answers: { penicillin: true, 'blood-thinners': false, heart: false } },
    },
  );
  expect(saved.status()).toBe(200);

  const tablet = await (await browser.newContext({ viewport: { width: 768, height: 1024 } })).newPage();
  await logIn(tablet, SEED_ADMIN);
  await tablet.goto('/dashboard/schedule');
  await tablet.getByLabel('Day', { exact: true }).fill(clinicDate(48));
  const block = tablet.getByRole('button', {
    name: new RegExp(`13:30–15:00 ${name} Root Canal Treatment.*Penicillin allergy.*Forms missing`),
  });
  await block.click();
  const details = tablet.getByRole('dialog', { name: `${name}: Root Canal Treatment` });
  await expect(details.getByText('Missing: Consent to root canal treatment')).toBeVisible();
  await details.getByText('Forms and answers').click();
  await expect(details.getByRole('region', { name: 'Medical history' })).toContainText(
    'Are you allergic to penicillin?Yes',
  );
  await details.getByRole('button', { name: `Hand the tablet to ${name} for their forms` }).click();

  // Kiosk: this patient's missing form only, no menu, and no other route. The staff are signed out of the
  // browser: a new tab on the tablet opens the kiosk too, never All Users.
  await expect(tablet.getByRole('heading', { level: 1, name: `Forms for ${name}` })).toBeVisible();
  await expect(tablet.getByRole('region', { name: /^Medical history/ })).toHaveCount(0);
  await expect(tablet.getByRole('navigation')).toHaveCount(0);
  expect(await tablet.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
  await expectAccessible(tablet, 'the kiosk');
  const newTab = await tablet.context().newPage();
  await newTab.goto('/dashboard/all-users');
  await expect(newTab.getByRole('heading', { level: 1, name: `Forms for ${name}` })).toBeVisible();
  await expect(newTab.getByRole('heading', { name: 'All Users' })).toHaveCount(0);
  await newTab.close();
  await tablet.goto('/dashboard/schedule');
  await expect(tablet.getByRole('heading', { level: 1 })).not.toHaveText('Schedule');
  const consent = tablet.getByRole('region', { name: /^Consent to root canal treatment/ });
  await consent
    .getByRole('group', { name: /^I understand/ })
    .getByLabel('Yes', { exact: true })
    .check();
  await consent.getByLabel('Type your full name to sign (required)').fill(name);
  await consent.getByRole('button', { name: 'Save' }).click();
  await expect(consent.getByText('Saved: the clinic has your answers.')).toBeVisible();
  await tablet.getByRole('button', { name: 'I’m done: lock the tablet' }).click();

  // Locked: no patient's data anywhere until staff sign in again.
  await expect(tablet.getByRole('heading', { level: 1, name: 'Thank you' })).toBeVisible();
  for (const path of ['/dashboard/schedule', '/dashboard', `/kiosk/${id}`]) {
    await tablet.goto(path);
    await expect(tablet.getByRole('heading', { level: 1, name: 'Thank you' })).toBeVisible();
    await expect(tablet.getByText(name)).toHaveCount(0);
  }
  // Only a staff sign-in ends kiosk mode: a patient signing in is signed out again, and the lock stays.
  await tablet.getByRole('button', { name: 'Staff sign-in' }).click();
  await expect(tablet).toHaveURL(/\/login$/);
  await submitLogin(tablet, SEED_PATIENT);
  await expect(tablet.getByText('Only the clinic’s staff can unlock this tablet')).toBeVisible();
  await expect(tablet.getByRole('heading', { level: 1, name: 'Thank you' })).toBeVisible();
  await tablet.getByRole('button', { name: 'Staff sign-in' }).click();
  await submitLogin(tablet, SEED_ADMIN);
  await expect(tablet.getByRole('heading', { level: 1, name: 'Schedule' })).toBeVisible();
  expect(responses(id)).toEqual([{ form_id: 'medical-history' }, { form_id: 'root-canal-consent' }]);
});
