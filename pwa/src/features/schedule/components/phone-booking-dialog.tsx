import { format } from 'date-fns/format';
import { type ReactNode, type SubmitEvent, useId, useState } from 'react';
import useSWR from 'swr';
import type { Doctor } from '../../../../../contract/doctors.ts';
import type { Language } from '../../../../../contract/languages.ts';
import type { Treatment } from '../../../../../contract/treatments.ts';
import { LanguageOptions } from '../../../components/language-options.tsx';
import { Modal } from '../../../components/modal.tsx';
import { formatPrice } from '../../../components/price.ts';
import { chosenTime, SlotPicker } from '../../../components/slot-picker.tsx';
import { apiFetcher } from '../../../lib/api.ts';
import { APPOINTMENT_DATE_FORMAT, freeTimes, useFreeSlots } from '../../../lib/appointment-options.ts';
import { clinicMomentText } from '../../../lib/booking-rules.ts';
import { DOCTORS_KEY, TREATMENTS_KEY } from '../../../lib/cache-keys.ts';
import { isoDay } from '../../../lib/clinic-calendar.ts';
import { errorText } from '../../../lib/error-text.ts';
import { notify } from '../../../lib/notify.ts';
import type { FamilyVisitProps } from '../../family/api/family-visit.ts';
import { type PatientMatch, useFrontDesk, usePatientSearch } from '../api/front-desk-actions.ts';

/** The family feature's visit dialog, which the app composes in (app/pages/schedule-page.tsx). */
export type FamilyVisitSlot = (visit: FamilyVisitProps) => ReactNode;

type PhoneBookingDialogProps = {
  familyVisitDialog?: FamilyVisitSlot;
  /** The day to start on. */
  initialDate: Date;
  /** Booked: the booking's date (ISO), so the schedule can show it. */
  onBooked(isoDate: string): void;
  onClose(): void;
};

/** Why Book is not available yet, in the order the desk fills the form; null once it is. */
function missingStep(form: {
  who: 'existing' | 'new';
  patient: PatientMatch | null;
  name: string;
  phone: string;
  hasTreatment: boolean;
  start: string | undefined;
}): string | null {
  if (form.who === 'existing' && !form.patient) return 'Find the caller and choose them in the list.';
  if (form.who === 'new' && !form.name.trim()) return 'Enter the new patient’s name.';
  if (!form.phone.trim()) return 'Enter a phone number to reach the patient.';
  if (!form.hasTreatment) return 'Choose a treatment.';
  if (!form.start) return 'Pick a day with a free time.';
  return null;
}

/**
 * docs/product-admin.md#book-by-phone: the front desk books for a caller in five steps: find them (or add
 * them: a name and a phone; an email if they have one), choose the treatment and time (the day
 * starts on the schedule's), the doctor they ask for (any by default), and Book. A phone booking is
 * paid at the clinic and keeps its time; the desk may instead ask for online payment by a deadline,
 * and give a reason to go past the patient's unpaid limit. Book says what it still needs.
 */
