import { format } from 'date-fns/format';
import { type SubmitEvent, useId, useState } from 'react';
import { Modal } from '../../../components/modal.tsx';
import { formatPrice } from '../../../components/price.ts';
import { chosenSlot, SlotPicker } from '../../../components/slot-picker.tsx';
import { APPOINTMENT_DATE_FORMAT, useFreeSlots } from '../../../lib/appointment-options.ts';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import { type PatientMatch, useFrontDesk, usePatientSearch } from '../api/front-desk-actions.ts';

type PhoneBookingDialogProps = {
  /** The day to start on. */
  initialDate: Date;
  /** Booked: the booking's date (ISO), so the schedule can show it. */
  onBooked(isoDate: string): void;
  onClose(): void;
};

/**
 * docs/product.md#schedule: "Book by phone". The front desk finds the caller among the patients (by
 * name or email) or adds them (name, email), then picks the treatment, day and time: the same
 * rules as a patient's own booking.
 */
export function PhoneBookingDialog({ initialDate, onBooked, onClose }: PhoneBookingDialogProps) {
  const ids = useId();
  const desk = useFrontDesk();
  const [who, setWho] = useState<'existing' | 'new'>('existing');
  const [query, setQuery] = useState('');
  const [patient, setPatient] = useState<PatientMatch | null>(null);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [phone, setPhone] = useState('');
  const [date, setDate] = useState(initialDate);
  const [treatmentId, setTreatmentId] = useState('');
  const [picked, setPicked] = useState('');
  const [sending, setSending] = useState(false);
  const search = usePatientSearch(who === 'existing' ? query : '');
  const free = useFreeSlots(date, treatmentId);
  const options = free.options ?? [];
  const option = free.option ?? options[0];
  const slots = option?.slots ?? [];
  const slot = chosenSlot(slots, picked);
  const ready =
    !sending &&
    Boolean(option && slot && phone.trim()) &&
    (who === 'existing' ? patient !== null : Boolean(name.trim() && email.trim()));

  const close = () => {
    if (!sending) onClose();
  };

  function choose(match: PatientMatch) {
    setPatient(match);
    if (!phone.trim()) setPhone(match.phone);
  }

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!ready || !option) return;
    setSending(true);
    try {
      const { message } = await desk.bookByPhone({
        ...(who === 'existing' && patient
          ? { patientId: patient._id }
          : { patient: { name: name.trim(), email: email.trim() } }),
        phone: phone.trim(),
        treatment: option.name,
        appointmentDate: format(date, APPOINTMENT_DATE_FORMAT),
        slot,
      });
      notify.success(message);
      setSending(false);
      onBooked(format(date, 'yyyy-MM-dd'));
      return;
    } catch (cause) {
      notify.error(errorText(cause));
      void free.refresh();
    }
    setSending(false);
  }

  return (
    <Modal labelledBy={`${ids}-title`} onClose={close}>
      <h2 id={`${ids}-title`} className="modal__title">
        Book by phone
      </h2>
      <button type="button" className="modal__close" aria-label="Close" onClick={close} disabled={sending}>
        ×
      </button>
      <form className="modal__form phone-booking" onSubmit={handleSubmit} aria-busy={sending || undefined}>
        <fieldset className="phone-booking__who">
          <legend>Patient</legend>
          <label>
            <input type="radio" name={`${ids}-who`} checked={who === 'existing'} onChange={() => setWho('existing')} />{' '}
            Existing patient
          </label>
          <label>
            <input type="radio" name={`${ids}-who`} checked={who === 'new'} onChange={() => setWho('new')} /> New
            patient
          </label>
        </fieldset>
        {who === 'existing' ? (
          <>
            <div className="field">
              <label htmlFor={`${ids}-query`}>Find by name or email</label>
              <input
                id={`${ids}-query`}
                type="search"
                autoComplete="off"
                value={query}
                onChange={(event) => {
                  setQuery(event.target.value);
                  setPatient(null);
                }}
              />
            </div>
            {query.trim().length >= 2 && (
              <fieldset className="phone-booking__matches">
                <legend>Patients found</legend>
                {search.error ? (
                  <p role="alert">{errorText(search.error)}</p>
                ) : !search.data ? (
                  <p className="muted">Searching…</p>
                ) : search.data.length === 0 ? (
                  <p className="muted">Nobody matches; add them as a new patient.</p>
                ) : (
                  search.data.map((match) => (
                    <label key={match._id} className="phone-booking__match">
                      <input
                        type="radio"
                        name={`${ids}-patient`}
                        checked={patient?._id === match._id}
                        onChange={() => choose(match)}
                      />{' '}
                      {match.name} <span className="muted">{match.email}</span>
                      {match.noShows > 0 && (
                        <span className="badge badge--cancelled">
                          {match.noShows} no-show{match.noShows === 1 ? '' : 's'}
                        </span>
                      )}
                    </label>
                  ))
                )}
              </fieldset>
            )}
          </>
        ) : (
          <>
            <div className="field">
              <label htmlFor={`${ids}-name`}>Name</label>
              <input
                id={`${ids}-name`}
                type="text"
                autoComplete="off"
                maxLength={100}
                value={name}
                onChange={(event) => setName(event.target.value)}
              />
            </div>
            <div className="field">
              <label htmlFor={`${ids}-email`}>Email</label>
              <input
                id={`${ids}-email`}
                type="email"
                autoComplete="off"
                maxLength={254}
                value={email}
                onChange={(event) => setEmail(event.target.value)}
              />
            </div>
          </>
        )}
        <div className="field">
          <label htmlFor={`${ids}-phone`}>Phone Number</label>
          <input
            id={`${ids}-phone`}
            type="tel"
            autoComplete="off"
            maxLength={40}
            value={phone}
            onChange={(event) => setPhone(event.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-treatment`}>Treatment</label>
          <select
            id={`${ids}-treatment`}
            value={option?._id ?? ''}
            onChange={(event) => setTreatmentId(event.target.value)}
            disabled={options.length === 0}
          >
            {options.map((o) => (
              <option key={o._id} value={o._id}>
                {o.name} ({o.durationMinutes} min, {formatPrice(o.price)})
              </option>
            ))}
          </select>
        </div>
        <SlotPicker
          date={date}
          onDateChange={setDate}
          slots={slots}
          loading={free.isLoading}
          error={free.error}
          value={slot}
          onChange={setPicked}
        />
        <button type="submit" className="button button--primary button--block" disabled={!ready}>
          Book
        </button>
      </form>
    </Modal>
  );
}
