import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import type { WaitlistOffer } from '../../../../../contract/messages.ts';
import { AppRoutes } from '../../../app/routes.tsx';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import { findToast, json, renderWithProviders, storeSession, stubFetch } from '../../../testing/test-utils.tsx';

const EMAIL = 'patient@clinic.test';
let offer: WaitlistOffer;
let answers: string[];

beforeEach(() => {
  offer = {
    _id: 'o1',
    treatment: 'Root Canal',
    date: '2026-12-01',
    appointmentDate: 'Dec 1, 2026',
    slot: '09.00 AM - 10.30 AM',
    startsAt: '2026-12-01T14:00:00.000Z',
    durationMinutes: 90,
    price: 400,
    doctor: 'Dr. Maya Chen',
    expiresAt: '2026-11-21T20:30:00.000Z',
    status: 'open',
    bookingId: null,
  };
  answers = [];
  stubFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname.startsWith('/api/users/admin/')) return json({ isAdmin: false });
    if (url.pathname === '/api/waitlist/offers/o1') return json(offer);
    if (url.pathname === '/api/waitlist/offers/o1/accept') {
      answers.push('accept');
      offer = { ...offer, status: 'accepted', bookingId: 'b1' };
      return json({ acknowledged: true, insertedId: 'b1', message: 'Booking confirmed' }, 201);
    }
    if (url.pathname === '/api/waitlist/offers/o1/decline') {
      answers.push('decline');
      return json(
        { acknowledged: false, message: 'This offer has expired; the time went to the next patient in line' },
        410,
      );
    }
    if (url.pathname === '/api/bookings' || url.pathname === '/api/waitlist') return json([]);
    if (url.pathname === '/api/users/me/reminders') return json({ remindersOn: true });
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs(EMAIL, 'Jamie Patient');
  storeSession(EMAIL);
});

async function openOffer() {
  const user = userEvent.setup();
  renderWithProviders(<AppRoutes />, { path: '/offers/o1' });
  await screen.findByRole('heading', { level: 1, name: 'A time is free for you' });
  return user;
}

describe('the offer page', () => {
  it('shows the held time and books it on Accept, then goes to My Appointments', async () => {
    const user = await openOffer();
    expect(await screen.findByText('Root Canal on Dec 1, 2026 at 09.00 AM - 10.30 AM')).toBeTruthy();
    expect(screen.getByText('Dr. Maya Chen')).toBeTruthy();
    expect(screen.getByText(/^We are holding this time for you until Nov 21, 3:30\sPM\.$/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Accept and book' }));
    expect(await findToast('Booking confirmed')).toBeTruthy();
    expect(answers).toEqual(['accept']);
    expect(await screen.findByRole('heading', { level: 1, name: 'My Appointments' })).toBeTruthy();
  });

  it("shows the server's message when the offer can no longer be answered", async () => {
    const user = await openOffer();
    await user.click(await screen.findByRole('button', { name: 'Decline' }));
    expect(await findToast('This offer has expired; the time went to the next patient in line')).toBeTruthy();
  });

  it('says what became of an offer that is no longer open', async () => {
    offer = { ...offer, status: 'expired' };
    await openOffer();
    expect(await screen.findByText('This offer has expired; the time went to the next patient in line.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Accept and book' })).toBeNull();
  });
});
