import { expect, type Page } from '@playwright/test';
import { clinicDate, expectAccessible, logIn, SEED_ADMIN } from './support.ts';
import { test } from './test.ts';

/** docs/product-admin.md#insights: the owner's figures, four charts each with its table and CSV, at desktop and tablet sizes. */

const CHARTS = [
  'How full the chairs were, by weekday and hour',
  'Each doctor and chair',
  'Cancellations, no-shows and moves by week',
  'Revenue by week',
];

const pageScrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

test('the owner reads the practice at 1280 and 768 px, keyboard only: each chart’s summary, table and CSV, axe clean', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await logIn(page, SEED_ADMIN, '/dashboard/insights');
  await expect(page.getByRole('heading', { level: 1, name: 'Insights' })).toBeVisible();
  await expect(page.getByText('Chairs booked', { exact: true })).toBeVisible();
  await expect(page.getByText(/on the clinic’s calendar \(America\/New_York\)/)).toBeVisible();

  for (const title of CHARTS) {
    const chart = page.getByRole('region', { name: title });
    await expect(chart.getByRole('img', { name: new RegExp(`^${title}: `) })).toBeVisible();
    // Keyboard only: the table view opens from its button.
    await chart.getByRole('button', { name: 'Show the table' }).focus();
    await page.keyboard.press('Enter');
    await expect(chart.getByRole('table', { name: title })).toBeVisible();
    await expect(chart.getByRole('button', { name: 'Hide the table' })).toHaveAttribute('aria-expanded', 'true');
  }
  const heat = page.getByRole('table', { name: CHARTS[0] });
  await expect(heat.getByRole('rowheader')).toHaveText([
    'Monday',
    'Tuesday',
    'Wednesday',
    'Thursday',
    'Friday',
    'Saturday',
    'Sunday',
  ]);
  await expect(heat.getByRole('columnheader').nth(1)).toHaveText('09:00');
  await expectAccessible(page, 'insights at 1280 px, every table open');

  const download = page.waitForEvent('download');
  await page.getByRole('region', { name: CHARTS[3] }).getByRole('button', { name: 'Download CSV' }).focus();
  await page.keyboard.press('Enter');
  expect((await download).suggestedFilename()).toBe(`insights-revenue-${clinicDate(-27)}-to-${clinicDate(0)}.csv`);

  // A year, on a tablet: nothing off-screen, still accessible.
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.getByRole('button', { name: 'Last 12 months' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText(/to .*, on the clinic’s calendar/)).toContainText(
    new Date(`${clinicDate(-364)}T12:00:00`).toLocaleDateString('en-US', {
      month: 'short',
      day: 'numeric',
      year: 'numeric',
    }),
  );
  expect(await pageScrollsSideways(page)).toBe(false);
  await expectAccessible(page, 'insights at 768 px');

  // A day of the range opens its schedule.
  await page.getByRole('button', { name: /^Show the \d+ days$/ }).click();
  const today = clinicDate(0);
  await page.locator(`a[href="/dashboard/schedule?date=${today}"]`).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/schedule\\?date=${today}$`));
  await expect(page.getByLabel('Day', { exact: true })).toHaveValue(today);
});
