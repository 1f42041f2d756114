import { expect, type Locator, type Page } from '@playwright/test';
import {
  bookViaApi,
  clinicDate,
  createAccount,
  expectAccessible,
  logIn,
  networkQuiet,
  payViaApi,
  pickDay,
  refundDueViaApi,
  requestsInFlight,
  SEED_ADMIN,
  uniqueEmail,
  verifyAccount,
} from './support.ts';
import { expectConsoleErrors, test } from './test.ts';

// docs/product.md#layouts: every page fits a phone (320–430 px) and a tablet with nothing off-screen,
// and works on a desktop up to 1920 px; at every size no word is broken inside and no text is
// clipped (the layout sweep: 360, 768, 1280 and 1920 px, and the smallest phone, 320 px). Phones and
// tablets are emulated as such (isMobile: a page wider than the screen would widen the layout
// viewport, so innerWidth is checked too). At a phone's size and a desktop's, the same walk judges
// each page and dialog with axe (docs/testing.md#accessibility-layout-and-hardening): one walk opens every page once.
const PHONES_AND_TABLET = [
  { width: 320, height: 568 },
  { width: 360, height: 740 },
  { width: 768, height: 1024 },
];
const DESKTOPS = [
  { width: 1280, height: 800 },
  { width: 1920, height: 1080 },
];

// Its tests shared out between the workers rather than left to one, the suite's longest file: each works on data of
// its own (an account and days of its own; dialogs it opens and closes unchanged).
test.describe.configure({ mode: 'parallel' });

/** The widths at which the sweep also runs axe on what it opens: a phone's and a desktop's. */
const AUDITED_WIDTHS = [360, 1280];

/** At an audited width, axe judges the page as it is now, once what it loaded meanwhile has landed. */
async function audit(page: Page, what: string) {
  if (!AUDITED_WIDTHS.includes(page.viewportSize()?.width ?? 0)) return;
  await networkQuiet(requestsInFlight(page));
  await expectAccessible(page, what);
}

/** Nothing scrolls sideways: the page is exactly as wide as the screen. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const { width } = page.viewportSize() ?? { width: 0 };
  const measured = await page.evaluate(() => ({
    innerWidth: window.innerWidth,
    scrollWidth: document.documentElement.scrollWidth,
  }));
  expect(measured.innerWidth, `${what}: the layout viewport`).toBe(width);
  expect(measured.scrollWidth, `${what}: the page's width`).toBeLessThanOrEqual(measured.innerWidth);
}

/**
 * The layout sweep: no word is split across two lines (a table squeezing "Maria" to one letter per
 * line, a header breaking as "TREATMEN T") and no text is clipped by a box that hides its overflow
 * or by a scrolling box nobody can reach by keyboard. Words are runs of letters and digits of up to
 * 20 (a longer run is an id, such as a transaction's, which may wrap anywhere); an email or a web
 * address may wrap at its dots and @, a compound at its hyphen. A carousel hides its other slides
 * by design.
 */
