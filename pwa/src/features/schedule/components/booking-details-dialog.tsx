import { type ReactNode, type SubmitEvent, useId, useState } from 'react';
import useSWR from 'swr';
import { FEE_NAMES } from '../../../../../contract/cards.ts';
import type { Statement } from '../../../../../contract/fees.ts';
import { Modal } from '../../../components/modal.tsx';
import { formatPrice } from '../../../components/price.ts';
import { clinicMomentText } from '../../../lib/booking-rules.ts';
import { client } from '../../../lib/client.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { notify } from '../../../lib/notify.ts';
import { balanceText } from '../../../lib/payment-rules.ts';
import { pathOf } from '../../../lib/route-paths.ts';
import { useSession } from '../../../lib/session.tsx';
import { startKiosk } from '../../forms/api/kiosk.ts';
import { useFrontDesk } from '../api/front-desk-actions.ts';
import type { ScheduleEntry } from '../api/get-schedule.ts';

type BookingDetailsDialogProps = {
  /** The visit's answered forms (the forms feature's, composed in by the app). */
  visitForms?: (bookingId: string) => ReactNode;
  entry: ScheduleEntry;
  /** The booking's date as the API shows it ("Nov 21, 2026"). */
  appointmentDate: string;
  /** False while the schedule shows this device's copy: only attendance and the note can be written. */
  online?: boolean;
  onReschedule(): void;
  onClose(): void;
};

/** The patient's answer to the reminder (a link or an SMS reply). */
const CONFIRMATION_TEXT: Record<ScheduleEntry['confirmation'], string> = {
  unconfirmed: 'No answer yet',
  confirmed: 'Coming',
  callback: 'Asked to be called',
};

const STATUS_TEXT: Record<ScheduleEntry['status'], string> = {
  active: 'Booked',
  attended: 'Attended',
  no_show: 'No-show',
  cancelled: 'Cancelled',
};

/** What became of the payment of a booking cancelled with a refund. */
const REFUND_TEXT = {
  succeeded: 'the payment was refunded',
  pending: 'the payment is being refunded',
  failed: 'the refund did not go through (see Refunds)',
  due: 'the payment is listed under Refunds',
} as const;

/** How a booking is paid, in words: "$80.00, paid", "$80.00, unpaid: pays at the clinic", "… unpaid: online by Nov 22, 3:00 PM". */
export function paymentText(entry: ScheduleEntry): string {
  if (entry.price <= 0) return 'Free';
  const price = formatPrice(entry.price);
  if (entry.paid && entry.balanceDue > 0) {
    return `${price}, deposit ${formatPrice(entry.deposit ?? 0)} paid: ${formatPrice(entry.balanceDue)} to take`;
  }
  if (entry.paid) return `${price}, paid`;
  if (entry.payment === 'clinic') return `${price}, unpaid: pays at the clinic`;
  return entry.payBy ? `${price}, unpaid: online by ${clinicMomentText(entry.payBy)}` : `${price}, unpaid`;
}

/**
 * docs/product-admin.md#schedule: a booking's details and what the front desk can do with it: mark it
 * attended or missed once it has started, record a payment taken at the desk, keep it as it is
 * after a schedule change, move it, or cancel it for the patient with a reason the patient will see
 * (a paid one refunded unless the front desk unticks it), and write a note on the visit. Offline,
 * marks and notes wait on this device (docs/product-admin.md#the-front-desk-offline); the rest needs the
 * connection and says so.
 */
const FEE_STATUS = {
  charging: 'being charged',
  charged: 'charged to the card on file',
  unpaid: 'not paid: the patient has a pay link',
  paid: 'paid',
  waived: 'waived',
} as const;

