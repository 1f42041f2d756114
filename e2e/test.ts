/**
 * Playwright's `test`, with one rule for every spec: the browser console stays clean. Any error
 * the app logs, any uncaught exception and any request the browser reports as failed (Chromium
 * logs a 4xx or 5xx answer as "Failed to load resource") fails the test, in every page of every
 * context the test opens. A test that provokes a refusal on purpose (a wrong password, a stale
 * change) says so with `expectConsoleErrors`, naming what it expects.
 */
import { type Browser, type BrowserContext, test as base, expect, type Page } from '@playwright/test';

const expected = new WeakMap<BrowserContext, RegExp[]>();

/** Declares the console errors this test provokes on purpose, each as a pattern of its text. */
export function expectConsoleErrors(page: Page, ...patterns: RegExp[]): void {
  const context = page.context();
  expected.set(context, [...(expected.get(context) ?? []), ...patterns]);
}

/**
 * What the browser says when the network is gone: a spec that goes offline causes it, and the app
 * handles it (the offline banner, the outbox). It is not an error of the app.
 */
const OFFLINE = /net::ERR_INTERNET_DISCONNECTED/;

/**
 * A session ended elsewhere (a sign-out revokes every token of that user, and the specs share the
 * seed accounts) answers the next call 401: that is how the app learns it, and it renews the
 * session and asks again. The Worker's answer, not an error of the app.
 */
const SESSION_ENDED = /status of 401 \(Unauthorized\) http:\/\/127\.0\.0\.1:8787\/api\//;

let devices = 0;
/**
 * The address a new browser context comes from, as Cloudflare's edge would report it: one per context, as
 * each patient and desk member has a device of their own. The Worker budgets sign-ins per address (30 a
 * minute); on one loopback address the whole suite would be one crowd spending one budget.
 */
function deviceAddress(worker: number): Record<string, string> {
  devices += 1;
  return { 'CF-Connecting-IP': `198.18.${worker % 256}.${(devices % 254) + 1}` };
}

export const test = base.extend<{ cleanConsole: undefined }>({
  cleanConsole: [
    async ({ context, browser, extraHTTPHeaders }, use, testInfo) => {
      await context.setExtraHTTPHeaders({ ...extraHTTPHeaders, ...deviceAddress(testInfo.workerIndex) });
      const errors: string[] = [];
      const watch = (page: Page) => {
        page.on('console', (message) => {
          if (message.type() !== 'error') return;
          const text = `${message.text()} ${message.location().url}`;
          const allowed = [OFFLINE, SESSION_ENDED, ...(expected.get(page.context()) ?? [])];
          if (!allowed.some((pattern) => pattern.test(text))) errors.push(`${new URL(page.url()).pathname}: ${text}`);
        });
        page.on('pageerror', (error) => {
          const text = `uncaught ${error.message}`;
          if (!(expected.get(page.context()) ?? []).some((pattern) => pattern.test(text))) {
            errors.push(`${new URL(page.url()).pathname}: ${text}`);
          }
        });
      };
      const watchContext = (watched: BrowserContext) => {
        for (const page of watched.pages()) watch(page);
        watched.on('page', watch);
      };
      watchContext(context);
      // Contexts the test opens itself (a second device, a patient beside the desk) are watched too.
      const newContext = browser.newContext.bind(browser);
      const opened: Browser['newContext'] = async (options = {}) => {
        const headers = { ...options.extraHTTPHeaders, ...deviceAddress(testInfo.workerIndex) };
        const made = await newContext({ ...options, extraHTTPHeaders: headers });
        watchContext(made);
        return made;
      };
      browser.newContext = opened;
      try {
        await use(undefined);
      } finally {
        browser.newContext = newContext;
      }
      expect(errors, 'the browser console stays clean').toEqual([]);
    },
    { auto: true },
  ],
});
