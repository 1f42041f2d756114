import { format } from 'date-fns/format';
import { parse } from 'date-fns/parse';
import { type SubmitEvent, useId, useState } from 'react';
import { APPOINTMENT_DATE_FORMAT, useFreeSlots } from '../lib/appointment-options.ts';
import { clinicToday } from '../lib/clinic-calendar.ts';
import { errorText } from '../lib/error-text.ts';
import { notify } from '../lib/notify.ts';
import { Modal } from './modal.tsx';
import { chosenSlot, SlotPicker } from './slot-picker.tsx';

type RescheduleDialogProps = {
  booking: { treatment: string; treatmentId: string; appointmentDate: string; date: string; slot: string };
  /** Moves the booking to `appointmentDate` (date-fns PP) and `slot`; throws the server's refusal. */
  onSubmit(move: { appointmentDate: string; slot: string }): Promise<unknown>;
  onClose(): void;
};

/**
 * docs/product-booking.md#reschedule: a new day and one of the treatment's free times that day, for a booking
 * the patient or the front desk moves. A refusal (the time was just taken…) keeps the dialog open on
 * the refreshed times.
 */
export function RescheduleDialog({ booking, onSubmit, onClose }: RescheduleDialogProps) {
  const ids = useId();
  const [date, setDate] = useState(() => {
    const current = parse(booking.date, 'yyyy-MM-dd', new Date());
    const today = clinicToday();
    return current.getTime() < today.getTime() ? today : current;
  });
  const [picked, setPicked] = useState('');
  const [sending, setSending] = useState(false);
  const { slots, isLoading, error, refresh } = useFreeSlots(date, booking.treatmentId);
  const slot = chosenSlot(slots, picked);

  const close = () => {
    if (!sending) onClose();
  };

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending || !slot) return;
    setSending(true);
    try {
      await onSubmit({ appointmentDate: format(date, APPOINTMENT_DATE_FORMAT), slot });
      notify.success('Appointment moved');
      setSending(false);
      onClose();
      return;
    } catch (cause) {
      notify.error(errorText(cause));
      void refresh();
    }
    setSending(false);
  }

  return (
    <Modal labelledBy={`${ids}-title`} describedBy={`${ids}-now`} onClose={close}>
      <h2 id={`${ids}-title`} className="modal__title">
        Reschedule {booking.treatment}
      </h2>
      <button type="button" className="modal__close" aria-label="Close" onClick={close} disabled={sending}>
        ×
      </button>
      <p id={`${ids}-now`} className="modal__text">
        Now: {booking.appointmentDate}, {booking.slot}
      </p>
      <form className="modal__form" onSubmit={handleSubmit} aria-busy={sending || undefined}>
        <SlotPicker
          date={date}
          onDateChange={setDate}
          slots={slots}
          loading={isLoading}
          error={error}
          value={slot}
          onChange={setPicked}
          label="New time"
        />
        <button type="submit" className="button button--primary button--block" disabled={sending || !slot}>
          Move appointment
        </button>
      </form>
    </Modal>
  );
}
