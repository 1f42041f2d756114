import useSWRInfinite from 'swr/infinite';
import type { BookingHistory, PastBooking } from '../../../../../contract/bookings.ts';
import { client } from '../../../lib/client.ts';
import { pathOf } from '../../../lib/route-paths.ts';

export type { PastBooking };

const HISTORY = pathOf('GET /bookings/history');
type HistoryKey = readonly [typeof HISTORY, string, number];

/**
 * GET /api/bookings/history?page= (the patient): their past and cancelled visits, newest first, a
 * page at a time; `more()` loads the next page. Online only: nothing of it is saved on the device.
 */
export function useBookingHistory(email: string | null | undefined) {
  const swr = useSWRInfinite<
    BookingHistory,
    unknown,
    (index: number, previous: BookingHistory | null) => HistoryKey | null
  >(
    (index, previous) => {
      if (!email || (previous && previous.nextPage === null)) return null;
      return [HISTORY, email, index + 1];
    },
    ([, , page]) => client('GET /bookings/history', { query: { page: String(page) } }),
    // Showing more does not reload the pages already shown.
    { revalidateFirstPage: false },
  );
  const pages = swr.data ?? [];
  return {
    bookings: swr.data ? pages.flatMap((page) => page.bookings) : undefined,
    hasMore: pages.at(-1)?.nextPage != null,
    loadingMore: swr.isValidating && swr.size > pages.length,
    error: swr.error,
    more: () => swr.setSize((size) => size + 1),
    reload: () => swr.mutate(),
  };
}
