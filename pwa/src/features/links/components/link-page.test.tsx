import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { LinkInfo } from '../../../../../contract/links.ts';
import { AppRoutes } from '../../../app/routes.tsx';
import { json, renderWithProviders, stubFetch } from '../../../testing/test-utils.tsx';

let link: LinkInfo;
let posts: { path: string; body: unknown }[];
let gone: string | null;

beforeEach(() => {
  gone = null;
  posts = [];
  link = {
    kind: 'booking',
    action: 'confirm',
    patientName: 'Jamie Patient',
    booking: {
      _id: 'b1',
      treatment: 'Teeth Cleaning',
      date: 'Dec 3, 2026',
      appointmentDate: '2026-12-03',
      slot: '10.00 AM - 10.30 AM',
      doctor: 'Dr. Sofia Alvarez',
      confirmation: 'unconfirmed',
      canCancel: true,
      clinicPhone: '+1 (555) 010-2026',
    },
  };
  stubFetch(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/links/tok') return gone ? json({ message: gone }, 410) : json(link);
    if (url.pathname.startsWith('/api/links/tok/')) {
      posts.push({ path: url.pathname.slice('/api/links/tok/'.length), body: await request.text() });
      if (url.pathname.endsWith('/book')) {
        return json(
          {
            acknowledged: true,
            insertedId: 'b9',
            message: 'Booked: Teeth Cleaning on Dec 4, 2026, 09.00 AM - 09.30 AM',
            payBy: '2026-11-27T17:00:00.000Z',
            doctor: 'Dr. Sofia Alvarez',
            freeCancellationUntil: '2026-12-03T09:00:00.000Z',
            rescheduleUntil: '2026-12-02T09:00:00.000Z',
          },
          201,
        );
      }
      return json({ acknowledged: true, message: 'Thank you: the clinic knows you are coming.' });
    }
    return json({ message: 'Not found' }, 404);
  });
});

async function openLink() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/l/tok' });
  return user;
}

describe('a link from a message', () => {
  it('confirms a visit in one tap, without signing in; opening it changes nothing', async () => {
    const user = await openLink();
    expect(await screen.findByRole('heading', { level: 1, name: 'Are you coming?' })).toBeTruthy();
    expect(screen.getByText('Teeth Cleaning on Dec 3, 2026 at 10.00 AM - 10.30 AM')).toBeTruthy();
    expect(posts).toEqual([]);
    await user.click(screen.getByRole('button', { name: "Yes, I'm coming" }));
    expect(await screen.findByText('Thank you: the clinic knows you are coming.')).toBeTruthy();
    expect(posts.map((p) => p.path)).toEqual(['confirm']);
  });

  it('asks for a call instead of cancelling once the visit is inside the cancellation window', async () => {
    const booking = link as Extract<LinkInfo, { kind: 'booking' }>;
    link = { ...booking, action: 'cancel', booking: { ...booking.booking, canCancel: false } };
    await openLink();
    expect(
      await screen.findByText(
        'This visit can no longer be cancelled online; please call the clinic at +1 (555) 010-2026.',
        {},
      ),
    ).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel this visit' })).toBeNull();
  });

  it('says the visit changed when the link is from before a move', async () => {
    gone =
      'This visit changed after the message was sent (it was moved, cancelled or released), so this link no longer acts on it. See My Appointments for your bookings.';
    await openLink();
    expect((await screen.findByRole('alert')).textContent).toBe(gone);
    expect(screen.getByRole('link', { name: 'My Appointments' })).toBeTruthy();
  });

  it('books one of a recall’s three proposed times in one tap, then offers to pay', async () => {
    link = {
      kind: 'recall',
      action: 'book',
      patientName: 'Jamie Patient',
      recall: { _id: 'r1', treatment: 'Teeth Cleaning', dueDate: '2026-12-06', price: 80 },
      proposals: [
        {
          appointmentDate: '2026-12-04',
          date: 'Dec 4, 2026',
          slot: '09.00 AM - 09.30 AM',
          doctor: 'Dr. Sofia Alvarez',
        },
        {
          appointmentDate: '2026-12-05',
          date: 'Dec 5, 2026',
          slot: '09.00 AM - 09.30 AM',
          doctor: 'Dr. Sofia Alvarez',
        },
        { appointmentDate: '2026-12-07', date: 'Dec 7, 2026', slot: '11.00 AM - 11.30 AM', doctor: null },
      ],
    };
    const user = await openLink();
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose a time' })).toBeTruthy();
    const times = screen.getAllByRole('button', { name: /AM - / });
    expect(times.map((b) => b.textContent)).toEqual([
      'Fri, Dec 409.00 AM - 09.30 AMDr. Sofia Alvarez',
      'Sat, Dec 509.00 AM - 09.30 AMDr. Sofia Alvarez',
      'Mon, Dec 711.00 AM - 11.30 AM',
    ]);
    await user.click(times[0] as HTMLElement);
    expect((await screen.findByText(/^Booked: /)).textContent).toBe(
      'Booked: Teeth Cleaning on Dec 4, 2026, 09.00 AM - 09.30 AM with Dr. Sofia Alvarez.',
    );
    expect(screen.getByText(/^Free cancellation (until|ended) /)).toBeTruthy();
    expect(posts).toEqual([
      { path: 'book', body: JSON.stringify({ appointmentDate: '2026-12-04', slot: '09.00 AM - 09.30 AM' }) },
    ]);
    expect(screen.getByRole('link', { name: 'Pay now' }).getAttribute('href')).toBe('/dashboard/payment/b9');
  });
});
