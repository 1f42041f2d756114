import { act, screen } from '@testing-library/react';
import useSWR from 'swr';
import { beforeEach, describe, expect, it } from 'vitest';
import { apiFetcher } from '../../../lib/api.ts';
import { appointmentOptionsKey } from '../../../lib/cache-keys.ts';
import { describeRequest, json, renderWithProviders, storeSession, stubFetch } from '../../../testing/test-utils.tsx';
import { useCancelBooking } from './cancel-booking.ts';
import { useMyBookings } from './get-my-bookings.ts';

const EMAIL = 'pat@clinic.test';
let requests: string[];

beforeEach(() => {
  requests = [];
  storeSession(EMAIL);
  stubFetch((request) => {
    requests.push(describeRequest(request));
    if (request.method === 'DELETE')
      return json({ acknowledged: true, modifiedCount: 1, message: 'Booking cancelled' });
    return json([]);
  });
});

let cancel: ReturnType<typeof useCancelBooking>;

/** What is on screen at once: My Appointments and the free slots of two days (another feature's caches). */
function Screens() {
  cancel = useCancelBooking();
  const bookings = useMyBookings(EMAIL);
  const nov25 = useSWR(appointmentOptionsKey('Nov 25, 2026'), apiFetcher);
  const nov26 = useSWR(appointmentOptionsKey('Nov 26, 2026'), apiFetcher);
  return <p>{bookings.data && nov25.data && nov26.data ? 'loaded' : 'loading'}</p>;
}

const gets = () => requests.filter((line) => line.startsWith('GET'));

describe('cancelling a booking', () => {
  it("refreshes exactly what it changes: the patient's bookings and the free slots of the booking's day", async () => {
    renderWithProviders(<Screens />);
    await screen.findByText('loaded');
    requests = [];

    await act(() => cancel({ _id: 'b1', appointmentDate: 'Nov 25, 2026' }));

    expect(requests[0]).toBe('DELETE /api/bookings/b1');
    expect(gets().sort()).toEqual([
      'GET /api/appointmentOptions?date=Nov%2025%2C%202026',
      `GET /api/bookings?email=${encodeURIComponent(EMAIL)}`,
    ]);
  });
});
