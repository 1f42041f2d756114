import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startOfLabel } from '../../../../../contract/slot-label.ts';
import { AppRoutes } from '../../../app/routes.tsx';
import type { AppointmentOption } from '../../../lib/appointment-options.ts';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import { json, renderWithProviders, storeSession, stubFetch } from '../../../testing/test-utils.tsx';
// Loaded now, before Date is faked: @date-fns/tz's TZDate extends the Date it finds when it loads.
import './book-page.tsx';

// 15:00 UTC on Nov 20 is 10 am in the clinic (America/New_York).
const NOW = new Date('2026-11-20T15:00:00Z');

const option = (
  id: string,
  name: string,
  slots: string[],
  more: Partial<AppointmentOption> = {},
): AppointmentOption => ({
  _id: id,
  name,
  slots,
  // "10.00 AM - 10.30 AM" -> "10:00", as the API writes each start beside its label.
  starts: slots.map((label) => startOfLabel(label) ?? ''),
  price: 80,
  durationMinutes: 30,
  specialtyId: 'general-dentistry',
  payment: 'full',
  deposit: null,
  closed: null,
  ...more,
});

let asked: URLSearchParams[];

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  asked = [];
  stubFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/team')
      return json([
        {
          _id: 'dr-ada',
          name: 'Dr. Ada Okafor',
          specialty: 'General Dentistry',
          specialtyId: 'general-dentistry',
          image: '/a.png',
        },
        {
          _id: 'dr-cy',
          name: 'Dr. Cy Braces',
          specialty: 'Orthodontics',
          specialtyId: 'orthodontics',
          image: '/c.png',
        },
      ]);
    if (url.pathname === '/api/appointmentOptions') {
      asked.push(url.searchParams);
      if (url.searchParams.get('date') === '2026-11-22')
        return json([
          option('teeth-cleaning', 'Teeth Cleaning', [], {
            closed: { reason: 'Staff training', nextOpenDate: '2026-11-23' },
          }),
        ]);
      if (url.searchParams.get('date') === '2026-11-24')
        return json([
          option(
            'teeth-cleaning',
            'Teeth Cleaning',
            Array.from({ length: 10 }, (_, n) => `0${n}.00 PM - 0${n}.30 PM`),
          ),
        ]);
      const ada = url.searchParams.get('doctorId') === 'dr-ada';
      return json([
        option(
          'teeth-cleaning',
          'Teeth Cleaning',
          ada ? ['02.00 PM - 02.30 PM'] : ['11.00 AM - 11.30 AM', '02.00 PM - 02.30 PM'],
        ),
        ...(ada
          ? []
          : [option('braces', 'Braces Check', [], { price: 120, durationMinutes: 60, specialtyId: 'orthodontics' })]),
      ]);
    }
    return json({ message: 'Not found' }, 404);
  });
});

afterEach(() => vi.useRealTimers());

async function openBook(path = '/book') {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path });
  await screen.findByRole('heading', { level: 1, name: 'Book a visit' });
  return user;
}