export function BookingDetailsDialog({
  visitForms,
  entry,
  appointmentDate,
  online = true,
  onReschedule,
  onClose,
}: BookingDetailsDialogProps) {
  const ids = useId();
  const words = useLanguage();
  const desk = useFrontDesk();
  const { signOut } = useSession();
  const [busy, setBusy] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const [reason, setReason] = useState('');
  const [refund, setRefund] = useState(true);
  const [waiveFee, setWaiveFee] = useState(false);
  // What the patient's account owes, read when online (docs/product-payments.md#statement).
  const { data: statement } = useSWR<Statement>(
    online ? pathOf('GET /users/:id/statement', { params: { id: entry.userId } }) : null,
    () => client('GET /users/:id/statement', { params: { id: entry.userId } }),
  );
  const [note, setNote] = useState(entry.note ?? '');
  const started = Date.parse(entry.startsAt) <= Date.now();
  const live = entry.status !== 'cancelled';

  const close = () => {
    if (!busy) onClose();
  };

  async function act(action: () => Promise<{ message: string }>) {
    setBusy(true);
    try {
      const { message } = await action();
      notify.success(message);
      setBusy(false);
      onClose();
      return;
    } catch (cause) {
      notify.error(errorText(cause));
    }
    setBusy(false);
  }

  function handleCancel(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!reason.trim()) return;
    void act(async () => {
      const cancelled = await desk.cancelForPatient(
        { _id: entry._id },
        { reason: reason.trim(), ...(entry.paid ? { refund } : {}) },
      );
      return {
        message: cancelled.refund ? `${cancelled.message}; ${REFUND_TEXT[cancelled.refund.status]}` : cancelled.message,
      };
    });
  }

  function handleNote(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    void act(() => desk.saveNote(entry, note.trim()));
  }

  return (
    <Modal labelledBy={`${ids}-title`} onClose={close}>
      <h2 id={`${ids}-title`} className="modal__title">
        {entry.patientName}: {entry.treatment}
      </h2>
      <button type="button" className="modal__close" aria-label="Close" onClick={close} disabled={busy}>
        ×
      </button>
      <dl className="booking-record">
        <div>
          <dt>When</dt>
          <dd>
            {appointmentDate}, {entry.slot} ({entry.durationMinutes} min)
          </dd>
        </div>
        <div>
          <dt>Patient</dt>
          <dd>
            {entry.patientName}
            <br />
            <a href={`mailto:${entry.email}`}>{entry.email}</a>
            {entry.phone && (
              <>
                <br />
                <a href={`tel:${entry.phone}`}>{entry.phone}</a>
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Doctor</dt>
          <dd>{entry.doctor?.name ?? 'None assigned'}</dd>
        </div>
        <div>
          <dt>Chair</dt>
          <dd>{entry.chair?.name ?? 'None assigned'}</dd>
        </div>
        <div>
          <dt>Payment</dt>
          <dd>{paymentText(entry)}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>
            {STATUS_TEXT[entry.status]}
            {entry.cancelNote && `: ${entry.cancelNote}`}
          </dd>
        </div>
        {entry.family.length > 0 && (
          <div>
            <dt>Family</dt>
            <dd>{entry.family.map((f) => (f.accountHolder ? `${f.name} (books for them)` : f.name)).join(', ')}</dd>
          </div>
        )}
        {entry.alerts.length > 0 && (
          <div>
            <dt>Alerts</dt>
            <dd className="booking-record__alerts">{entry.alerts.join(', ')}</dd>
          </div>
        )}
        <div>
          <dt>Forms</dt>
          <dd>{entry.formsComplete ? 'Complete' : `Missing: ${entry.formsMissing.join(', ')}`}</dd>
        </div>
        <div>
          <dt>Reminder answer</dt>
          <dd>{CONFIRMATION_TEXT[entry.confirmation]}</dd>
        </div>
        <div>
          <dt>No-shows</dt>
          <dd>{entry.noShows}</dd>
        </div>
        {statement && (
          <div>
            <dt>Account balance</dt>
            <dd>{balanceText(statement.balance, words, 'desk')}</dd>
          </div>
        )}
        {entry.fee && (
          <div>
            <dt>{FEE_NAMES[entry.fee.kind]}</dt>
            <dd>
              {formatPrice(entry.fee.amount)}, {FEE_STATUS[entry.fee.status]}
              {online && entry.fee.status !== 'waived' && (
                <button
                  type="button"
                  className="button button--small booking-record__waive"
                  disabled={busy}
                  onClick={() => {
                    const id = entry.fee?._id ?? '';
                    void act(() => desk.waiveFee(id));
                  }}
                >
                  Waive fee
                </button>
              )}
            </dd>
          </div>
        )}
      </dl>
      <form className="booking-note" onSubmit={handleNote}>
        <div className="field">
          <label htmlFor={`${ids}-note`}>Note for the front desk</label>
          <textarea
            id={`${ids}-note`}
            rows={2}
            maxLength={500}
            value={note}
            onChange={(event) => setNote(event.target.value)}
          />
        </div>
        <button type="submit" className="button button--small" disabled={busy || note.trim() === (entry.note ?? '')}>
          Save note
        </button>
      </form>
      {online && visitForms?.(entry._id)}
      {entry.status === 'active' && !entry.formsComplete && (
        <p className="booking-record__kiosk">
          <button
            type="button"
            className="button button--small"
            onClick={() =>
              void startKiosk(entry._id, signOut).catch((cause: unknown) => notify.error(errorText(cause)))
            }
          >
            Hand the tablet to {entry.patientName} for their forms
          </button>
        </p>
      )}
      {entry.needsReview && (
        <div className="booking-record__review">
          <p>
            Needs review: a schedule change left it without its doctor, chair or hours, and the patient was told the
            clinic will call. Move it, cancel it, or keep it as it is.
          </p>
          {entry.status === 'active' && (
            <button
              type="button"
              className="button button--small"
              disabled={busy}
              onClick={() => void act(() => desk.keep(entry._id))}
            >
              Keep as it is
            </button>
          )}
        </div>
      )}
      {!online && (
        <p className="muted booking-actions__note">
          Offline: attendance and the note are kept on this device and sent when the connection is back; payments,
          moving and cancelling need the connection.
        </p>
      )}
      {online &&
        live &&
        ((entry.status === 'active' && !entry.paid) || (entry.balanceDue > 0 && entry.status !== 'no_show')) &&
        entry.price > 0 &&
        !cancelling && (
          <fieldset className="booking-record__pay">
            <legend>Paid at the desk ({formatPrice(entry.paid ? entry.balanceDue : entry.price)})</legend>
            <button
              type="button"
              className="button button--small"
              disabled={busy}
              onClick={() => void act(() => desk.deskPayment(entry._id, 'cash'))}
            >
              In cash
            </button>
            <button
              type="button"
              className="button button--small"
              disabled={busy}
              onClick={() => void act(() => desk.deskPayment(entry._id, 'card'))}
            >
              By card
            </button>
          </fieldset>
        )}
      {live && !cancelling && (
        <div className="modal__actions booking-actions">
          {started ? (
            <>
              <button
                type="button"
                className="button"
                disabled={busy || entry.status === 'attended'}
                onClick={() => void act(() => desk.markAttendance(entry, 'attended'))}
              >
                Mark attended
              </button>
              <button
                type="button"
                className="button"
                disabled={busy || entry.status === 'no_show'}
                onClick={() => void act(() => desk.markAttendance(entry, 'no_show', waiveFee))}
              >
                Mark no-show
              </button>
              {entry.noShowFee > 0 && entry.status !== 'no_show' && !entry.fee && (
                <label className="checkbox">
                  <input type="checkbox" checked={waiveFee} onChange={(event) => setWaiveFee(event.target.checked)} />
                  Waive the {formatPrice(entry.noShowFee)} missed-appointment fee
                </label>
              )}
            </>
          ) : (
            <p className="muted booking-actions__note">Attendance can be marked once the appointment has started.</p>
          )}
          {online && entry.status === 'active' && (
            <>
              <button type="button" className="button" disabled={busy} onClick={onReschedule}>
                Reschedule
              </button>
              <button
                type="button"
                className="button button--danger"
                disabled={busy}
                onClick={() => setCancelling(true)}
              >
                Cancel for patient
              </button>
            </>
          )}
        </div>
      )}
      {cancelling && (
        <form className="modal__form booking-cancel" onSubmit={handleCancel} aria-busy={busy || undefined}>
          <div className="field">
            <label htmlFor={`${ids}-reason`}>Reason the patient will see</label>
            <input
              id={`${ids}-reason`}
              type="text"
              required
              maxLength={300}
              value={reason}
              onChange={(event) => setReason(event.target.value)}
            />
          </div>
          {entry.paid && (
            <label className="checkbox">
              <input type="checkbox" checked={refund} onChange={(event) => setRefund(event.currentTarget.checked)} />
              Refund the payment ({formatPrice(entry.price)})
            </label>
          )}
          <div className="modal__actions">
            <button type="submit" className="button button--danger" disabled={busy || !reason.trim()}>
              Cancel booking
            </button>
            <button type="button" className="button" disabled={busy} onClick={() => setCancelling(false)}>
              Keep it
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
