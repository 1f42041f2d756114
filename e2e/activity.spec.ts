import { expect, type Page } from '@playwright/test';
import { createAccount, logIn, queryD1, SEED_ADMIN, uniqueEmail, verifyAccount } from './support.ts';
import { test } from './test.ts';

/** Nothing sticks out sideways: the page does not scroll horizontally and `row` lies inside the viewport. */
async function expectWithinWidth(page: Page, row: ReturnType<Page['locator']>) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
  const box = await row.boundingBox();
  expect(box).not.toBeNull();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? Number.POSITIVE_INFINITY)).toBeLessThanOrEqual(innerWidth);
}

test('an admin makes a user an admin, then sees it on the Activity page, on desktop, tablet and phone', async ({
  page,
  browser,
}) => {
  // The new user signs in once (on their own device), so the clinic knows them.
  const email = uniqueEmail('audited');
  await createAccount(email, 'Strong#2026', 'Audra Audited');
  await verifyAccount(email);
  const theirs = await (await browser.newContext()).newPage();
  await logIn(theirs, { email, password: 'Strong#2026' });
  await theirs.context().close();

  await page.setViewportSize({ width: 1280, height: 900 });
  await logIn(page, SEED_ADMIN, '/dashboard/all-users');
  await page.getByLabel('Find by name or email').fill(email);
  const users = page.getByRole('table', { name: 'Users' });
  await users.getByRole('row').filter({ hasText: email }).getByRole('button', { name: 'Make Admin' }).click();
  await expect(page.getByText('Audra Audited is now an admin')).toBeVisible();

  await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Activity' }).click();
  await expect(page).toHaveURL('/dashboard/activity');
  await expect(page.getByRole('heading', { level: 1, name: 'Activity' })).toBeVisible();
  const log = page.getByRole('list', { name: 'Activity' });
  const row = log.locator('> li').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('admin@clinic.test');
  await expect(row).toContainText('Made admin');
  await expect(row).toContainText(`Made admin: Audra Audited (${email})`);
  await expect(row).toContainText('role: patient → admin');
  // The newest entry comes first: judged by each entry's time, as the specs beside this one write to the
  // same log meanwhile (the API's paging order: worker/test/audit.test.ts).
  const times = await log.locator('> li time').evaluateAll((els) => els.map((el) => el.getAttribute('datetime') ?? ''));
  expect(times).toEqual([...times].sort().reverse());
  // It is the row the Worker wrote in the same batch as the change.
  expect(queryD1(`SELECT action, actor_email FROM audit_log WHERE target_name LIKE '%${email}%'`)).toEqual([
    { action: 'user.made_admin', actor_email: SEED_ADMIN.email },
  ]);

  // Filtered by action and by who acted, it is still there; by someone else, it is not.
  const filters = page.getByRole('search', { name: 'Filter activity' });
  await filters.getByLabel('Action').selectOption({ label: 'Made admin' });
  await filters.getByLabel('Who').fill(SEED_ADMIN.email);
  await filters.getByRole('button', { name: 'Show' }).click();
  await expect(row).toHaveCount(1);
  await filters.getByLabel('Who').fill('nobody@example.com');
  await filters.getByRole('button', { name: 'Show' }).click();
  await expect(page.getByText('No activity matches these filters.')).toBeVisible();
  await filters.getByLabel('Who').fill('');
  await filters.getByRole('button', { name: 'Show' }).click();

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 768, height: 1024 },
    { width: 320, height: 640 },
  ]) {
    await page.setViewportSize(viewport);
    await expect(row).toBeVisible();
    await expectWithinWidth(page, row);
  }
  // On a phone the side menu is a drawer that still leads here.
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await expect(
    page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'Activity' }),
  ).toHaveAttribute('aria-current', 'page');
});
