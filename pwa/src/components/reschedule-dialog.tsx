import { type SubmitEvent, useId, useState } from 'react';
import { useFreeSlots } from '../lib/appointment-options.ts';
import { clinicToday, isoDay, localDay } from '../lib/clinic-calendar.ts';
import { errorText } from '../lib/error-text.ts';
import { useLanguage } from '../lib/i18n.tsx';
import { notify } from '../lib/notify.ts';
import { Modal } from './modal.tsx';
import { chosenTime, SlotPicker } from './slot-picker.tsx';

type RescheduleDialogProps = {
  booking: {
    treatment: string;
    treatmentId: string;
    appointmentDate: string;
    date: string;
    slot: string;
    startsAt: string;
    durationMinutes: number;
  };
  /** Moves the booking to `appointmentDate` (yyyy-MM-dd) at `start` ("10:00"); throws the server's refusal. */
  onSubmit(move: { appointmentDate: string; start: string }): Promise<unknown>;
  onClose(): void;
};

/**
 * docs/product-booking.md#reschedule: a new day and one of the treatment's free times that day, for a booking
 * the patient or the front desk moves. A refusal (the time was just taken…) keeps the dialog open on
 * the refreshed times.
 */
export function RescheduleDialog({ booking, onSubmit, onClose }: RescheduleDialogProps) {
  const ids = useId();
  const { t, format } = useLanguage();
  const [date, setDate] = useState(() => {
    const current = localDay(booking.date);
    const today = clinicToday();
    return current.getTime() < today.getTime() ? today : current;
  });
  const [picked, setPicked] = useState('');
  const [sending, setSending] = useState(false);
  const { times, isLoading, error, refresh } = useFreeSlots(date, booking.treatmentId);
  const start = chosenTime(times, picked)?.start;

  const close = () => {
    if (!sending) onClose();
  };

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sending || !start) return;
    setSending(true);
    try {
      await onSubmit({ appointmentDate: isoDay(date), start });
      notify.success(t('move.moved'));
      setSending(false);
      onClose();
      return;
    } catch (cause) {
      notify.error(errorText(cause, t));
      void refresh();
    }
    setSending(false);
  }

  return (
    <Modal labelledBy={`${ids}-title`} describedBy={`${ids}-now`} onClose={close}>
      <h2 id={`${ids}-title`} className="modal__title">
        {t('move.title', { treatment: booking.treatment })}
      </h2>
      <button type="button" className="modal__close" aria-label={t('common.close')} onClick={close} disabled={sending}>
        ×
      </button>
      <p id={`${ids}-now`} className="modal__text">
        {t('move.now', { day: format.visitDay(booking), slot: format.visitTime(booking) })}
      </p>
      <form className="modal__form" onSubmit={handleSubmit} aria-busy={sending || undefined}>
        <SlotPicker
          date={date}
          onDateChange={setDate}
          times={times}
          loading={isLoading}
          error={error}
          value={start ?? ''}
          onChange={setPicked}
          label={t('move.newTime')}
        />
        <button type="submit" className="button button--primary button--block" disabled={sending || !start}>
          {t('move.submit')}
        </button>
      </form>
    </Modal>
  );
}
