import { ConfirmDialog } from './confirm-dialog.tsx';
import type { StrandedBooking, StrandedView } from './use-schedule-change.ts';

const bookingsText = (n: number) => `${n} upcoming ${n === 1 ? 'booking' : 'bookings'}`;

/** The bookings a schedule change strands: who, what, when, with whom, and how to reach the patient. */
export function StrandedList({ stranded }: { stranded: readonly StrandedBooking[] }) {
  return (
    <ul className="stranded-list">
      {stranded.map((booking) => (
        <li key={booking._id}>
          <strong>{booking.patientName}</strong>: {booking.treatment}, {booking.appointmentDate} at {booking.slot}
          <span className="stranded-list__detail">
            {booking.doctor ?? 'No doctor'} · {booking.phone || booking.email}
          </span>
        </li>
      ))}
    </ul>
  );
}

type StrandedConflictDialogProps = {
  /** The change (useScheduleChange); the dialog shows while the server's refusal of it stands. */
  change: StrandedView;
  /** "Save anyway", or "Delete anyway" for a deletion. */
  confirmLabel: string;
};

export const CANCEL_THEM = 'Cancel them and tell the patients';

/**
 * docs/product-admin.md#schedule-changes-that-affect-bookings: the server refused a change that strands
 * these bookings. Going ahead keeps them for the front desk (each patient is mailed that the clinic
 * will call); where the change allows it (a closure), the desk may cancel them instead (each
 * patient is mailed why, a paid booking refunded).
 */
export function StrandedConflictDialog({ change, confirmLabel }: StrandedConflictDialogProps) {
  if (!change.conflict) return null;
  const { stranded } = change.conflict;
  const one = stranded.length === 1;
  const noPhone = stranded.filter((booking) => !booking.phone.trim()).length;
  const cancelInstead = change.cancelThemInstead;
  return (
    <ConfirmDialog
      title={`${bookingsText(stranded.length)} would no longer fit`}
      confirmLabel={confirmLabel}
      cancelLabel="Go back"
      busy={change.busy}
      onConfirm={() => void change.confirmAnyway()}
      onCancel={change.cancel}
      {...(cancelInstead ? { alternative: { label: CANCEL_THEM, onChoose: () => void cancelInstead() } } : {})}
    >
      <p>
        Nothing has changed yet. “{confirmLabel}” keeps {one ? 'this booking' : 'these bookings'} on the Needs review
        list and mails {one ? 'the patient' : 'each patient'} that the clinic will call.
        {noPhone > 0 &&
          (one
            ? ' This patient has no phone on file: the mail asks them to call the clinic or choose a new time online.'
            : ` ${noPhone} of them have no phone on file: their mail asks them to call the clinic or choose a new time online.`)}
        {cancelInstead &&
          ` “${CANCEL_THEM}” cancels ${one ? 'it' : 'them'}, refunds what was paid and mails ${one ? 'the patient' : 'each patient'} why.`}{' '}
        “Go back” changes nothing.
      </p>
      <StrandedList stranded={stranded} />
    </ConfirmDialog>
  );
}

const offersText = (n: number) => `${n} waitlist ${n === 1 ? 'offer' : 'offers'}`;

/**
 * After a change made anyway: the bookings it kept (each patient was told the clinic will call) and
 * the waitlist offers it withdrew, until dismissed (in a live region that is always there).
 */
export function KeptBookingsNotice({ change: { kept, dismissKept } }: { change: StrandedView }) {
  return (
    <div className="kept-status" role="status">
      {kept && (
        <div className="kept-notice">
          {kept.stranded.length > 0 && (
            <>
              <p>
                Kept {bookingsText(kept.stranded.length)} for the front desk to rearrange (on the Needs review list);
                each patient was told the clinic will call:
              </p>
              <StrandedList stranded={kept.stranded} />
            </>
          )}
          {kept.cancelled.length > 0 && (
            <>
              <p>Cancelled {bookingsText(kept.cancelled.length)}; each patient was told why by mail:</p>
              <StrandedList stranded={kept.cancelled} />
            </>
          )}
          {kept.withdrawnOffers.length > 0 && (
            <>
              <p>Withdrew {offersText(kept.withdrawnOffers.length)}; each patient was told by mail:</p>
              <ul className="stranded-list">
                {kept.withdrawnOffers.map((offer) => (
                  <li key={offer._id}>
                    <strong>{offer.patientName}</strong>: {offer.treatment}, {offer.appointmentDate} at {offer.slot}
                    <span className="stranded-list__detail">{offer.email}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
          <button type="button" className="button button--small" onClick={dismissKept}>
            Dismiss
          </button>
        </div>
      )}
    </div>
  );
}
