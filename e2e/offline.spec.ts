import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, expect, type Page } from '@playwright/test';
import config from './playwright.config.ts';
import {
  bookViaApi,
  clinicDate,
  createAccount,
  deliveredMails,
  logIn,
  payInBrowser,
  pickDay,
  queryD1,
  SEED_PATIENT,
  serviceWorkerActive,
  uniqueEmail,
  verifyAccount,
} from './support.ts';
import { test } from './test.ts';

// Offline, the app's code comes from the service worker's cache.
test.use({ serviceWorkers: 'allow' });

/** Fills the landing page's contact form and submits it; answers the form. */
async function writeToClinic(page: Page, message: { name: string; email: string; subject: string; text: string }) {
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Submit' }) });
  await form.getByLabel('Name').fill(message.name);
  await form.getByLabel('Email').fill(message.email);
  await form.getByLabel('Subject').fill(message.subject);
  await form.getByLabel('Your message').fill(message.text);
  await form.getByRole('button', { name: 'Submit' }).click();
  return form;
}

test('after one visit the home page opens with no network at all', async ({ page, context }) => {
  await page.goto('/');
  await serviceWorkerActive(page);
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByText('9.00 am to 5.00pm every day')).toBeVisible();
  await expect(page.getByText('You are offline', { exact: true })).toBeVisible();
  // The app shell works too: another route renders from the cache.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Login' }).click();
  await expect(page.getByRole('heading', { name: 'Login' })).toBeVisible();
  // A page with no frame gets the app shell from the cache, and the app renders it.
  const answer = await page.goto('/no/such/page');
  expect(answer?.fromServiceWorker()).toBe(true);
  expect(await answer?.text()).toContain('<div id="root"></div>');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await context.setOffline(false);
});

test('a signed-in patient’s appointments reload offline from this device, with a note', async ({ page, context }) => {
  await logIn(page, SEED_PATIENT);
  await bookViaApi(page, { treatment: 'Teeth Cleaning', date: clinicDate(16), slot: '02.00 PM - 02.30 PM' });
  await page.goto('/dashboard');
  const table = page.getByRole('table', { name: 'My appointments' });
  const row = table.getByRole('row').filter({ hasText: 'Teeth Cleaning' }).filter({ hasText: '02.00 PM - 02.30 PM' });
  await expect(row).toBeVisible();
  await serviceWorkerActive(page);

  await context.setOffline(true);
  // The service worker answers with the page's frame, as the Worker does online: it paints before any script.
  const answer = await page.reload();
  expect(answer?.fromServiceWorker()).toBe(true);
  expect(await answer?.text()).toMatch(/<div id="root" data-frame inert>.*<h1[^>]*>My Appointments<\/h1>/s);
  await expect(page.getByText(/^You are offline\. Showing your appointments as saved on /)).toBeVisible();
  await expect(row).toBeVisible();
  await expect(row.getByRole('link', { name: 'Pay' })).toHaveCount(0);
  await context.setOffline(false);
});

test('a contact message written offline is queued and arrives exactly once when the network returns', async ({
  page,
  context,
}) => {
  const text = `Written on the train ${Date.now()}`;
  await page.goto('/');
  await serviceWorkerActive(page);
  await context.setOffline(true);
  const form = await writeToClinic(page, {
    name: 'Offline Olga',
    email: 'olga@example.com',
    subject: 'Sent from a tunnel',
    text,
  });
  await expect(page.getByText('You are offline. Your message will be sent when the connection is back.')).toBeVisible();
  await expect(form.getByLabel('Your message')).toHaveValue('');
  expect(queryD1<{ n: number }>(`SELECT count(*) AS n FROM contact_messages WHERE message = '${text}'`)).toEqual([
    { n: 0 },
  ]);

  await context.setOffline(false);
  await expect(page.getByText('Your queued message was sent.')).toBeVisible();
  await expect
    .poll(() =>
      queryD1<{ n: number; mailed: number }>(
        `SELECT count(*) AS n, count(mailed_at) AS mailed FROM contact_messages WHERE message = '${text}'`,
      ),
    )
    .toEqual([{ n: 1, mailed: 1 }]);
  // A reload (the next start) sends nothing again.
  await page.reload();
  // biome-ignore lint/suspicious/noPlaywrightNetworkidle: "sends nothing again" can only be checked once the page has stopped sending.
  await page.waitForLoadState('networkidle');
  expect(queryD1<{ n: number }>(`SELECT count(*) AS n FROM contact_messages WHERE message = '${text}'`)).toEqual([
    { n: 1 },
  ]);
  expect(deliveredMails().filter((body) => body.includes(text))).toHaveLength(1);
});

