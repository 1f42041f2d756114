import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AppRoutes } from '../../../app/routes.tsx';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import { json, renderWithProviders, storeSession, stubFetch } from '../../../testing/test-utils.tsx';
import type { InsightsAnswer, InsightsDay } from '../api/get-insights.ts';

// 10:00 in New York on Thursday, Nov 26, 2026: the default range is Oct 30 to Nov 26.
const NOW = new Date('2026-11-26T15:00:00Z');

const doctor = (bookedMinutes: number) => [
  { _id: 'dr-sofia', name: 'Dr. Sofia Alvarez', bookedMinutes, openMinutes: 480 },
];
const chairs = (bookedMinutes: number) => [
  { _id: 'chair-1', name: 'Chair 1', bookedMinutes, openMinutes: 480 },
  { _id: 'chair-2', name: 'Chair 2', bookedMinutes: 0, openMinutes: 480 },
];

function day(date: string, fields: Partial<InsightsDay> = {}): InsightsDay {
  return {
    date,
    bookedMinutes: 0,
    openMinutes: 960,
    doctors: doctor(0),
    chairs: chairs(0),
    made: 0,
    visits: 0,
    attended: 0,
    noShows: 0,
    cancelled: 0,
    cancelledBy: { patient: 0, clinic: 0, unpaid: 0 },
    moved: 0,
    revenue: 0,
    refunded: 0,
    outstanding: 0,
    offers: 0,
    offersAccepted: 0,
    ...fields,
  };
}

const withoutDate = ({ date: _, ...figures }: InsightsDay) => figures;

// Two days of two weeks: Monday Nov 23 busy at 09:00, Sunday Nov 22 with a cancellation and a refund.
const ANSWER: InsightsAnswer = {
  from: '2026-10-30',
  to: '2026-11-26',
  timeZone: 'America/New_York',
  totals: {
    ...withoutDate(
      day('total', {
        bookedMinutes: 240,
        openMinutes: 1920,
        doctors: doctor(240),
        chairs: chairs(240),
        made: 3,
        visits: 4,
        attended: 3,
        noShows: 1,
        cancelled: 1,
        cancelledBy: { patient: 1, clinic: 0, unpaid: 0 },
        revenue: 310,
        refunded: 80,
        outstanding: 45,
        offers: 2,
        offersAccepted: 1,
      }),
    ),
    noShowRate: 0.25,
    leadTimeDays: { median: 5, p90: 12 },
    recalls: { due: 4, booked: 3, rate: 0.75 },
  },
  days: [
    day('2026-11-22', { cancelled: 1, cancelledBy: { patient: 1, clinic: 0, unpaid: 0 }, revenue: 80, refunded: 80 }),
    day('2026-11-23', { bookedMinutes: 240, visits: 4, attended: 3, noShows: 1, revenue: 230, doctors: doctor(240) }),
  ],
  hours: [
    { weekday: 1, hour: 9, bookedMinutes: 60, openMinutes: 120 },
    { weekday: 1, hour: 10, bookedMinutes: 0, openMinutes: 120 },
    { weekday: 0, hour: 9, bookedMinutes: 0, openMinutes: 120 },
    { weekday: 0, hour: 10, bookedMinutes: 0, openMinutes: 120 },
  ],
};

let queries: string[];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  queries = [];
  stubFetch(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
    if (url.pathname === '/api/insights') {
      queries.push(url.search);
      return json(ANSWER);
    }
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs('admin@clinic.test', 'Ada Admin');
  storeSession('admin@clinic.test');
});

describe('Insights', () => {
  it('shows the key figures, each chart’s summary and, on request, its table; a year is one click', async () => {
    const user = userEvent.setup();
    renderWithProviders(<AppRoutes />, { path: '/dashboard/insights' });
    await screen.findByRole('heading', { level: 1, name: 'Insights' });
    const figure = async (name: string) =>
      (await screen.findByText(name, { selector: 'dt' })).nextElementSibling?.textContent;
    expect(await figure('Chairs booked')).toBe('13%');
    expect(await figure('No-show rate')).toBe('25%');
    expect(await figure('Cancelled')).toBe('1 (1 by patients, 0 by the clinic, 0 unpaid)');
    expect(await figure('Booked ahead')).toBe('5 days (median), 12 days (90th percentile)');
    expect(await figure('Recalls booked')).toBe('3 of 4 due (75%)');
    expect(queries).toEqual(['?from=2026-10-30&to=2026-11-26']);

    const heat = screen.getByRole('region', { name: 'How full the chairs were, by weekday and hour' });
    expect(within(heat).getByText(/^The chairs were 13% booked\./).textContent).toBe(
      'The chairs were 13% booked. Busiest: Monday 09:00 (50%); quietest: Monday 10:00 (0%).',
    );
    expect(within(heat).getByRole('img').getAttribute('aria-label')).toMatch(/^How full the chairs were/);
    expect(within(heat).queryByRole('table')).toBeNull();
    await user.click(within(heat).getByRole('button', { name: 'Show the table' }));
    const rows = within(within(heat).getByRole('table')).getAllByRole('row');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Weekday09:0010:00',
      'Monday50%0%',
      'Tuesday––',
      'Wednesday––',
      'Thursday––',
      'Friday––',
      'Saturday––',
      'Sunday0%0%',
    ]);

    const revenue = screen.getByRole('region', { name: 'Revenue by week' });
    expect(within(revenue).getByText(/taken and/).textContent).toBe(
      '$310.00 taken and $80.00 refunded; the best was the week of Nov 23, 2026 ($230.00).',
    );
    await user.click(within(revenue).getByRole('button', { name: 'Show the table' }));
    expect(
      within(within(revenue).getByRole('table'))
        .getAllByRole('row')
        .map((r) => r.textContent),
    ).toEqual([
      'WeekTakenRefundedNet',
      'Week of Nov 16, 2026$80.00$80.00$0.00',
      'Week of Nov 23, 2026$230.00$0.00$230.00',
    ]);

    await user.click(screen.getByRole('button', { name: 'Last 12 months' }));
    expect(queries.at(-1)).toBe('?from=2025-11-27&to=2026-11-26');
  });
});