async function expectWholeWordsAndNothingClipped(page: Page, what: string) {
  const problems = await page.evaluate(() => {
    const found: string[] = [];
    const hidden = (el: Element) =>
      el.closest('.visually-hidden, [hidden], script, style, noscript, svg, [aria-roledescription="carousel"]') !==
      null;
    const nameOf = (el: Element) =>
      `<${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.split(' ').join('.')}` : ''}>`;
    const range = document.createRange();
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const parent = node.parentElement;
      if (!parent || hidden(parent) || parent.getClientRects().length === 0) continue;
      for (const word of node.data.matchAll(/[\p{L}\p{N}]{2,}/gu)) {
        if (word[0].length > 20) continue;
        range.setStart(node, word.index);
        range.setEnd(node, word.index + word[0].length);
        const tops = new Set(
          Array.from(range.getClientRects())
            .filter((r) => r.width > 0)
            .map((r) => Math.round(r.top)),
        );
        if (tops.size > 1) found.push(`"${word[0]}" is split across lines in ${nameOf(parent)}`);
      }
    }
    for (const el of Array.from(document.body.querySelectorAll('*'))) {
      if (hidden(el) || (el.closest('.modal') === null && document.querySelector('.modal') !== null)) continue;
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      if (box.width <= 2 || box.height <= 2 || style.visibility === 'hidden') continue;
      const overflowX = el.scrollWidth > el.clientWidth + 1;
      const overflowY = el.scrollHeight > el.clientHeight + 1;
      if (!overflowX && !overflowY) continue;
      const clips = (value: string) => value === 'hidden' || value === 'clip';
      const scrolls = (value: string) => value === 'auto' || value === 'scroll';
      const reachable =
        el.hasAttribute('tabindex') || el.getAttribute('role') === 'dialog' || el === document.scrollingElement;
      if ((overflowX && clips(style.overflowX)) || (overflowY && clips(style.overflowY))) {
        if ((el.textContent ?? '').trim()) found.push(`${nameOf(el)} clips its text`);
      } else if (
        ((overflowX && scrolls(style.overflowX)) || (overflowY && scrolls(style.overflowY))) &&
        !reachable &&
        (el.textContent ?? '').trim() !== '' &&
        el.tagName !== 'SELECT' &&
        el.tagName !== 'TEXTAREA'
      ) {
        found.push(`${nameOf(el)} scrolls but cannot be reached by keyboard`);
      }
    }
    return [...new Set(found)];
  });
  expect(problems, `${what} at ${page.viewportSize()?.width} px`).toEqual([]);
}

/** The element's whole box is on screen (without scrolling anything sideways). */
async function expectOnScreen(element: Locator, what: string) {
  await element.evaluate((el) => {
    // Scrolled up or down only (the page, or a dialog taller than the screen): a control off to the
    // side must stay off to be caught.
    let scroller = el.parentElement;
    while (
      scroller &&
      !(/auto|scroll/.test(getComputedStyle(scroller).overflowY) && scroller.scrollHeight > scroller.clientHeight)
    )
      scroller = scroller.parentElement;
    const { top, height } = el.getBoundingClientRect();
    (scroller ?? window).scrollBy({ top: top + height / 2 - window.innerHeight / 2, behavior: 'instant' });
  });
  const box = await element.evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {
      left: r.left,
      top: r.top,
      right: r.right,
      bottom: r.bottom,
      width: window.innerWidth,
      height: window.innerHeight,
      onTop: hit !== null && (hit === el || el.contains(hit)),
    };
  });
  expect(box.left, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.top, `${what}: top edge`).toBeGreaterThanOrEqual(0);
  expect(box.right, `${what}: right edge`).toBeLessThanOrEqual(box.width);
  expect(box.bottom, `${what}: bottom edge`).toBeLessThanOrEqual(box.height);
  expect(box.onTop, `${what}: not covered or clipped`).toBe(true);
}

/** The open dialog fits the screen; anything taller than the screen scrolls inside it. */
async function expectDialogFits(page: Page, dialog: Locator, what: string) {
  await expect(dialog).toBeVisible();
  await expectNoSidewaysScroll(page, what);
  await expectWholeWordsAndNothingClipped(page, what);
  const box = await dialog.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: innerWidth, height: innerHeight };
  });
  expect(box.left, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box.top, `${what}: top edge`).toBeGreaterThanOrEqual(0);
  expect(box.right, `${what}: right edge`).toBeLessThanOrEqual(box.width);
  expect(box.bottom, `${what}: bottom edge`).toBeLessThanOrEqual(box.height);
  await audit(page, what);
}

/**
 * Opens `path` (within the app, as a link would, once it is loaded: much faster than a reload) and
 * measures it once its data is in (no spinner or progress bar left).
 */
async function visit(page: Page, path: string, heading: string | RegExp) {
  requestsInFlight(page); // counted from the first visit, for `audit`
  if (page.url().startsWith('http')) await page.evaluate((to) => history.pushState(null, '', to), path);
  else await page.goto(path);
  await expect(page).toHaveURL(path);
  await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
  await expect(page.locator('.spinner, .progress')).toHaveCount(0);
  await expectNoSidewaysScroll(page, path);
  await expectWholeWordsAndNothingClipped(page, path);
  await audit(page, path);
}

/** On a narrow screen the dashboard menu is a drawer behind one menu button; open, it fits too. */
async function expectDashboardMenuFits(page: Page, what: string) {
  const menu = page.getByRole('navigation', { name: 'Dashboard' });
  if (await menu.getByRole('link', { name: 'My Appointments' }).isVisible()) return; // a side column
  const toggles = page.getByRole('button', { name: /menu/i });
  await expect(toggles, `${what}: one menu button`).toHaveCount(1);
  await toggles.click();
  await expect(menu.getByRole('link', { name: 'My Appointments' })).toBeVisible();
  await expectOnScreen(menu.getByRole('link', { name: 'My Appointments' }), `${what}: the open menu`);
  await expectNoSidewaysScroll(page, `${what} with the menu open`);
  await page.keyboard.press('Escape');
  await expect(menu.getByRole('link', { name: 'My Appointments' })).toBeHidden();
}

/** The dashboard page's heading sits right under the header, not below a gap. */
async function expectHeadingNearTop(page: Page, what: string) {
  const gap = await page.evaluate(() => {
    const header = document.querySelector('header')?.getBoundingClientRect();
    const heading = document.querySelector('main h1')?.getBoundingClientRect();
    return header && heading ? heading.top - header.bottom : Number.NaN;
  });
  expect(gap, `${what}: space between the header and the heading`).toBeLessThan(100);
}

for (const { viewport, isMobile } of [
  ...PHONES_AND_TABLET.map((viewport) => ({ viewport, isMobile: true })),
  ...DESKTOPS.map((viewport) => ({ viewport, isMobile: false })),
]) {
  const size = `${viewport.width}x${viewport.height}`;
  test.describe(size, () => {
    test.use({ viewport, isMobile, hasTouch: isMobile });

    test(`${size}: a visitor's pages and the forgot-password dialog fit the screen`, async ({ page }) => {
      await visitorPagesFit(page);
    });

    test(`${size}: a patient's pages, bookings (unpaid and paid) and dialogs fit the screen`, async ({ page }) => {
      await patientPagesFit(page);
    });

    test(`${size}: an admin's pages and delete dialogs fit the screen`, async ({ page }) => {
      await adminPagesFit(page);
    });
  });
}