test('where navigator.onLine says offline but the server answers (a loopback-only machine), a patient books, pays and writes to the clinic', async ({
  page,
  context,
}) => {
  // A patient of their own: the seed patient's unpaid bookings from other tests count against its limit.
  const patient = { email: uniqueEmail('loopback'), password: 'Strong#2026' };
  await createAccount(patient.email, patient.password, 'Loopback Lou');
  await verifyAccount(patient.email);
  await logIn(page, patient);
  // From here on every page of this context reads navigator.onLine as false, as Chromium does there.
  await context.addInitScript(() =>
    Object.defineProperty(Navigator.prototype, 'onLine', { configurable: true, get: () => false }),
  );
  const date = clinicDate(17);
  await page.goto('/appointment');
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);
  await pickDay(page, date);
  await page
    .getByRole('article', { name: 'Teeth Whitening' })
    .getByRole('button', { name: 'Book Appointment' })
    .click();
  const modal = page.getByRole('dialog', { name: 'Teeth Whitening' });
  await modal.getByLabel('Slot').selectOption('03.00 PM - 04.00 PM');
  await expect(modal.getByText('You are offline. Booking needs a connection.')).toHaveCount(0);
  await modal.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByText('Booking confirmed')).toBeVisible();
  const [booking] = queryD1<{ id: string }>(
    `SELECT id FROM bookings WHERE email = '${patient.email}' AND appointment_date = '${date}' AND status = 'active'`,
  );

  await payInBrowser(page, booking!.id);

  const text = `Written on a loopback-only machine ${Date.now()}`;
  await page.goto('/');
  await writeToClinic(page, { name: 'Loopback Lou', email: 'lou@example.com', subject: 'From the sandbox', text });
  await expect(page.getByText('Your email sending success!')).toBeVisible();
  expect(queryD1<{ n: number }>(`SELECT count(*) AS n FROM contact_messages WHERE message = '${text}'`)).toEqual([
    { n: 1 },
  ]);
});

test('Chromium reports no installability errors', async () => {
  const profile = mkdtempSync(join(tmpdir(), 'clinic-install-'));
  const context = await chromium.launchPersistentContext(profile, {
    ...config.use?.launchOptions,
    baseURL: 'http://127.0.0.1:8787',
  });
  try {
    const page = await context.newPage();
    await page.goto('/');
    await serviceWorkerActive(page);
    await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', /manifest\.webmanifest$/);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: unknown[];
    };
    expect(installabilityErrors).toEqual([]);
    const manifest = await (await page.request.get('/manifest.webmanifest')).json();
    expect(manifest).toMatchObject({
      name: 'Smile Dental Clinic',
      short_name: 'Smile Dental',
      start_url: '/',
      display: 'standalone',
    });
    const purposes = (manifest.icons as { sizes: string; purpose?: string }[]).map(
      (i) => `${i.sizes} ${i.purpose ?? 'any'}`,
    );
    expect(purposes).toEqual(expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']));
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

/**
 * An HTTP proxy in front of the clinic that, once `nextBuild()` is called, answers /sw.js as a next
 * build would: the same worker with one more line. pwa/dist is never touched. (Playwright's routing
 * cannot do this: the browser checks for a new service worker outside any page or worker it routes.)
 */
async function proxyWithNextBuild(upstream: URL) {
  let serveNextBuild = false;
  const proxy = createServer((request, response) => {
    const url = new URL(request.url ?? '/', upstream);
    const changed = serveNextBuild && url.pathname === '/sw.js';
    // The whole body (not a 304 for the old one), uncompressed, so a line can be added.
    const { 'if-none-match': _etag, 'if-modified-since': _date, ...unconditional } = request.headers;
    const headers = { ...(changed ? unconditional : request.headers), 'accept-encoding': 'identity' };
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: url.pathname + url.search,
        method: request.method,
        headers,
      },
      async (answer) => {
        if (!changed || answer.statusCode !== 200) {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
          return;
        }
        const chunks: Buffer[] = [];
        for await (const chunk of answer) chunks.push(chunk as Buffer);
        const { 'content-length': _length, etag: _oldEtag, ...answerHeaders } = answer.headers;
        response.writeHead(200, answerHeaders);
        response.end(`${Buffer.concat(chunks).toString()}\n// the next build\n`);
      },
    );
    forward.on('error', () => response.destroy());
    request.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    server: `http://127.0.0.1:${port}`,
    nextBuild: () => (serveNextBuild = true),
    close: () => new Promise((resolve) => proxy.close(resolve)),
  };
}

test('a new version offers a reload and nothing reloads by itself', async ({ browser }) => {
  const baseURL = config.use?.baseURL ?? 'http://127.0.0.1:8787';
  const proxy = await proxyWithNextBuild(new URL(baseURL));
  const context = await browser.newContext({ baseURL, proxy: { server: proxy.server } });
  try {
    const page = await context.newPage();
    await page.goto('/');
    await serviceWorkerActive(page);
    proxy.nextBuild();
    await page.reload();
    await page.evaluate(() => Object.assign(window, { stillTheSamePage: true }));
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations.push(frame.url());
    });

    await expect(page.getByText('A new version is available')).toBeVisible({ timeout: 20_000 });
    // The new worker has installed and waits: until the user's Reload (skipWaiting) it cannot take
    // over this open page, so nothing can reload it. The old worker still controls the page.
    expect(
      await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        const controller = navigator.serviceWorker.controller;
        return {
          waiting: registration?.waiting?.state,
          controlledByTheOldWorker: controller !== null && controller === registration?.active,
          stillTheSamePage: (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage,
        };
      }),
    ).toEqual({ waiting: 'installed', controlledByTheOldWorker: true, stillTheSamePage: true });
    expect(navigations).toEqual([]);

    const reloaded = page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame());
    await page.getByRole('button', { name: 'Reload' }).click();
    await reloaded;
    await page.waitForLoadState();
    expect(
      await page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage ?? false),
    ).toBe(false);
  } finally {
    await context.close();
    await proxy.close();
  }
});
