import { expect, type Page } from '@playwright/test';
import {
  bookViaApi,
  clinicDate,
  createAccount,
  deliveredMails,
  expectAccessible,
  logIn,
  payViaApi,
  queryD1,
  SEED_ADMIN,
  uniqueEmail,
  verifyAccount,
} from './support.ts';
import { test } from './test.ts';

/** A new, verified patient signed in on `page`: their email, name and id. */
async function newPatient(page: Page, who: string) {
  const email = uniqueEmail(who);
  const name = `${who} ${Date.now()}`;
  await createAccount(email, 'Recall#2026', name);
  await verifyAccount(email);
  await logIn(page, { email, password: 'Recall#2026' });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'My Appointments' })).toBeVisible();
  const [row] = queryD1<{ id: string }>(`SELECT id FROM users WHERE email = '${email}'`);
  return { email, name, id: row?.id ?? '' };
}

/** The address of the link labelled `label` in the newest mail that contains `text`, once it is delivered. */
async function linkInMail(text: string, label: string): Promise<string> {
  let found = '';
  await expect
    .poll(() => {
      const mail = deliveredMails().find((body) => body.includes(text));
      found = mail?.match(new RegExp(`^${label}: (http\\S+)$`, 'm'))?.[1] ?? '';
      return found;
    })
    .not.toBe('');
  return new URL(found).pathname;
}

const runCron = (page: Page, at?: number) =>
  page.request.get(`/cdn-cgi/local/scheduled?cron=*/5+*+*+*+*${at === undefined ? '' : `&time=${at}`}`);

test('a recall message books the check-up in two taps; the front desk sees it booked', async ({ page, browser }) => {
  const patient = await newPatient(page, 'Recalled');
  const admin = await (await browser.newContext()).newPage();
  await logIn(admin, SEED_ADMIN);
  // The front desk adds the recall by hand: the patient found by name, the treatment, the due date.
  await admin.goto('/dashboard/recalls');
  const form = admin.getByRole('form', { name: 'Add a recall' });
  await form.getByLabel('Find the patient by name or email').fill(patient.name);
  await form.getByRole('radio', { name: new RegExp(patient.name) }).check();
  await form.getByLabel('Treatment').selectOption({ label: 'Dental Check-up' });
  await form.getByLabel('Due date').fill(clinicDate(10));
  await form.getByRole('button', { name: 'Add recall' }).click();
  await expect(admin.getByText(`Recall added for ${patient.name}`)).toBeVisible();
  expect((await runCron(page)).status()).toBe(200);

  // Tap one: the link in the mail. Tap two: a proposed time.
  const link = await linkInMail(`Dear ${patient.name},`, 'Other times');
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a time' })).toBeVisible();
  const times = page
    .getByRole('list')
    .filter({ has: page.getByRole('button', { name: /AM|PM/ }) })
    .getByRole('button');
  await expect(times).toHaveCount(3);
  await expectAccessible(page, 'a recall link');
  await times.first().click();
  await expect(page.getByText(/^Booked: Dental Check-up on /)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Pay now' })).toBeVisible();
  expect(queryD1<{ status: string }>(`SELECT status FROM recalls WHERE patient_id = '${patient.id}'`)).toEqual([
    { status: 'booked' },
  ]);

  // The front desk's recall screen, on a tablet and a desktop.
  for (const viewport of [
    { width: 768, height: 1024 },
    { width: 1280, height: 800 },
  ]) {
    await admin.setViewportSize(viewport);
    await admin.goto('/dashboard/recalls');
    await expect(admin.getByRole('heading', { level: 1, name: 'Recall' })).toBeVisible();
    await admin.getByRole('button', { name: 'Booked' }).click();
    await expect(admin.getByRole('heading', { name: `${patient.name}: Dental Check-up` })).toBeVisible();
    await expect(admin.getByText(/^Recall compliance: /)).toBeVisible();
    expect(await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible(admin, `the recall screen at ${viewport.width} px`);
  }
});

test('the reminder’s “I’m coming” confirms without signing in; the schedule shows it at a glance', async ({
  page,
  browser,
}) => {
  const date = clinicDate(43);
  const patient = await newPatient(page, 'Confirming');
  const id = await bookViaApi(page, { treatment: 'Dental Check-up', date, slot: '11.00 AM - 11.30 AM' });
  await payViaApi(page, id);
  // The reminders are written by the messages consumer, from the booking's event on the queue.
  const reminders = () =>
    queryD1<{ due_at: string }>(`SELECT due_at FROM reminders WHERE booking_id = '${id}' AND kind = '24h'`);
  await expect.poll(() => reminders().length).toBe(1);
  const [reminder] = reminders();
  expect((await runCron(page, Date.parse(reminder?.due_at ?? ''))).status()).toBe(200);
  const link = await linkInMail(`Dear ${patient.name},\n\nThis is a reminder`, "I'm coming");

  // From the mail, on a phone where nobody is signed in.
  const phone = await (await browser.newContext({ viewport: { width: 360, height: 740 } })).newPage();
  await phone.goto(link);
  await expect(phone.getByRole('heading', { level: 1, name: 'Are you coming?' })).toBeVisible();
  await phone.getByRole('button', { name: "Yes, I'm coming" }).click();
  await expect(phone.getByText('Thank you: the clinic knows you are coming.')).toBeVisible();
  await expectAccessible(phone, 'a confirmed reminder link');

  const admin = await (await browser.newContext()).newPage();
  await logIn(admin, SEED_ADMIN);
  await admin.goto('/dashboard/schedule');
  await admin.getByLabel('Day', { exact: true }).fill(date);
  await expect(admin.getByRole('heading', { name: /^Confirmations: 1 of \d+ confirmed$/ })).toBeVisible();
  const block = admin.getByRole('button', {
    name: new RegExp(`11:00–11:30 ${patient.name} Dental Check-up.*Confirmed`),
  });
  await expect(block).toBeVisible();
  await block.click();
  await expect(admin.getByRole('dialog', { name: `${patient.name}: Dental Check-up` })).toContainText('Coming');
});