// docs/languages.md: the layout sweep again in the pseudo-locale, every message accented and 40% longer, at the
// smallest phone and the widest desktop: a longer language must fit too.
for (const { viewport, isMobile, day } of [
  { viewport: PHONES_AND_TABLET[0] as { width: number; height: number }, isMobile: true, day: 50 },
  { viewport: DESKTOPS[1] as { width: number; height: number }, isMobile: false, day: 51 },
]) {
  test.describe(`${viewport.width}x${viewport.height} in the pseudo-locale`, () => {
    test.use({ viewport, isMobile, hasTouch: isMobile });

    test(`${viewport.width} px: a visitor's and a patient's pages fit in a language 40% longer`, async ({ page }) => {
      const email = uniqueEmail(`pseudo-${viewport.width}`);
      await createAccount(email, 'Strong#2026', 'Maximiliana Featherstonehaugh-Oyelaran');
      await verifyAccount(email);
      await logIn(page, { email, password: 'Strong#2026' });
      const unpaid = await bookViaApi(page, {
        treatment: 'Orthodontic Consultation',
        date: clinicDate(day),
        slot: '01.00 PM - 02.00 PM',
      });
      const paid = await bookViaApi(page, {
        treatment: 'Root Canal Treatment',
        date: clinicDate(day),
        slot: '11.00 AM - 12.30 PM',
      });
      await payViaApi(page, paid);
      // From the next page on, the app reads its words in the pseudo-locale (lib/i18n.tsx).
      await page.evaluate(() => localStorage.setItem('clinic.pseudo-locale', 'on'));
      for (const path of [
        '/',
        '/book',
        `/appointment?date=${clinicDate(day)}`,
        '/dashboard',
        `/dashboard/payment/${unpaid}`,
        `/dashboard/receipt/${paid}`,
      ]) {
        await page.goto(path);
        // The page's words are the pseudo-locale's: bracketed, with their tildes.
        await expect(page.getByRole('heading', { level: 1 }).first()).toContainText('~]');
        await expect(page.locator('.spinner, .progress')).toHaveCount(0);
        await expectNoSidewaysScroll(page, `${path} (pseudo-locale)`);
        await expectWholeWordsAndNothingClipped(page, `${path} (pseudo-locale)`);
      }
    });
  });
}

