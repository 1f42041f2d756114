import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';
import type { Modified } from '../../../../../contract/answers.ts';
import type {
  AttendanceSaved,
  BookingCancelled,
  CancelForPatient,
  PhoneBooked,
  PhoneBooking,
  Reschedule,
  Rescheduled,
} from '../../../../../contract/bookings.ts';
import type { DeskPaid, DeskPayment } from '../../../../../contract/payments.ts';
import type { PatientMatch } from '../../../../../contract/users.ts';
import { api, apiFetcher } from '../../../lib/api.ts';
import {
  appointmentOptionsKey,
  isMyBookingsKey,
  isScheduleKey,
  patientSearchKey,
  REFUNDS_KEY,
} from '../../../lib/cache-keys.ts';

export type { PatientMatch };

const post = <T>(path: string, body: unknown) => api<T>(path, { method: 'POST', body: JSON.stringify(body) });
const bookingPath = (id: string, action: string) => `/bookings/${encodeURIComponent(id)}/${action}`;

/**
 * The front desk's writes. Each refreshes what it changes, after a refusal too (the booking may
 * have changed meanwhile): the schedule (days and counts), the free times of the days concerned,
 * the patients' lists and, for a cancellation, the refunds due.
 */
export function useFrontDesk() {
  const { mutate } = useSWRConfig();
  const refresh = useCallback(
    async (days: string[], extra: string[] = []) => {
      for (const day of days) void mutate(appointmentOptionsKey(day));
      for (const key of extra) void mutate(key);
      void mutate(isMyBookingsKey);
      await mutate(isScheduleKey);
    },
    [mutate],
  );
  const run = useCallback(
    async <T>(write: () => Promise<T>, days: string[], extra: string[] = []): Promise<T> => {
      try {
        return await write();
      } finally {
        await refresh(days, extra);
      }
    },
    [refresh],
  );
  return {
    markAttendance: (id: string, status: 'attended' | 'no_show') =>
      run(() => post<AttendanceSaved>(bookingPath(id, 'attendance'), { status }), []),
    cancelForPatient: (booking: { _id: string; appointmentDate: string }, cancel: CancelForPatient) =>
      run(
        () => post<BookingCancelled>(bookingPath(booking._id, 'cancel'), cancel),
        [booking.appointmentDate],
        [REFUNDS_KEY],
      ),
    reschedule: (booking: { _id: string; appointmentDate: string }, move: Reschedule) =>
      run(
        () => post<Rescheduled>(bookingPath(booking._id, 'reschedule'), move),
        [booking.appointmentDate, move.appointmentDate],
      ),
    bookByPhone: (booking: PhoneBooking) =>
      run(() => post<PhoneBooked>('/phone-bookings', booking), [booking.appointmentDate]),
    /** Takes a booking off the review list as it is (the desk called the patient). */
    keep: (id: string) => run(() => api<Modified>(bookingPath(id, 'keep'), { method: 'POST' }), []),
    /** The patient paid at the desk, in cash or by card on the clinic's terminal. */
    deskPayment: (id: string, method: DeskPayment['method']) =>
      run(() => post<DeskPaid>(bookingPath(id, 'desk-payment'), { method }), []),
  };
}

/** GET /api/users/search?q= (admin): no request under 2 characters. */
export function usePatientSearch(q: string) {
  const text = q.trim();
  return useSWR<PatientMatch[]>(text.length >= 2 ? patientSearchKey(text) : null, apiFetcher<PatientMatch[]>, {
    keepPreviousData: true,
  });
}
