import { lazy, type ReactNode, Suspense, useRef, useState } from 'react';
import { Link } from 'wouter';
import type { BookingCancelled } from '../../../../../contract/bookings.ts';
import { ConfirmDialog } from '../../../components/confirm-dialog.tsx';
import { type Column, DataTable, positionColumn } from '../../../components/data-table.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { useConfirmedAction } from '../../../components/use-confirmed-action.ts';
import { clinicMomentText, policySentence, useBookingRules } from '../../../lib/booking-rules.ts';
import { errorText } from '../../../lib/error-text.ts';
import { isNetworkFailure } from '../../../lib/http.ts';
import { type Formats, type Translate, useLanguage } from '../../../lib/i18n.tsx';
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
  const words = useLanguage();
  return (
    <span className="bookings-table__status">
      <span className="muted">{words.t('mine.booked')}</span>
      {booking.freeCancellationUntil && booking.rescheduleUntil && (
        <small className="bookings-table__note">{policySentence(booking, words, now)}</small>
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
export function refundNote(
  refund: NonNullable<BookingCancelled['refund']>,
  t: Translate,
  format: Pick<Formats, 'amount'>,
): string {
  return t('mine.refund', { status: refund.status, amount: format.amount(refund.amount) });
}

/** e.g. "You are offline. Showing your appointments as saved on Nov 21, 2026, 3:00 PM." (the device's clock) */
export const offlineNoteText = (savedAt: number, t: Translate, format: Pick<Formats, 'moment'>) =>
  t('mine.offlineSaved', { when: format.moment(savedAt) });

/** Offline, paying is impossible: an unpaid booking says so instead of offering Pay. Either way, it says until when it is held. */
function PaymentCell({ booking, offline }: { booking: Booking; offline: boolean }) {
  const { t, format, locale } = useLanguage();
  if (booking.paid)
    return (
      <span className="bookings-table__paid">
        <span className="badge">{booking.deposit === null ? t('mine.paid') : t('mine.depositPaid')}</span>
        {booking.balanceDue > 0 && (
          <small className="bookings-table__pay-by">
            {t('mine.atClinic', { amount: format.price(booking.balanceDue) })}
          </small>
        )}
        {!offline && (
          <Link
            href={`/dashboard/receipt/${encodeURIComponent(booking._id)}`}
            className="bookings-table__receipt"
            aria-label={t('mine.receiptFor', { treatment: booking.treatment, day: format.visitDay(booking) })}
          >
            {t('mine.receipt')}
          </Link>
        )}
      </span>
    );
  if (booking.price <= 0 || booking.status !== 'active') return null;
  // Kept with a card on file, or booked to be paid there: nothing to pay online.
  if (booking.paymentRule === 'card' || booking.paymentRule === 'clinic') {
    return (
      <small className="bookings-table__pay-by">
        {booking.paymentRule === 'card' ? t('mine.cardOnFile') : t('payment.clinic')}
      </small>
    );
  }
  return (
    <>
      {offline ? (
        <span className="muted">{t('mine.unpaid')}</span>
      ) : (
        <Link
          href={`/dashboard/payment/${encodeURIComponent(booking._id)}`}
          className="button button--small button--primary"
        >
          {t('mine.pay')}
        </Link>
      )}
      {booking.payBy && (
        <small className="bookings-table__pay-by">
          {t('mine.payBy', { when: clinicMomentText(booking.payBy, locale) })}
        </small>
      )}
      {booking.payAtClinic && <small className="bookings-table__pay-by">{t('mine.orAtClinic')}</small>}
    </>
  );
}

/** Who will see the patient: photo and name, or "To be confirmed" while the booking has no doctor. */
function DoctorCell({ doctor }: { doctor: Booking['doctor'] }) {
  const t = useLanguage().t;
  // A copy saved on the device by an older version has no doctor field at all: the same as none.
  if (!doctor) return <span className="muted">{t('mine.toBeConfirmed')}</span>;
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
  const { t, format } = useLanguage();
  const cancellation = useConfirmedAction<Booking>({
    run: async (booking) => {
      const { refund } = await cancelBooking(booking._id);
      setRefunded(refund ? { booking, note: refundNote(refund, t, format) } : null);
      void history.reload();
    },
    successText: () => t('mine.cancelled'),
    focusAfter: headingRef,
  });

  // Back online: replace the saved copy (or the offline failure) with the server's list.
  useReloadOnReconnect(online, data?.offline === true || (!data && isNetworkFailure(error)), mutate);

  async function handleDownload(booking: Booking) {
    setDownloading(booking._id);
    try {
      await downloadBookingCalendar(booking);
    } catch (cause) {
      notify.error(errorText(cause, t));
    } finally {
      setDownloading(null);
    }
  }

  let content: ReactNode;
  if (error && !bookings && isNetworkFailure(error)) {
    content = (
      <div className="bookings__status" role="status">
        <p>{t('mine.offlineNothing')}</p>
        <button type="button" className="button" onClick={() => void mutate()} disabled={isValidating}>
          {t('common.tryAgain')}
        </button>
      </div>
    );
  } else if (error && !bookings) {
    content = (
      <div className="bookings__status" role="alert">
        <p>{t('mine.loadFailed', { reason: errorText(error, t) })}</p>
        <button type="button" className="button" onClick={() => void mutate()} disabled={isValidating}>
          {t('common.tryAgain')}
        </button>
      </div>
    );
  } else if (!bookings) {
    content = <Spinner label={t('mine.loading')} />;
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
          <p>{bookings.length === 0 ? t('mine.none') : t('mine.noneUpcoming')}</p>
          <Link href="/appointment" className="button button--primary">
            {t('cta.book')}
          </Link>
        </div>
      );
    } else {
      const columns: Column<Booking>[] = [
        positionColumn,
        {
          header: t('mine.appointment'),
          cell: (booking) => (
            <span className="bookings-table__appointment">
              <strong>{booking.treatment}</strong>
              <span>{format.visitDay(booking)}</span>
              <span>{format.visitTime(booking)}</span>
              {/* Absent from a copy saved on the device by an older version. */}
              {booking.durationMinutes > 0 && (
                <small className="bookings-table__length">{lengthText(booking.durationMinutes)}</small>
              )}
              {/* They open offline too: the forms page keeps its own copy. */}
              {booking.formsToFill > 0 && booking.status === 'active' && (
                <Link href={`/dashboard/forms/${encodeURIComponent(booking._id)}`} className="bookings-table__forms">
                  {t('mine.forms', { count: booking.formsToFill })}
                </Link>
              )}
            </span>
          ),
        },
        { header: t('booking.doctor'), cell: (booking) => <DoctorCell doctor={booking.doctor} /> },
        { header: t('booking.price'), cell: (booking) => format.price(booking.price) },
        { header: t('booking.payment'), cell: (booking) => <PaymentCell booking={booking} offline={offline} /> },
        { header: t('mine.status'), cell: (booking) => <StatusCell booking={booking} now={now} /> },
      ];
      // Offline, nothing that needs the server is offered.
      if (!offline) {
        columns.push({
          header: t('mine.actions'),
          headerHidden: true,
          cell: (booking) => (
            <div className="bookings-table__actions">
              <button
                type="button"
                className="button button--small"
                onClick={() => handleDownload(booking)}
                disabled={downloading === booking._id}
              >
                {t('mine.addToCalendar')}
              </button>
              {canReschedule(booking, policy?.rescheduleCutoffHours, now) && (
                <button type="button" className="button button--small" onClick={() => setMoving(booking)}>
                  {t('mine.reschedule')}
                </button>
              )}
              {cancelState(booking, freeHours, now) === 'cancel' && (
                <button
                  type="button"
                  className="button button--small bookings-table__cancel"
                  onClick={() => cancellation.ask(booking)}
                >
                  {t('mine.cancel')}
                </button>
              )}
              {cancelState(booking, freeHours, now) === 'call the clinic' && (
                <small className="bookings-table__call">
                  {t('mine.callToCancel')}{' '}
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
          caption={group.name === null ? t('booking.mine') : t('mine.theirs', { name: group.name })}
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
        {t('mine.title')}
      </h1>
      {offline && data && (
        <p className="callout bookings__offline" role="status">
          {offlineNoteText(data.savedAt, t, format)}
        </p>
      )}
      {refunded && (
        <div className="bookings__refund" role="status">
          <p>
            {t('mine.cancelledOne', {
              treatment: refunded.booking.treatment,
              day: format.visitDay(refunded.booking),
            })}{' '}
            {refunded.note}
          </p>
          <Link href={`/dashboard/receipt/${encodeURIComponent(refunded.booking._id)}`}>{t('mine.viewReceipt')}</Link>
        </div>
      )}
      {content}
      {bookings && !offline && <PastVisits history={history} family={family ?? []} />}
      {moving && (
        <Suspense fallback={<Spinner label={t('mine.loadingCalendar')} />}>
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
              .map((b) => t('mine.visitOn', { treatment: b.treatment, day: format.visitDay(b) })),
          })}
        </div>
      )}
      {toCancel && (
        <ConfirmDialog
          title={t('mine.cancelTitle')}
          confirmLabel={t('mine.cancelConfirm')}
          cancelLabel={t('mine.keep')}
          busy={cancellation.busy}
          onConfirm={cancellation.confirm}
          onCancel={cancellation.cancel}
        >
          <p>
            {t('mine.cancelText', {
              treatment: toCancel.treatment,
              day: format.visitDay(toCancel),
              slot: format.visitTime(toCancel),
            })}
          </p>
          {toCancel.paid && <p>{t('mine.cancelRefund', { amount: format.price(dueOnline(toCancel)) })}</p>}
          {toCancel.lateCancelFee > 0 && Date.now() >= Date.parse(toCancel.freeCancellationUntil) && (
            <p>{t('mine.cancelFee', { fee: format.price(toCancel.lateCancelFee) })}</p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}
