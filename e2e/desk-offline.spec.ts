import { expect, type Page } from '@playwright/test';
import { apiPath, clinicDate, logIn, pp, queryD1, SEED_ADMIN, serviceWorkerActive } from './support.ts';
import { expectConsoleErrors, test } from './test.ts';

// Offline, the app's code comes from the service worker's cache.
test.use({ serviceWorkers: 'allow' });

/**
 * docs/product-admin.md#the-front-desk-offline: the front desk's schedule stays on its device for today
 * and the next two days; offline, marks wait in the outbox with the visit's version and are sent
 * once, or refused in plain words when the visit changed meanwhile.
 */

/**
 * A patient of their own with a cleaning today that has started (the clinic's records, as the desk
 * sees them), with the doctor given (each test its own column: blocks at one time never overlap).
 */
function startedVisitToday(name: string, doctorId: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: 'America/New_York',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  }).formatToParts(new Date());
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const minute = part('hour') * 60 + part('minute');
  const start = Math.max(0, minute - (minute % 15) - 60);
  const id = `desk-${crypto.randomUUID().slice(0, 8)}`;
  const email = `${id}@example.com`;
  queryD1(
    `INSERT INTO users (id, email, name, role, email_verified) VALUES ('${id}-user', '${email}', '${name}', 'patient', 1)`,
  );
  queryD1(
    `INSERT INTO bookings (id, treatment_id, treatment, appointment_date, slot, start_minute, duration_minutes, doctor_id,
       chair_id, user_id, patient_name, email, price_cents, paid)
     SELECT '${id}', 'teeth-cleaning', 'Teeth Cleaning', '${clinicDate(0)}', 'today', ${start}, 30, '${doctorId}',
       (SELECT id FROM chairs ORDER BY position, id LIMIT 1), '${id}-user', '${name}', '${email}', 8000, 1`,
  );
  return id;
}

const marks = (id: string) =>
  queryD1<{ action: string }>(`SELECT action FROM audit_log WHERE target_id = '${id}' AND action = 'booking.attended'`);

/** The schedule of today, loaded online (so kept), then reloaded with no network: the kept copy, "as of". */
async function scheduleOffline(page: Page, name: string) {
  await page.setViewportSize({ width: 768, height: 1024 });
  await logIn(page, SEED_ADMIN, '/dashboard/schedule');
  await expect(page).toHaveURL(/\/dashboard\/schedule/);
  const block = page.getByRole('button', { name: new RegExp(`${name} Teeth Cleaning`) });
  await expect(block).toBeVisible();
  await serviceWorkerActive(page);
  await page.context().setOffline(true);
  await page.reload();
  await expect(page.getByText(/^Offline: the schedule as of /)).toBeVisible();
  await expect(block).toBeVisible();
  return block;
}

/** Marks the visit attended from its details, offline: it waits on this device. */
async function markOffline(page: Page, block: ReturnType<Page['getByRole']>, name: string) {
  await block.click();
  const details = page.getByRole('dialog', { name: `${name}: Teeth Cleaning` });
  await expect(details.getByText(/payments, moving and cancelling need the connection/)).toBeVisible();
  await expect(details.getByRole('button', { name: 'Reschedule' })).toHaveCount(0);
  await details.getByRole('button', { name: 'Mark attended' }).click();
  await expect(
    page.getByText(`Saved on this device: ${name} will be marked as attended when the connection is back.`),
  ).toBeVisible();
  const waiting = page.getByRole('region', { name: 'On this device' });
  await expect(waiting).toContainText(`${name} marked as attended`);
  return waiting;
}