async function visitorPagesFit(page: Page) {
  expectConsoleErrors(page, /status of 404 .*\/no\/such\/page$/);
  await visit(page, '/no/such/page', 'Page not found');
  await visit(page, '/signup', 'Sign Up');
  await visit(page, '/book', 'Free times');
  await expect(page.getByRole('article', { name: 'Teeth Cleaning' }).or(page.getByText(/^Closed:/))).toBeVisible();
  await expectNoSidewaysScroll(page, '/book with its times');
  await expectWholeWordsAndNothingClipped(page, '/book with its times');
  await visit(page, '/privacy', 'Privacy and your data');
  await visit(page, '/', 'Your new smile starts here');
  // The brand and Menu share the header's one row.
  const [brand, menu] = await Promise.all(
    ['.nav__brand', '.nav__toggle'].map((selector) => page.locator(selector).first().boundingBox()),
  );
  if (menu && (await page.locator('.nav__toggle').first().isVisible()))
    expect(
      Math.abs((brand?.y ?? 0) + (brand?.height ?? 0) / 2 - (menu.y + menu.height / 2)),
      'Menu on a second row',
    ).toBeLessThan(12);
  const toggle = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Menu' });
  if (await toggle.isVisible()) {
    await toggle.click();
    await expectNoSidewaysScroll(page, '/ with the menu open');
  }

  await visit(page, '/login', 'Login');
  await page.getByRole('main').getByRole('button', { name: 'Forgot password?' }).click();
  await expectDialogFits(page, page.getByRole('dialog', { name: 'Put here your email' }), 'forgot password');
}

