import { format } from 'date-fns/format';
import { type SubmitEvent, useId, useRef, useState } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { APPOINTMENT_DATE_FORMAT, type AppointmentOption } from '../../../lib/appointment-options.ts';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { lengthText } from '../../../lib/schedule-text.ts';
import { useSession } from '../../../lib/session.tsx';
import { useOnlineStatus } from '../../../lib/use-online-status.ts';
import { type Booking, useCreateBooking } from '../api/create-booking.ts';

export const OFFLINE_BOOKING_MESSAGE = 'You are offline. Booking needs a connection.';
export const DOCTOR_CHOSEN_TEXT = 'Chosen when you book: the doctor free at your time';

type BookingModalProps = {
  /** The card's treatment, kept current: after a refusal its slots are refetched and the choice follows. */
  option: AppointmentOption;
  date: Date;
  onClose(): void;
  /** The booking was confirmed: the caller closes the modal. (Booking refreshes the slots itself.) */
  onBooked(): void;
};

/**
 * docs/product.md#booking-modal: how long it takes, and who will see the patient. The server picks
 * the doctor when it books (the least busy one free at that time), so the modal says so, and the
 * confirmation names them.
 */
function BookingFacts({ option }: { option: AppointmentOption }) {
  return (
    <dl className="booking-facts">
      <div className="booking-facts__item">
        <dt>Length</dt>
        <dd>{lengthText(option.durationMinutes)}</dd>
      </div>
      <div className="booking-facts__item">
        <dt>Doctor</dt>
        <dd className="booking-facts__note">{DOCTOR_CHOSEN_TEXT}</dd>
      </div>
    </dl>
  );
}

/** The doctor who will see the patient, with their photo, under the "Booking confirmed" toast. */
function BookedWith({ doctor, minutes }: { doctor: Booking['doctor']; minutes: number }) {
  if (!doctor) return <span>{lengthText(minutes)}</span>;
  return (
    <span className="booked-with">
      <img src={doctor.image} alt="" width={32} height={32} />
      With {doctor.name}, {lengthText(minutes)}
    </span>
  );
}

/**
 * docs/product.md#booking-modal: the doctor and length, the date, name and email read-only, a slot
 * from the card's free slots and a free-text phone number. Submitting posts the booking; toasts tell
 * how it went.
 */
export function BookingModal({ option, date, onClose, onBooked }: BookingModalProps) {
  const { user } = useSession();
  const createBooking = useCreateBooking();
  const online = useOnlineStatus();
  const ids = useId();
  const slotRef = useRef<HTMLSelectElement>(null);
  const [slot, setSlot] = useState(option.slots[0] ?? '');
  const [phone, setPhone] = useState('');
  const [sending, setSending] = useState(false);

  const appointmentDate = format(date, APPOINTMENT_DATE_FORMAT);
  const patientName = user?.displayName ?? '';
  const email = user?.email ?? '';
  // A refetch may have taken the chosen slot away: fall back to the first one still free.
  const chosenSlot = option.slots.includes(slot) ? slot : (option.slots[0] ?? '');

  const close = () => {
    if (!sending) onClose();
  };

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!online || sending || !chosenSlot) return;
    setSending(true);
    try {
      const { result, booking } = await createBooking({
        treatment: option.name,
        appointmentDate,
        slot: chosenSlot,
        patientName,
        email,
        phone: phone.trim(),
        price: option.price,
      });
      if (result.acknowledged) {
        notify.success(
          'Booking confirmed',
          booking && <BookedWith doctor={booking.doctor} minutes={booking.durationMinutes} />,
        );
        setSending(false);
        onBooked();
        return;
      }
      // Refused (the slot was just taken, …): the modal stays open on the refreshed slots.
      notify.error(result.message);
    } catch (cause) {
      notify.error(errorText(cause));
    }
    setSending(false);
  }

  return (
    <Modal labelledBy={`${ids}-title`} onClose={close} initialFocus={slotRef}>
      <h2 id={`${ids}-title`} className="modal__title">
        {option.name}
      </h2>
      <button type="button" className="modal__close" aria-label="Close" onClick={close} disabled={sending}>
        ×
      </button>
      <BookingFacts option={option} />
      <form className="modal__form booking-form" onSubmit={handleSubmit} aria-busy={sending || undefined}>
        <div className="field">
          <label htmlFor={`${ids}-date`}>Date</label>
          <input id={`${ids}-date`} type="text" value={appointmentDate} readOnly />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-slot`}>Slot</label>
          <select
            ref={slotRef}
            id={`${ids}-slot`}
            value={chosenSlot}
            onChange={(event) => setSlot(event.target.value)}
            disabled={option.slots.length === 0}
          >
            {option.slots.map((free) => (
              <option key={free} value={free}>
                {free}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor={`${ids}-name`}>Name</label>
          <input id={`${ids}-name`} type="text" value={patientName} readOnly autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-email`}>Email</label>
          <input id={`${ids}-email`} type="email" value={email} readOnly autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-phone`}>Phone Number</label>
          <input
            id={`${ids}-phone`}
            type="tel"
            autoComplete="tel"
            maxLength={40}
            value={phone}
            onChange={(event) => setPhone(event.target.value)}
          />
        </div>
        <div role="status">
          {!online && (
            <p id={`${ids}-offline`} className="booking-offline-note">
              {OFFLINE_BOOKING_MESSAGE}
            </p>
          )}
        </div>
        <button
          type="submit"
          className="button button--primary button--block"
          disabled={!online || sending || !chosenSlot}
          aria-describedby={online ? undefined : `${ids}-offline`}
        >
          Submit
        </button>
      </form>
    </Modal>
  );
}