test('offline, the front desk reloads today’s schedule “as of”, marks a visit attended, and it is applied once back online', async ({
  page,
}) => {
  const name = `Olive ${Date.now() % 10000}`;
  const id = startedVisitToday(name, 'dr-sofia-alvarez');
  const block = await scheduleOffline(page, name);
  const waiting = await markOffline(page, block, name);
  expect(marks(id)).toEqual([]);
  // The block shows the mark at once, and offers it no second time.
  const marked = page.getByRole('button', {
    name: new RegExp(`${name} Teeth Cleaning.*Attended \\(on this device, not sent yet\\)`),
  });
  await expect(marked).toBeVisible();
  await marked.click();
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Mark attended' })).toBeDisabled();
  await page.keyboard.press('Escape');

  await page.context().setOffline(false);
  await expect(page.getByText(`Sent: ${name} marked as attended.`)).toBeVisible();
  await expect(waiting).toHaveCount(0);
  await expect.poll(() => marks(id)).toHaveLength(1);
  // Sent, the schedule is fetched again: the block says Attended without a reload.
  const attended = page.getByRole('button', { name: new RegExp(`${name} Teeth Cleaning.*Attended`) });
  await expect(attended).toBeVisible();
  await expect(attended).not.toHaveAccessibleName(/not sent yet/);
  await page.reload();
  await expect(page.getByRole('button', { name: new RegExp(`${name} Teeth Cleaning.*Attended`) })).toBeVisible();
  // biome-ignore lint/suspicious/noPlaywrightNetworkidle: "applied once" can only be checked once the page has stopped sending.
  await page.waitForLoadState('networkidle');
  expect(marks(id)).toHaveLength(1);

  // The day is in the address: a bookmark opens it (on a desktop); a sign-out leaves no schedule on the device.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/dashboard/schedule?date=${clinicDate(38)}`);
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(pp(clinicDate(38))) })).toBeVisible();
  await expect(page.getByLabel('Day', { exact: true })).toHaveValue(clinicDate(38));
  const kept = () =>
    page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('smile-dental');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const count = open.result.transaction('savedSchedules').objectStore('savedSchedules').count();
            count.onsuccess = () => {
              resolve(count.result);
              open.result.close();
            };
          };
        }),
    );
  await expect.poll(kept).toBeGreaterThanOrEqual(3);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign Out' }).click();
  await expect(page).toHaveURL(/\/login|\/$/);
  await expect.poll(kept).toBe(0);
});

test('a mark that waited offline is refused in plain words when the visit was moved meanwhile', async ({
  page,
  browser,
}) => {
  // The server refuses the mark made for the visit as it was (409), which this test is about.
  expectConsoleErrors(page, /status of 409 .*\/api\/bookings\/[^/]+\/attendance$/);
  const name = `Mona ${Date.now() % 10000}`;
  const id = startedVisitToday(name, 'dr-hiro-tanaka');
  const block = await scheduleOffline(page, name);
  await markOffline(page, block, name);

  // Meanwhile, another desk (online) moves the visit to another day.
  const desk = await (await browser.newContext()).newPage();
  await logIn(desk, SEED_ADMIN);
  const to = clinicDate(38);
  const moved = await desk.evaluate(
    async ({ to, free, move }) => {
      const token = localStorage.getItem('accessToken');
      const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
      const options = await (await fetch(free)).json();
      const slot = options.find((o: { _id: string }) => o._id === 'teeth-cleaning').slots[0];
      const response = await fetch(move, {
        method: 'POST',
        headers,
        body: JSON.stringify({ appointmentDate: to, slot }),
      });
      return { status: response.status, slot };
    },
    {
      to,
      free: apiPath('GET /appointmentOptions', { query: { date: to } }),
      move: apiPath('POST /bookings/:id/reschedule', { params: { id } }),
    },
  );
  expect(moved.status).toBe(200);
  await desk.context().close();

  await page.context().setOffline(false);
  const refusal = `Not saved: ${name} marked as attended. While this waited, the visit was moved to ${pp(to)}, ${moved.slot}: nothing was saved. Use the visit at its new time.`;
  await expect(page.getByText(refusal).first()).toBeVisible();
  const kept = page.getByRole('region', { name: 'On this device' });
  await expect(kept).toContainText('While this waited, the visit was moved');
  expect(marks(id)).toEqual([]);
  expect(
    queryD1<{ status: string }>(`SELECT status FROM bookings WHERE moved_to IS NULL AND calendar_uid = '${id}'`),
  ).toEqual([{ status: 'active' }]);
  await kept.getByRole('button', { name: 'Dismiss' }).click();
  await expect(kept).toHaveCount(0);
});