async function patientPagesFit(page: Page) {
  const viewport = page.viewportSize() ?? { width: 0, height: 0 };
  const index = [...PHONES_AND_TABLET, ...DESKTOPS].findIndex((v) => v.width === viewport.width);
  const email = uniqueEmail(`phone-${viewport.width}`);
  await createAccount(email, 'Strong#2026', 'Maximiliana Featherstonehaugh-Oyelaran');
  await verifyAccount(email);
  await logIn(page, { email, password: 'Strong#2026' });
  const unpaid = await bookViaApi(page, {
    treatment: 'Orthodontic Consultation',
    date: clinicDate(40 + index),
    slot: '01.00 PM - 02.00 PM',
  });
  const paid = await bookViaApi(page, {
    treatment: 'Root Canal Treatment',
    date: clinicDate(40 + index),
    slot: '11.00 AM - 12.30 PM',
  });
  await payViaApi(page, paid);
  // A paid visit cancelled and refunded: it stays under "Past and cancelled" with its receipt.
  await refundDueViaApi(page, {
    treatment: 'Dental Check-up',
    date: clinicDate(40 + index),
    slot: '09.00 AM - 09.30 AM',
  });

  await visit(page, '/', 'Your new smile starts here');
  await visit(page, '/review', 'Review');
  expectConsoleErrors(page, /status of 404 .*\/api\/waitlist\/offers\/no-such-offer$/);
  await visit(page, '/offers/no-such-offer', 'A time is free for you');
  await visit(page, `/dashboard/payment/${unpaid}`, 'Payment for Orthodontic Consultation');
  await expectHeadingNearTop(page, 'payment');
  await expectOnScreen(page.getByRole('main').getByRole('button', { name: 'Pay' }), 'the Pay button');
  await visit(page, `/dashboard/payment/${paid}`, 'Payment for Root Canal Treatment');
  // A paid booking only says it is paid.
  await expect(page.getByRole('main').getByText('This appointment is paid.')).toBeVisible();
  await expect(page.getByRole('main').getByText(/Please pay/)).toHaveCount(0);
  await visit(page, `/dashboard/receipt/${paid}`, 'Your receipt');
  // A root canal needs the medical history and its consent: both forms, every kind of question.
  await visit(page, `/dashboard/forms/${paid}`, 'Forms for your visit');

  await visit(page, '/dashboard', 'My Appointments');
  await expectHeadingNearTop(page, 'My Appointments');
  await expectDashboardMenuFits(page, 'My Appointments');
  const rows = page.getByRole('table', { name: 'My appointments' }).getByRole('row');
  const unpaidRow = rows.filter({ hasText: 'Orthodontic Consultation' });
  const paidRow = rows.filter({ hasText: 'Root Canal Treatment' });
  await expectOnScreen(unpaidRow.getByRole('link', { name: 'Pay' }), 'the unpaid booking’s Pay');
  await expectOnScreen(unpaidRow.getByRole('button', { name: 'Cancel' }), 'the unpaid booking’s Cancel');
  await expectOnScreen(paidRow.getByText('Paid', { exact: true }), 'the paid booking’s Paid');
  await expectOnScreen(paidRow.getByRole('link', { name: /^Receipt for / }), 'the paid booking’s Receipt');
  // Weeks ahead is outside the cancellation window: a paid booking may be cancelled (and refunded).
  await expectOnScreen(paidRow.getByRole('button', { name: 'Cancel' }), 'the paid booking’s Cancel');
  const history = page.getByRole('region', { name: 'Past and cancelled' });
  await expect(history.getByText('$45 refunded')).toBeVisible();
  await expectOnScreen(history.getByRole('link', { name: /^Receipt for Dental Check-up/ }), 'a past visit’s receipt');
  await unpaidRow.getByRole('button', { name: 'Cancel' }).click();
  await expectDialogFits(page, page.getByRole('dialog', { name: 'Cancel this appointment?' }), 'cancel dialog');
  await page.getByRole('dialog').getByRole('button', { name: 'Keep it' }).click();

  await visit(page, '/appointment', /^Available Appointments on/);
  await pickDay(page, clinicDate(1)); // tomorrow: today's times may all have passed
  await page.getByRole('article', { name: 'Teeth Cleaning' }).getByRole('button', { name: 'Book Appointment' }).click();
  const booking = page.getByRole('dialog', { name: 'Teeth Cleaning' });
  await expectDialogFits(page, booking, 'booking dialog');
  // Submit is in view as the dialog opens, however short the screen: nothing hides it below the fold.
  const submit = await booking.getByRole('button', { name: 'Submit' }).boundingBox();
  expect((submit?.y ?? Number.POSITIVE_INFINITY) + (submit?.height ?? 0), 'Submit below the fold').toBeLessThanOrEqual(
    viewport.height,
  );
  await expectOnScreen(booking.getByRole('button', { name: 'Submit' }), 'the booking dialog’s Submit');
}

