import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type BrowserContext, expect, type Locator, type Page, type Request } from '@playwright/test';
import { format } from 'date-fns';
import type { RouteKey } from '../contract/routes.ts';
import { pathOf } from '../pwa/src/lib/route-paths.ts';
import { markEmailVerified, oobCodes } from '../scripts/auth-emulator.ts';
import { queryLocalD1 } from '../scripts/local-d1.ts';

/** A route's address under /api, typed from the route table as the app's client is (pwa/src/lib/route-paths.ts). */
export const apiPath = ((route: RouteKey, where?: object) =>
  `/api${(pathOf as (route: RouteKey, where?: object) => string)(route, where)}`) as typeof pathOf;

/** Reads the test stack's local D1. */
export function queryD1<Row>(sql: string): Row[] {
  const stateDir = process.env.E2E_STATE_DIR;
  if (!stateDir) throw new Error('E2E_STATE_DIR is not set; run the browser tests through their config');
  return queryLocalD1<Row>(stateDir, sql);
}

/** The plain-text bodies of the mails the local send_email binding delivered in this run. */
export function deliveredMails(): string[] {
  const root = '.wrangler/tmp/email';
  const bodies: string[] = [];
  let sessions: string[] = [];
  try {
    sessions = readdirSync(root);
  } catch {
    return bodies;
  }
  for (const session of sessions) {
    const dir = join(root, session, 'email-text');
    let files: string[] = [];
    try {
      files = readdirSync(dir);
    } catch {
      continue;
    }
    for (const file of files) bodies.push(readFileSync(join(dir, file), 'utf8'));
  }
  return bodies;
}

/**
 * The network fails for the whole browser context, as when a phone drops its connection: every
 * request is aborted, whatever the browser's own offline flag says (on a machine whose only network
 * is loopback Chromium believes it is offline from the start, and going offline fires no event).
 */
export async function networkDown(context: BrowserContext): Promise<void> {
  await context.route('**/*', (route) => route.abort('internetdisconnected'));
}

const counters = new WeakMap<Page, () => number>();

/**
 * Counts the page's requests still on their way, from the first time it is asked for that page (one counter per
 * page): a test that drops the network waits for none, so that what fails first is the request it means, not one
 * the page had under way.
 */
export function requestsInFlight(page: Page): () => number {
  const known = counters.get(page);
  if (known) return known;
  const open = new Set<Request>();
  page.on('request', (request) => open.add(request));
  const done = (request: Request) => open.delete(request);
  page.on('requestfinished', done);
  page.on('requestfailed', done);
  const count = () => open.size;
  counters.set(page, count);
  return count;
}

/**
 * Resolves once none of the page's requests (as `requestsInFlight` counts them) has been on its way for
 * `quietMs`: the page has loaded its lazy chunks and data, and what those started. Like Playwright's
 * `networkidle`, which waits 500 ms, but as long as the page needs.
 */
export async function networkQuiet(inFlight: () => number, quietMs = 150): Promise<void> {
  let quietSince = Date.now();
  while (true) {
    if (inFlight() > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The network is back. */
export async function networkUp(context: BrowserContext): Promise<void> {
  await context.unrouteAll({ behavior: 'ignoreErrors' });
}

const AUTH = 'http://127.0.0.1:9099';

/** An account in the auth emulator, as if the person had signed up elsewhere (its email not verified yet). */
export async function createAccount(email: string, password: string, displayName: string): Promise<void> {
  const response = await fetch(`${AUTH}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=local-emulator`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, displayName }),
  });
  if (!response.ok) throw new Error(`could not create ${email}: ${await response.text()}`);
}

/** Verifies an account's email in the emulator, as opening the link of its verification mail would. */
export async function verifyAccount(email: string): Promise<void> {
  await markEmailVerified(email);
}

/** The out-of-band links (password-reset or verification mails) the emulator would have sent to `email`. */
export async function oobLinks(
  email: string,
  requestType: 'PASSWORD_RESET' | 'VERIFY_EMAIL' | 'EMAIL_SIGNIN' = 'PASSWORD_RESET',
): Promise<string[]> {
  return (await oobCodes()).filter((c) => c.email === email && c.requestType === requestType).map((c) => c.oobLink);
}

export const uniqueEmail = (who: string) => `${who}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

/** A calendar date in the clinic's zone, `days` from today, as yyyy-MM-dd. */
export function clinicDate(days: number): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/New_York' }).format(new Date());
  const date = new Date(`${today}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

const asDate = (iso: string) => new Date(`${iso}T12:00:00`);
/** A yyyy-MM-dd date as the app shows it (date-fns PP). */
export const pp = (iso: string) => format(asDate(iso), 'PP');

