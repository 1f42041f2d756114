import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { AppRoutes } from '../../../app/routes.tsx';
import { fakeFirebase } from '../../../testing/fake-firebase.ts';
import { json, renderWithProviders, storeSession, stubFetch } from '../../../testing/test-utils.tsx';
import type { RefundDue } from '../api/get-refunds-due.ts';

let refunds: RefundDue[];
let refundsAnswer: () => Response;
let handedBack = 0;

const cancelledBooking: RefundDue = {
  _id: 'pay-1',
  transactionId: 'pi_3Late0123456789',
  provider: 'stripe',
  amount: 150,
  currency: 'usd',
  paidAt: '2026-11-20T15:04:00.000Z',
  refundStatus: 'due',
  reason: 'The booking was cancelled before the payment arrived',
  failure: null,
  patientName: 'Pat Patient',
  payer: 'Pat Patient',
  paidWith: 'Visa ending in 4242',
  email: 'patient@clinic.test',
  bookingId: 'b-1',
  treatment: 'Cavity Filling',
  appointmentDate: 'Nov 23, 2026',
  slot: '09.30 AM - 10.00 AM',
  bookingStatus: 'cancelled',
};

beforeEach(() => {
  refunds = [cancelledBooking];
  refundsAnswer = () => json(refunds);
  stubFetch((request) => {
    const url = new URL(request.url);
    if (url.pathname === '/api/users/admin/admin%40clinic.test') return json({ isAdmin: true });
    if (url.pathname === '/api/refunds') return refundsAnswer();
    if (url.pathname === '/api/refunds/pay-desk/handed-back' && request.method === 'POST') {
      handedBack += 1;
      refunds = refunds.map((r) => (r._id === 'pay-desk' ? { ...r, refundStatus: 'succeeded' } : r));
      return json({ acknowledged: true, message: 'Handed back $80 to Pat Patient', refund: refunds[0] });
    }
    return json({ message: 'Not found' }, 404);
  });
  fakeFirebase.signInAs('admin@clinic.test', 'Ada Admin');
  storeSession('admin@clinic.test');
});

async function openRefunds() {
  renderWithProviders(<AppRoutes />, { path: '/dashboard/refunds' });
  await screen.findByRole('heading', { level: 1, name: 'Refunds' });
}

describe('Refunds page', () => {
  it('shows each payment owed back with its amount, patient, booking, time, reason and transaction', async () => {
    await openRefunds();
    const card = await screen.findByRole('article', { name: '$150 to Pat Patient (Visa ending in 4242)' });
    const facts = Object.fromEntries(
      within(card)
        .getAllByRole('term')
        .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    );
    expect(facts).toEqual({
      'Whose visit': 'Pat Patient patient@clinic.test',
      Booking: 'Cavity Filling, Nov 23, 2026 at 09.30 AM - 10.00 AM (cancelled)',
      Paid: expect.stringMatching(/^Nov 20, 2026, \d{1,2}:04 (AM|PM)$/),
      Transaction: 'pi_3Late0123456789',
    });
    expect(within(card).getByText('Due: refund it from the payment provider’s dashboard')).toBeTruthy();
    expect(within(card).getByText('The booking was cancelled before the payment arrived')).toBeTruthy();
    expect(
      within(card)
        .getByText(/^Nov 20, 2026/)
        .getAttribute('dateTime'),
    ).toBe('2026-11-20T15:04:00.000Z');
  });

  it('says where each refund made through the provider stands, and why a failed one failed', async () => {
    refunds = [
      {
        ...cancelledBooking,
        _id: 'pay-2',
        refundStatus: 'failed',
        reason: 'The paid booking was cancelled',
        failure: 'The card has expired or was cancelled, so the refund could not reach it',
      },
      { ...cancelledBooking, _id: 'pay-3', amount: 80, refundStatus: 'pending' },
      { ...cancelledBooking, _id: 'pay-4', amount: 250, refundStatus: 'succeeded' },
    ];
    await openRefunds();
    const failed = await screen.findByRole('article', { name: '$150 to Pat Patient (Visa ending in 4242)' });
    expect(within(failed).getByText('Refund failed: refund it another way')).toBeTruthy();
    expect(
      within(failed).getByText(
        'The paid booking was cancelled. The card has expired or was cancelled, so the refund could not reach it',
      ),
    ).toBeTruthy();
    expect(
      within(screen.getByRole('article', { name: '$80 to Pat Patient (Visa ending in 4242)' })).getByText(
        'Refund pending',
      ),
    ).toBeTruthy();
    expect(
      within(screen.getByRole('article', { name: '$250 to Pat Patient (Visa ending in 4242)' })).getByText('Refunded'),
    ).toBeTruthy();
  });

  it('lets the desk mark a desk payment handed back: it leaves the refunds due', async () => {
    handedBack = 0;
    refunds = [{ ...cancelledBooking, _id: 'pay-desk', provider: 'desk', amount: 80, paidWith: 'cash at the desk' }];
    await openRefunds();
    const card = await screen.findByRole('article', { name: '$80 to Pat Patient (cash at the desk)' });
    expect(within(card).getByText('Due: hand it back at the desk, then mark it')).toBeTruthy();
    await userEvent.setup().click(within(card).getByRole('button', { name: 'Mark $80 handed back' }));
    const news = await screen.findByText('Handed back $80 to Pat Patient', undefined);
    expect(news.getAttribute('role')).toBe('status');
    expect(await within(card).findByText('Refunded')).toBeTruthy();
    expect(within(card).queryByRole('button')).toBeNull();
    expect(handedBack).toBe(1);
  });

  it('says so when there is no refund', async () => {
    refunds = [];
    await openRefunds();
    expect(await screen.findByText('No refunds yet.')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Refunds' })).toBeNull();
  });

  it('names the email and says the booking is gone when it no longer exists', async () => {
    refunds = [
      {
        ...cancelledBooking,
        patientName: null,
        payer: null,
        bookingId: null,
        treatment: null,
        appointmentDate: null,
        slot: null,
        bookingStatus: null,
      },
    ];
    await openRefunds();
    const card = await screen.findByRole('article', { name: '$150 to patient@clinic.test (Visa ending in 4242)' });
    expect(within(card).getByText('No longer on record')).toBeTruthy();
  });

  it('shows the error screen when the list cannot be loaded', async () => {
    refundsAnswer = () => json({ message: 'Only an admin may do this' }, 403);
    renderWithProviders(<AppRoutes />, { path: '/dashboard/refunds' });
    expect(await screen.findByText('Something went wrong !!!', {})).toBeTruthy();
    expect(screen.getByText(/Only an admin may do this/)).toBeTruthy();
  });
});