describe('the public booking page', () => {
  it('shows every treatment’s free times as buttons named by treatment and time, leading through Sign Up', async () => {
    await openBook();
    expect(screen.getByRole('region', { name: 'Free times' }).getAttribute('aria-describedby')).toBe('times-day');
    expect(await screen.findByText('Friday, Nov 20, 2026')).toBeTruthy();
    const cleaning = within(await screen.findByRole('article', { name: 'Teeth Cleaning' }));
    expect(cleaning.getByText('30 min · $80')).toBeTruthy();
    const time = cleaning.getByRole('link', { name: 'Teeth Cleaning at 11.00 AM' });
    expect(time.textContent).toBe('11.00 AM');
    const chosen = '/appointment?date=2026-11-20&treatment=teeth-cleaning&start=11%3A00';
    expect(time.getAttribute('href')).toBe(`/signup?from=${encodeURIComponent(chosen)}`);
    expect(
      within(screen.getByRole('article', { name: 'Braces Check' })).getByText(
        'No free time this day: try another day.',
      ),
    ).toBeTruthy();
  });

  it('signed in, a time leads straight to the booking page with it chosen', async () => {
    fakeFirebase.signInAs('pat@clinic.test', 'Pat');
    storeSession('pat@clinic.test');
    await openBook();
    const time = await screen.findByRole('link', { name: 'Teeth Cleaning at 02.00 PM' });
    expect(time.getAttribute('href')).toBe('/appointment?date=2026-11-20&treatment=teeth-cleaning&start=14%3A00');
  });

  it("filters by doctor, with each doctor's photo and specialty, and carries the doctor to the booking", async () => {
    const user = await openBook();
    const toggle = screen.getByRole('button', { name: /^Doctor Any doctor/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    await user.click(toggle);
    const doctors = within(await screen.findByRole('group', { name: 'Doctor' }));
    expect((doctors.getByRole('radio', { name: 'Any doctor The first free' }) as HTMLInputElement).checked).toBe(true);
    expect(doctors.getByText('Orthodontics')).toBeTruthy();
    await user.click(doctors.getByRole('radio', { name: 'Dr. Ada Okafor General Dentistry' }));
    // Chosen: the list closes, and the button says who.
    expect(screen.queryByRole('group', { name: 'Doctor' })).toBeNull();
    expect(screen.getByRole('button', { name: /^Doctor Dr\. Ada Okafor/ }).getAttribute('aria-expanded')).toBe('false');
    const time = await screen.findByRole('link', { name: 'Teeth Cleaning at 02.00 PM' });
    expect(screen.queryByRole('link', { name: 'Teeth Cleaning at 11.00 AM' })).toBeNull();
    expect(screen.queryByRole('article', { name: 'Braces Check' })).toBeNull();
    expect(asked.at(-1)?.get('doctorId')).toBe('dr-ada');
    expect(decodeURIComponent(time.getAttribute('href') ?? '')).toContain('&doctor=dr-ada');
  });

  it('picks the day from a week of days, a week at a time', async () => {
    const user = await openBook();
    const days = within(screen.getByRole('navigation', { name: 'Days' }));
    expect(days.getByRole('button', { name: 'Fri 20 Nov' }).getAttribute('aria-pressed')).toBe('true');
    expect((days.getByRole('button', { name: '‹ Earlier' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(days.getByRole('button', { name: 'Sat 21 Nov' }));
    await waitFor(() => expect(asked.at(-1)?.get('date')).toBe('2026-11-21'));
    await user.click(days.getByRole('button', { name: 'Later ›' }));
    await user.click(days.getByRole('button', { name: 'Fri 27 Nov' }));
    await waitFor(() => expect(asked.at(-1)?.get('date')).toBe('2026-11-27'));
    expect(screen.getByText('Friday, Nov 27, 2026')).toBeTruthy();
  });

  it('shows a screenful of a busy day’s times, and all of them on request', async () => {
    const user = await openBook('/book?date=2026-11-24');
    const cleaning = within(await screen.findByRole('article', { name: 'Teeth Cleaning' }));
    expect(cleaning.getAllByRole('link')).toHaveLength(8);
    await user.click(cleaning.getByRole('button', { name: 'Show all 10 times for Teeth Cleaning' }));
    expect(cleaning.getAllByRole('link')).toHaveLength(10);
    expect(cleaning.queryByRole('button')).toBeNull();
  });

  it('says a closed day is closed, and offers the next day the clinic opens', async () => {
    const user = await openBook('/book?date=2026-11-22');
    expect(await screen.findByText('Closed: Staff training')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'See Monday, Nov 23, 2026, the next day the clinic opens' }));
    expect(await screen.findByText('Monday, Nov 23, 2026')).toBeTruthy();
  });
});