/**
 * In a booking calendar (the Appointment page's, or a dialog's), picks a day, moving on as many
 * months as it is ahead (the booking horizon reaches into the third month from today); with
 * `keyboard`, by focusing each button and pressing Enter, as a keyboard user does.
 */
export async function pickDayIn(scope: Page | Locator, iso: string, { keyboard = false } = {}) {
  const page = 'page' in scope ? scope.page() : scope;
  const press = async (button: Locator) => {
    if (!keyboard) return button.click();
    await button.focus();
    await page.keyboard.press('Enter');
  };
  const month = scope.getByRole('grid', { name: format(asDate(iso), 'MMMM yyyy') });
  for (let step = 0; step < 3 && !(await month.isVisible()); step += 1) {
    await press(scope.getByRole('button', { name: 'Go to the Next Month' }));
  }
  const name = format(asDate(iso), 'EEEE, MMMM d, yyyy');
  await press(month.getByRole('button', { name: new RegExp(`^(Today, )?${name}`) }));
}

/** On the Appointment page, picks a day in the calendar (see pickDayIn) and waits for its times. */
export async function pickDay(page: Page, iso: string, { keyboard = false } = {}) {
  // The Worker may have sent the page whole: it takes a tap or a key once the app has taken it over.
  await appTookOver(page);
  await expect(page.getByRole('heading', { name: /^Available Appointments on/ })).toBeVisible();
  await pickDayIn(page, iso, { keyboard });
  await expect(page.getByRole('heading', { name: `Available Appointments on ${pp(iso)}` })).toBeVisible();
}

export const SEED_PATIENT = { email: 'patient@clinic.test', password: 'Patient#2026' };
export const SEED_ADMIN = { email: 'admin@clinic.test', password: 'Admin#2026' };

/** Signs up through the Sign Up page, as a new patient would. */
export async function signUpInBrowser(page: Page, who: { name: string; email: string; password: string }) {
  await page.goto('/signup');
  const main = page.getByRole('main');
  await main.getByLabel('Name').fill(who.name);
  await main.getByLabel('Email').fill(who.email);
  await main.getByLabel('Password').fill(who.password);
  await main.getByRole('button', { name: 'Sign Up' }).click();
}

/** Fills in and submits the Login form on the current page. */
export async function submitLogin(page: import('@playwright/test').Page, who: { email: string; password: string }) {
  const main = page.getByRole('main');
  await main.getByLabel('Email').fill(who.email);
  await main.getByLabel('Password').fill(who.password);
  await main.getByRole('button', { name: 'Login', exact: true }).click();
}

/** Opens `path` (a guarded page leads to Login), signs in and waits until the Worker's access token is stored. */
export async function logIn(
  page: import('@playwright/test').Page,
  who: { email: string; password: string },
  path = '/login',
) {
  await page.goto(path);
  await submitLogin(page, who);
  await page.waitForFunction(() => Boolean(localStorage.getItem('accessToken')));
}

/** Books through the API as the signed-in page's user; answers the new booking's id. */
export async function bookViaApi(
  page: import('@playwright/test').Page,
  { date, ...booking }: { treatment: string; date: string } & ({ slot: string } | { start: string }),
) {
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  const response = await page.request.post(apiPath('POST /bookings'), {
    headers: { Authorization: `Bearer ${token}` },
    data: { ...booking, appointmentDate: date, phone: '555-0100' },
  });
  if (response.status() !== 201) throw new Error(`booking failed: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { insertedId: string }).insertedId;
}

type OpenPayment = { id: string; headers: Record<string, string>; clientSecret: string };

/** Asks for booking `id`'s payment (its client secret), as the payment page does on load. */
async function openPayment(page: import('@playwright/test').Page, id: string): Promise<OpenPayment> {
  const headers = { Authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('accessToken'))}` };
  const intent = await page.request.post(apiPath('POST /create-payment-intent'), { headers, data: { bookingId: id } });
  const { clientSecret } = (await intent.json()) as { clientSecret: string };
  return { id, headers, clientSecret };
}

/** Pays an opened payment with the demo card 4242 and records it with the Worker. */
async function completePayment(page: import('@playwright/test').Page, { id, headers, clientSecret }: OpenPayment) {
  const card = { number: '4242424242424242', expMonth: 12, expYear: 2040, cvc: '123' };
  const confirmed = await page.request.post(apiPath('POST /demo-payments/confirm'), {
    headers,
    data: { clientSecret, card },
  });
  const { paymentIntent } = (await confirmed.json()) as { paymentIntent: { id: string } };
  const recorded = await page.request.post(apiPath('POST /payments'), {
    headers,
    data: { transactionId: paymentIntent.id, bookingId: id },
  });
  const { refundDue } = (await recorded.json()) as { refundDue?: boolean };
  return { transactionId: paymentIntent.id, refundDue: refundDue === true };
}