export function PhoneBookingDialog({ initialDate, onBooked, onClose, familyVisitDialog }: PhoneBookingDialogProps) {
  const ids = useId();
  const desk = useFrontDesk();
  const [who, setWho] = useState<'existing' | 'new'>('existing');
  const [query, setQuery] = useState('');
  const [patient, setPatient] = useState<PatientMatch | null>(null);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [language, setLanguage] = useState<Language>('en');
  const [phone, setPhone] = useState('');
  const [date, setDate] = useState(initialDate);
  const [treatmentId, setTreatmentId] = useState('');
  const [doctorId, setDoctorId] = useState('');
  const [payment, setPayment] = useState<'clinic' | 'online'>('clinic');
  const [limitReason, setLimitReason] = useState('');
  const [picked, setPicked] = useState('');
  const [sending, setSending] = useState(false);
  // The caller books for their family: the family visit's dialog, for their account.
  const [familyVisit, setFamilyVisit] = useState(false);
  const search = usePatientSearch(who === 'existing' ? query : '');
  const free = useFreeSlots(date, treatmentId);
  const { data: treatments } = useSWR<Treatment[]>(TREATMENTS_KEY, apiFetcher<Treatment[]>);
  const { data: doctors } = useSWR<Doctor[]>(DOCTORS_KEY, apiFetcher<Doctor[]>);
  const options = free.options ?? [];
  const option = free.option ?? options[0];
  const times = option ? freeTimes(option) : [];
  const start = chosenTime(times, picked)?.start;
  const specialty = treatments?.find((t) => t._id === option?._id)?.specialty;
  const able = (doctors ?? []).filter((doctor) => doctor.specialty === specialty);
  const doctor = able.find((d) => d._id === doctorId);
  const missing = missingStep({ who, patient, name, phone, hasTreatment: Boolean(option), start });
  const ready = !sending && missing === null;

  const close = () => {
    if (!sending) onClose();
  };

  if (familyVisit && patient && familyVisitDialog) {
    return familyVisitDialog({
      myName: patient.name,
      family: patient.family,
      treatments: options,
      isoDate: isoDay(date),
      displayDate: format(date, APPOINTMENT_DATE_FORMAT),
      desk: {
        accountId: patient._id,
        phone: phone.trim(),
        onBooked(message) {
          notify.success(message, 'To pay at the clinic: the times are kept.');
          onBooked(isoDay(date));
        },
      },
      onClose: () => setFamilyVisit(false),
    });
  }

  function choose(match: PatientMatch) {
    setPatient(match);
    if (!phone.trim()) setPhone(match.phone);
  }

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!ready || !option || !start) return;
    setSending(true);
    try {
      const booked = await desk.bookByPhone({
        ...(who === 'existing' && patient
          ? { patientId: patient._id }
          : { patient: { name: name.trim(), ...(email.trim() ? { email: email.trim() } : {}), language } }),
        phone: phone.trim(),
        treatment: option.name,
        appointmentDate: isoDay(date),
        start,
        ...(doctor ? { doctorId: doctor._id } : {}),
        payment,
        ...(payment === 'online' && limitReason.trim() ? { limitReason: limitReason.trim() } : {}),
      });
      notify.success(
        booked.message,
        booked.payBy
          ? `To pay online by ${clinicMomentText(booked.payBy)}, or the time is released.`
          : 'To pay at the clinic: the time is kept.',
      );
      setSending(false);
      onBooked(isoDay(date));
      return;
    } catch (cause) {
      notify.error(errorText(cause));
      void free.refresh();
    }
    setSending(false);
  }

  return (
    <Modal labelledBy={`${ids}-title`} onClose={close} wide>
      <h2 id={`${ids}-title`} className="modal__title">
        Book by phone
      </h2>
      <button type="button" className="modal__close" aria-label="Close" onClick={close} disabled={sending}>
        ×
      </button>
      <form className="modal__form phone-booking" onSubmit={handleSubmit} aria-busy={sending || undefined}>
        <div className="phone-booking__column">
          <fieldset className="phone-booking__who">
            <legend>Patient</legend>
            <label>
              <input
                type="radio"
                name={`${ids}-who`}
                checked={who === 'existing'}
                onChange={() => setWho('existing')}
              />{' '}
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
                        {match.name} <span className="muted">{match.email || match.phone}</span>
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
              {patient && patient.family.length > 0 && (
                <p className="phone-booking__family">
                  <span className="muted">Family: {patient.family.map((m) => m.name).join(', ')}</span>{' '}
                  <button
                    type="button"
                    className="button button--small"
                    onClick={() => setFamilyVisit(true)}
                    disabled={!phone.trim() || options.length === 0}
                  >
                    Book a family visit
                  </button>
                </p>
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
                <label htmlFor={`${ids}-email`}>Email (if they have one)</label>
                <input
                  id={`${ids}-email`}
                  type="email"
                  autoComplete="off"
                  maxLength={254}
                  value={email}
                  onChange={(event) => setEmail(event.target.value)}
                  aria-describedby={`${ids}-email-note`}
                />
                <p id={`${ids}-email-note`} className="field__hint">
                  Without one they get no mail: the clinic reaches them by phone.
                </p>
              </div>
              <div className="field">
                <label htmlFor={`${ids}-language`}>Language of their mails and texts</label>
                <select
                  id={`${ids}-language`}
                  value={language}
                  onChange={(event) => setLanguage(event.target.value as Language)}
                >
                  <LanguageOptions />
                </select>
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
              onChange={(event) => {
                setTreatmentId(event.target.value);
                setDoctorId('');
              }}
              disabled={options.length === 0}
            >
              {options.map((o) => (
                <option key={o._id} value={o._id}>
                  {o.name} ({o.durationMinutes} min, {formatPrice(o.price)})
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label htmlFor={`${ids}-doctor`}>Doctor</label>
            <select
              id={`${ids}-doctor`}
              value={doctor?._id ?? ''}
              onChange={(event) => setDoctorId(event.target.value)}
            >
              <option value="">Any free doctor</option>
              {able.map((d) => (
                <option key={d._id} value={d._id}>
                  {d.name}
                </option>
              ))}
            </select>
          </div>
        </div>
        <div className="phone-booking__column">
          <SlotPicker
            date={date}
            onDateChange={setDate}
            times={times}
            loading={free.isLoading}
            error={free.error}
            value={start ?? ''}
            onChange={setPicked}
          />
          <fieldset className="phone-booking__payment">
            <legend>Payment</legend>
            <label>
              <input
                type="radio"
                name={`${ids}-payment`}
                checked={payment === 'clinic'}
                onChange={() => setPayment('clinic')}
              />{' '}
              At the clinic (the time is kept)
            </label>
            <label>
              <input
                type="radio"
                name={`${ids}-payment`}
                checked={payment === 'online'}
                onChange={() => setPayment('online')}
              />{' '}
              Online, by a deadline (or the time is released)
            </label>
          </fieldset>
          {payment === 'online' && (
            <div className="field">
              <label htmlFor={`${ids}-reason`}>Reason to go past their unpaid limit (only if needed)</label>
              <input
                id={`${ids}-reason`}
                type="text"
                autoComplete="off"
                maxLength={300}
                value={limitReason}
                onChange={(event) => setLimitReason(event.target.value)}
                aria-describedby={`${ids}-reason-note`}
              />
              <p id={`${ids}-reason-note`} className="field__hint">
                Kept in the Activity log.
              </p>
            </div>
          )}
        </div>
        <div className="phone-booking__submit">
          {missing && (
            <p id={`${ids}-missing`} className="phone-booking__missing">
              {missing}
            </p>
          )}
          <button
            type="submit"
            className="button button--primary button--block"
            disabled={!ready}
            aria-describedby={missing ? `${ids}-missing` : undefined}
          >
            Book
          </button>
        </div>
      </form>
    </Modal>
  );
}
