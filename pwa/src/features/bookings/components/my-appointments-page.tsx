import { lazy, type ReactNode, Suspense, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { BookingCancelled } from '../../../../../contract/bookings.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable, positionColumn } from '../../../components/data-table.tsx';
import { formatPrice } from '../../../components/price.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { useConfirmedAction } from '../../../components/use-confirmed-action.ts';
import { clinicMomentText, policySentence, useBookingRules } from '../../../lib/booking-rules.ts';
import { errorText } from '../../../lib/error-text.ts';
import { isNetworkFailure } from '../../../lib/http.ts';
import { notify } from '../../../lib/notify.ts';
import { dueOnline } from '../../../lib/payment-rules.ts';
import { lengthText } from '../../../lib/schedule-text.ts';
import { useSession } from '../../../lib/session.tsx';
import { useOnlineStatus, useReloadOnReconnect } from '../../../lib/use-online-status.ts';
import { useBookingHistory } from '../api/booking-history.ts';
import { cancelBooking } from '../api/cancel-booking.ts';
import { downloadBookingCalendar } from '../api/download-calendar.ts';
import { type Booking, useMyBookings } from '../api/get-my-bookings.ts';
import { rescheduleBooking } from '../api/reschedule-booking.ts';
import '../bookings.css';
import { telHref, useClinicInfo } from '../../../lib/clinic-info.ts';
import { useDependants } from '../../family/api/dependants.ts';
import { byPerson } from '../by-person.ts';
import { PastVisits } from './past-visits.tsx';

// The calendar comes with it: loaded when a patient first reschedules, not with the list.
const RescheduleDialog = lazy(() =>
  import('../../../components/reschedule-dialog.tsx').then((m) => ({ default: m.RescheduleDialog })),
);

/**
 * A patient may move an active booking online until its `rescheduleUntil` (the clinic's cutoff;
 * docs/product-booking.md#reschedule), or, in a copy saved by an older version, `cutoffHours` before it
 * starts. The server checks it too.
 */
export function canReschedule(booking: Booking, cutoffHours: number | undefined, now = Date.now()): boolean {
  if (booking.status !== 'active') return false;
  if (booking.rescheduleUntil) return Date.parse(booking.rescheduleUntil) > now;
  return cutoffHours !== undefined && Date.parse(booking.startsAt) - cutoffHours * 3_600_000 > now;
}

/** A booked visit, and until when it can be cancelled free and moved online (a copy saved by an older version has no deadlines). */
function StatusCell({ booking, now }: { booking: Booking; now: number }) {
  return (
    <span className="bookings-table__status">
      <span className="muted">Booked</span>
      {booking.freeCancellationUntil && booking.rescheduleUntil && (
        <small className="bookings-table__note">{policySentence(booking, now)}</small>
      )}
    </span>
  );
}

/**
 * docs/product-booking.md#cancellation-policy: a patient cancels online an active booking that has not started; a
 * paid one only until its `freeCancellationUntil` (in a copy saved by an older version, `freeHours`
 * before it starts; null: the policy is not known yet), refunded in full. The server checks it too.
 */
export function cancelState(
  booking: Booking,
  freeHours: number | null,
  now = Date.now(),
): 'cancel' | 'call the clinic' | null {
  const untilStart = Date.parse(booking.startsAt) - now;
  if (booking.status !== 'active' || untilStart <= 0) return null;
  if (!booking.paid) return 'cancel';
  if (booking.freeCancellationUntil)
    return Date.parse(booking.freeCancellationUntil) > now ? 'cancel' : 'call the clinic';
  if (freeHours === null) return null;
  return untilStart >= freeHours * 3600_000 ? 'cancel' : 'call the clinic';
}

/** e.g. "$150.00 has been refunded to your card." */
export function refundNote(refund: NonNullable<BookingCancelled['refund']>): string {
  const amount = `$${refund.amount.toFixed(2)}`;
  switch (refund.status) {
    case 'succeeded':
      return `${amount} has been refunded to your card.`;
    case 'pending':
      return `${amount} is being refunded to your card.`;
    case 'failed':
      return `The refund of ${amount} did not go through; the clinic will contact you.`;
    case 'due':
      return `The clinic will refund ${amount} to your card.`;
  }
}

/** e.g. "Nov 21, 2026, 3:00 PM", in the device's time zone. */
const savedAtText = (savedAt: number) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(savedAt);

export const offlineNoteText = (savedAt: number) =>
  `You are offline. Showing your appointments as saved on ${savedAtText(savedAt)}.`;
export const OFFLINE_NOTHING_SAVED_TEXT = 'You are offline and no saved appointments are on this device.';

/** e.g. "Pay by Nov 22, 3:00 PM", on the clinic's clock like the appointment times. */
const payByText = (payBy: string) => `Pay by ${clinicMomentText(payBy)}`;

/** Offline, paying is impossible: an unpaid booking says so instead of offering Pay. Either way, it says until when it is held. */
function PaymentCell({ booking, offline }: { booking: Booking; offline: boolean }) {
  if (booking.paid)
    return (
      <span className="bookings-table__paid">
        <span className="badge">{booking.deposit === null ? 'Paid' : 'Deposit paid'}</span>
        {booking.balanceDue > 0 && (
          <small className="bookings-table__pay-by">{formatPrice(booking.balanceDue)} at the clinic</small>
        )}
        {!offline && (
          <Link
            href={`/dashboard/receipt/${encodeURIComponent(booking._id)}`}
            className="bookings-table__receipt"
            aria-label={`Receipt for ${booking.treatment} on ${booking.appointmentDate}`}
          >
            Receipt
          </Link>
        )}
      </span>
    );
  if (booking.price <= 0 || booking.status !== 'active') return null;
  // Kept with a card on file, or booked to be paid there: nothing to pay online.
  if (booking.paymentRule === 'card' || booking.paymentRule === 'clinic') {
    return (
      <small className="bookings-table__pay-by">
        {booking.paymentRule === 'card' ? 'Card on file; pay at the clinic' : 'Pay at the clinic'}
      </small>
    );
  }
  return (
    <>
      {offline ? (
        <span className="muted">Unpaid</span>
      ) : (
        <Link
          href={`/dashboard/payment/${encodeURIComponent(booking._id)}`}
          className="button button--small button--primary"
        >
          Pay
        </Link>
      )}
      {booking.payBy && <small className="bookings-table__pay-by">{payByText(booking.payBy)}</small>}
      {booking.payAtClinic && <small className="bookings-table__pay-by">Or pay at the clinic</small>}
    </>
  );
}

/** Who will see the patient: photo and name, or "To be confirmed" while the booking has no doctor. */
function DoctorCell({ doctor }: { doctor: Booking['doctor'] }) {
  // A copy saved on the device by an older version has no doctor field at all: the same as none.
  if (!doctor) return <span className="muted">To be confirmed</span>;
  return (
    <span className="bookings-table__doctor">
      <img src={doctor.image} alt="" width={32} height={32} loading="lazy" />
      {doctor.name}
    </span>
  );
}

/**
 * docs/product-booking.md#my-appointments (/dashboard): the signed-in patient's bookings, with Pay, Add to calendar and
 * Cancel. Offline it shows the copy saved on this device, says so and when it is from, and offers no
 * action that needs the server.
 */
/** What shows below the list, for the signed-in patient: the account's settings and the other features' parts. */
export type BelowTheList = (patient: {
  email: string;
  name: string;
  online: boolean;
  notRefunded: string[];
}) => ReactNode;

export function MyAppointmentsPage({ below }: { below?: BelowTheList }) {
  const clinic = useClinicInfo();
  const { user } = useSession();
  const online = useOnlineStatus();
  const { data, error, isValidating, mutate } = useMyBookings(user?.email);
  const bookings = data?.bookings;
  const offline = !online || data?.offline === true;
  const [moving, setMoving] = useState<Booking | null>(null);
  const { data: policy } = useBookingRules();
  const freeHours = policy?.freeCancellationHours ?? null;
  const history = useBookingHistory(offline ? null : user?.email);
  const { data: family } = useDependants(offline ? null : user?.email);
  const [downloading, setDownloading] = useState<string | null>(null);
  const [refunded, setRefunded] = useState<{ booking: Booking; note: string } | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const cancellation = useConfirmedAction<Booking>({
    run: async (booking) => {
      const { refund } = await cancelBooking(booking._id);
      setRefunded(refund ? { booking, note: refundNote(refund) } : null);
      void history.reload();
    },
    successText: () => 'Booking cancelled',
    focusAfter: headingRef,
  });

  // Back online: replace the saved copy (or the offline failure) with the server's list.
  useReloadOnReconnect(online, data?.offline === true || (!data && isNetworkFailure(error)), mutate);

  async function handleDownload(booking: Booking) {
    setDownloading(booking._id);
    try {
      await downloadBookingCalendar(booking);
    } catch (cause) {
      notify.error(errorText(cause));
    } finally {
      setDownloading(null);
    }
  }

  let content: ReactNode;
  if (error && !bookings && isNetworkFailure(error)) {
    content = (
      <div className="bookings__status" role="status">
        <p>{OFFLINE_NOTHING_SAVED_TEXT}</p>
        <button type="button" className="button" onClick={() => void mutate()} disabled={isValidating}>
          Try again
        </button>
      </div>
    );
  } else if (error && !bookings) {
    content = (
      <div className="bookings__status" role="alert">
        <p>Sorry, your appointments could not be loaded: {errorText(error)}</p>
        <button type="button" className="button" onClick={() => void mutate()} disabled={isValidating}>
          Try again
        </button>
      </div>
    );
  } else if (!bookings) {
    content = <Spinner label="Loading your appointments" />;
  } else {
    const now = Date.now();
    // Upcoming (or under way): the rest is history, listed below once online.
    const upcoming = bookings.filter(
      // (A copy saved by an older version has no length: it counts until its start.)
      (booking) =>
        booking.status === 'active' && Date.parse(booking.startsAt) + (booking.durationMinutes || 0) * 60_000 > now,
    );
    if (upcoming.length === 0) {
      content = (
        <div className="bookings__status bookings__empty">
          <p>{bookings.length === 0 ? 'You have no appointments yet.' : 'You have no upcoming appointments.'}</p>
          <Link href="/appointment" className="button button--primary">
            Book an appointment
          </Link>
        </div>
      );
    } else {
      const columns: Column<Booking>[] = [
        positionColumn,
        {
          header: 'Appointment',
          cell: (booking) => (
            <span className="bookings-table__appointment">
              <strong>{booking.treatment}</strong>
              <span>{booking.appointmentDate}</span>
              <span>{booking.slot}</span>
              {/* Absent from a copy saved on the device by an older version. */}
              {booking.durationMinutes > 0 && (
                <small className="bookings-table__length">{lengthText(booking.durationMinutes)}</small>
              )}
              {/* They open offline too: the forms page keeps its own copy. */}
              {booking.formsToFill > 0 && booking.status === 'active' && (
                <Link href={`/dashboard/forms/${encodeURIComponent(booking._id)}`} className="bookings-table__forms">
                  {booking.formsToFill === 1 ? '1 form' : `${booking.formsToFill} forms`} to fill before your visit
                </Link>
              )}
            </span>
          ),
        },
        { header: 'Doctor', cell: (booking) => <DoctorCell doctor={booking.doctor} /> },
        { header: 'Price', cell: (booking) => formatPrice(booking.price) },
        { header: 'Payment', cell: (booking) => <PaymentCell booking={booking} offline={offline} /> },
        { header: 'Status', cell: (booking) => <StatusCell booking={booking} now={now} /> },
      ];
      // Offline, nothing that needs the server is offered.
      if (!offline) {
        columns.push({
          header: 'Actions',
          headerHidden: true,
          cell: (booking) => (
            <div className="bookings-table__actions">
              <button
                type="button"
                className="button button--small"
                onClick={() => handleDownload(booking)}
                disabled={downloading === booking._id}
              >
                Add to calendar
              </button>
              {canReschedule(booking, policy?.rescheduleCutoffHours, now) && (
                <button type="button" className="button button--small" onClick={() => setMoving(booking)}>
                  Reschedule
                </button>
              )}
              {cancelState(booking, freeHours, now) === 'cancel' && (
                <button
                  type="button"
                  className="button button--small bookings-table__cancel"
                  onClick={() => cancellation.ask(booking)}
                >
                  Cancel
                </button>
              )}
              {cancelState(booking, freeHours, now) === 'call the clinic' && (
                <small className="bookings-table__call">
                  To cancel, call the clinic:{' '}
                  {/* data-clinic: the Worker writes the clinic's phone into a page it rendered with this table. */}
                  <a href={telHref(clinic.phone)} data-clinic="phone">
                    {clinic.phone}
                  </a>
                </small>
              )}
            </div>
          ),
        });
      }
      content = byPerson(upcoming, family ?? []).map((group) => (
        <DataTable
          key={group.name ?? ''}
          caption={group.name === null ? 'My appointments' : `${group.name}’s appointments`}
          className="bookings-table"
          columns={columns}
          rows={group.bookings}
          rowKey={(booking) => booking._id}
        />
      ));
    }
  }

  const toCancel = cancellation.pending;
  return (
    <section className="dashboard-page" aria-labelledby="my-appointments-title">
      <h1 id="my-appointments-title" ref={headingRef} tabIndex={-1}>
        My Appointments
      </h1>
      {offline && data && (
        <p className="callout bookings__offline" role="status">
          {offlineNoteText(data.savedAt)}
        </p>
      )}
      {refunded && (
        <div className="bookings__refund" role="status">
          <p>
            Your {refunded.booking.treatment} appointment on {refunded.booking.appointmentDate} is cancelled.{' '}
            {refunded.note}
          </p>
          <Link href={`/dashboard/receipt/${encodeURIComponent(refunded.booking._id)}`}>View receipt</Link>
        </div>
      )}
      {content}
      {bookings && !offline && <PastVisits history={history} family={family ?? []} />}
      {moving && (
        <Suspense fallback={<Spinner label="Loading the calendar" />}>
          <RescheduleDialog
            booking={moving}
            onSubmit={(move) => rescheduleBooking(moving, move)}
            onClose={() => setMoving(null)}
          />
        </Suspense>
      )}
      {/* Both need the server: offline, neither is shown. They load beside the list but stay hidden until it
          is shown: the list arriving above them would push them down. */}
      {!offline && user?.email && (
        <div hidden={!bookings && !error}>
          {below?.({
            email: user.email,
            name: user.displayName ?? '',
            online: !offline,
            notRefunded: (bookings ?? [])
              .filter((b) => cancelState(b, null) === 'call the clinic')
              .map((b) => `${b.treatment} on ${b.appointmentDate}`),
          })}
        </div>
      )}
      {toCancel && (
        <ConfirmDialog
          title="Cancel this appointment?"
          confirmLabel="Cancel appointment"
          cancelLabel="Keep it"
          busy={cancellation.busy}
          onConfirm={cancellation.confirm}
          onCancel={cancellation.cancel}
        >
          <p>
            Your {toCancel.treatment} appointment on {toCancel.appointmentDate} at {toCancel.slot} will be cancelled and
            its time offered to other patients.
          </p>
          {toCancel.paid && <p>The {formatPrice(dueOnline(toCancel))} you paid will be refunded to your card.</p>}
          {toCancel.lateCancelFee > 0 && Date.now() >= Date.parse(toCancel.freeCancellationUntil) && (
            <p>
              Cancelling now charges the {formatPrice(toCancel.lateCancelFee)} late-cancellation fee you accepted to
              your card on file.
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
