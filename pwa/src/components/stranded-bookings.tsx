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

/** docs/product.md#schedule-changes-that-affect-bookings: the server refused a change that strands these bookings. */
export function StrandedConflictDialog({ change, confirmLabel }: StrandedConflictDialogProps) {
  if (!change.conflict) return null;
  const { stranded } = change.conflict;
  return (
    <ConfirmDialog
      title={`${bookingsText(stranded.length)} would no longer fit`}
      confirmLabel={confirmLabel}
      cancelLabel="Cancel"
      busy={change.busy}
      onConfirm={() => void change.confirmAnyway()}
      onCancel={change.cancel}
    >
      <p>
        Nothing has changed yet. {confirmLabel} keeps {stranded.length === 1 ? 'this booking' : 'these bookings'} and
        marks {stranded.length === 1 ? 'it' : 'them'} for the front desk to rearrange; Cancel changes nothing.
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
              <p>Kept {bookingsText(kept.stranded.length)} for the front desk to rearrange:</p>
              <StrandedList stranded={kept.stranded} />
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