/**
 * As the signed-in page's patient, in the browser: opens booking `id`'s payment page, pays with the
 * demo card 4242 and waits for the confirmation; answers the page's main region.
 */
export async function payInBrowser(page: Page, id: string) {
  await page.goto(`/dashboard/payment/${id}`);
  const main = page.getByRole('main');
  await main.getByLabel('Card number').fill('4242 4242 4242 4242');
  await main.getByLabel('Expiry (MM/YY)').fill('12/34');
  await main.getByLabel('CVC').fill('123');
  await main.getByRole('button', { name: 'Pay' }).click();
  await expect(main.getByText('Congrats your payment completed')).toBeVisible();
  // The page then shows the receipt: wait for it, so the next click is not on a link being replaced.
  await expect(main.getByRole('article', { name: 'Receipt' })).toBeVisible();
  return main;
}

/** As the signed-in page's patient, through the API: pays booking `id` with the demo card. */
export async function payViaApi(page: import('@playwright/test').Page, id: string) {
  const { refundDue } = await completePayment(page, await openPayment(page, id));
  if (refundDue) throw new Error(`booking ${id} could not be paid`);
}

/**
 * As the signed-in page's patient, through the API: books, opens the payment (its client secret),
 * cancels the booking, then pays it with the demo card, as when a card is charged while the
 * booking is being cancelled. The payment is recorded and refunded at once; answers the booking's
 * id and the payment's.
 */
export async function refundDueViaApi(
  page: import('@playwright/test').Page,
  booking: { treatment: string; date: string; slot: string },
) {
  const payment = await openPayment(page, await bookViaApi(page, booking));
  await page.request.delete(apiPath('DELETE /bookings/:id', { params: { id: payment.id } }), {
    headers: payment.headers,
  });
  const { transactionId, refundDue } = await completePayment(page, payment);
  if (!refundDue) throw new Error(`no refund due for ${payment.id}`);
  return { bookingId: payment.id, transactionId };
}

// axe-core's own script, put into a page once per document (a navigation within the app keeps it). Giving it
// again with every check, as @axe-core/playwright does, cost 0.5–1 s a check of parsing 0.6 MB, against
// 0.1–0.4 s for the check itself.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The tags of WCAG 2.2 level A and AA success criteria in axe-core. */
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

type AxeViolation = { id: string; impact?: string | null; help: string; tags: string[]; nodes: { target: string[] }[] };

/**
 * Fails on any serious or critical axe-core violation of the page as it is now, by any of axe's rules (the
 * experimental and AAA ones included, which axe leaves off by default), and on any violation at all of a
 * WCAG 2.2 A or AA success criterion.
 */
export async function expectAccessible(page: Page, what: string) {
  // Colours still easing (a button just pressed: 0.2 s) would be judged halfway: let them end first.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation instanceof CSSTransition)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  // Only the violations in full: the passes' nodes would be collected and sent over for nothing.
  const violations = await page.evaluate(async () => {
    const { axe } = window as unknown as {
      axe: {
        getRules(): { ruleId: string }[];
        run(context: Document, options: object): Promise<{ violations: AxeViolation[] }>;
      };
    };
    const rules = Object.fromEntries(axe.getRules().map(({ ruleId }) => [ruleId, { enabled: true }]));
    const { violations } = await axe.run(document, { rules, resultTypes: ['violations'] });
    return violations.map(({ id, impact, help, tags, nodes }) => ({
      id,
      impact,
      help,
      tags,
      nodes: nodes.map(({ target }) => ({ target })),
    }));
  });
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical' || v.tags.some((tag) => WCAG_22_AA.includes(tag)))
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .slice(0, 3)
          .map((n) => n.target.join(' '))
          .join(' | ')}`,
    );
  expect(serious, what).toEqual([]);
}

/** Waits until this page's service worker is installed, active and in charge of the page (it registers after load). */
export async function serviceWorkerActive(page: Page) {
  await expect
    .poll(() => page.evaluate(async () => (await navigator.serviceWorker.getRegistration())?.active?.state ?? 'none'), {
      timeout: 20_000,
    })
    .toBe('activated');
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/**
 * Waits until the app has taken over the page the Worker sent: a frame, or My Appointments and the payment page
 * rendered with the patient's data, look ready at once but are inert (no focus, no tap) until then. For the
 * keyboard-only specs: a focus() does not wait as a click does.
 */
export async function appTookOver(page: Page) {
  // Hydration waits for the app's files and data: on a loaded machine that can take more than the usual 10 s.
  await expect(page.locator('#root')).not.toHaveAttribute('inert', { timeout: 30_000 });
}