async function adminPagesFit(page: Page) {
  const index = [...PHONES_AND_TABLET, ...DESKTOPS].findIndex((v) => v.width === page.viewportSize()?.width);
  // A payment given back, so Refunds lists one and a receipt is there to show.
  await logIn(page, SEED_ADMIN);
  const refunded = await refundDueViaApi(page, {
    treatment: 'Dental Check-up',
    date: clinicDate(50 + index),
    slot: '09.00 AM - 09.30 AM',
  });

  for (const [path, heading] of [
    ['/dashboard', 'My Appointments'],
    ['/dashboard/schedule', 'Schedule'],
    ['/dashboard/add-doctors', 'Add A Doctor'],
    ['/dashboard/refunds', 'Refunds'],
    ['/dashboard/recalls', 'Recall'],
    ['/dashboard/form-templates', 'Forms'],
    ['/dashboard/reviews', 'Reviews'],
    ['/dashboard/activity', 'Activity'],
    ['/dashboard/settings', 'Clinic settings'],
    ['/dashboard/clinic-hours', 'Clinic hours and closures'],
    ['/dashboard/chairs', 'Chairs'],
    ['/dashboard/specialties', 'Specialties'],
    [`/dashboard/receipt/${refunded.bookingId}`, 'Your receipt'],
  ] as const) {
    await visit(page, path, heading);
    await expectHeadingNearTop(page, path);
  }
  await expectDashboardMenuFits(page, 'a receipt');

  // The schedule: the day's columns scroll sideways inside their own labelled, focusable box (on a
  // narrow screen), never the page; its toolbar and dialogs fit.
  await visit(page, '/dashboard/schedule', 'Schedule');
  const grid = page.getByRole('region', { name: / by doctor$/ });
  await expect(grid).toHaveAttribute('tabindex', '0');
  const gridBox = await grid.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, width: window.innerWidth };
  });
  expect(gridBox.left, 'the schedule grid: left edge').toBeGreaterThanOrEqual(0);
  expect(gridBox.right, 'the schedule grid: right edge').toBeLessThanOrEqual(gridBox.width);
  // On a phone the doctors' columns do not all fit: the page says so.
  if ((page.viewportSize()?.width ?? 0) < 768)
    await expect(page.getByText(/^\d+ doctors: scroll sideways to see them all/)).toBeVisible();
  await expectOnScreen(page.getByRole('button', { name: 'Next day' }), 'the schedule’s Next day');
  await page.getByRole('button', { name: 'Next day' }).click();
  await expectNoSidewaysScroll(page, 'the next day’s schedule');
  await page.getByRole('button', { name: 'Book by phone' }).click();
  const phoneBooking = page.getByRole('dialog', { name: 'Book by phone' });
  await expectDialogFits(page, phoneBooking, 'book by phone dialog');
  if ((page.viewportSize()?.width ?? 0) >= 1280) {
    // On a desktop the whole dialog is in view, Book included, with nothing to scroll.
    const { scrollHeight, clientHeight } = await phoneBooking.evaluate((el) => ({
      scrollHeight: el.scrollHeight,
      clientHeight: el.clientHeight,
    }));
    expect(scrollHeight, 'the book-by-phone dialog scrolls').toBeLessThanOrEqual(clientHeight);
  }
  await page.keyboard.press('Escape');

  await visit(page, '/dashboard/treatments', 'Treatments');
  await page.getByRole('button', { name: 'Add treatment' }).click();
  await expectDialogFits(page, page.getByRole('dialog', { name: 'Add treatment' }), 'treatment dialog');
  await page.keyboard.press('Escape');

  await visit(page, '/dashboard/all-users', 'All Users');
  await page.getByLabel('Find by name or email').fill('@clinic.test');
  const users = page.getByRole('table', { name: 'Users' }).getByRole('row');
  // Only the header row lacks the search's text once the found page is shown.
  await expect(users.filter({ hasNotText: '@clinic.test' })).toHaveCount(1);
  const patientRow = users.filter({ hasText: 'patient@clinic.test' });
  await expectOnScreen(patientRow.getByRole('button', { name: 'Delete' }), 'a user’s Delete');
  const promotable = users.filter({ has: page.getByRole('button', { name: 'Make Admin' }) }).first();
  await expectOnScreen(promotable.getByRole('button', { name: 'Make Admin' }), 'a user’s Make Admin');
  await patientRow.getByRole('button', { name: 'Delete' }).click();
  await expectDialogFits(page, page.getByRole('dialog', { name: /^Delete / }), 'delete user dialog');
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();

  await visit(page, '/dashboard/manage-doctors', 'Manage Doctors');
  const doctors = page.getByRole('table', { name: 'Doctors' }).getByRole('row');
  for (const row of await doctors.filter({ has: page.getByRole('button', { name: 'Delete' }) }).all()) {
    await expectOnScreen(row.getByRole('button', { name: 'Delete' }), 'a doctor’s Delete');
  }
  await doctors
    .getByRole('button', { name: /^Edit Dr\. / })
    .first()
    .click();
  await expectDialogFits(page, page.getByRole('dialog', { name: /^Edit Dr\. / }), 'doctor dialog');
  await page.keyboard.press('Escape');
  await doctors.getByRole('button', { name: 'Delete' }).first().click();
  await expectDialogFits(page, page.getByRole('dialog', { name: /^Delete / }), 'delete doctor dialog');
}
