import { format } from 'date-fns/format';
import { type ReactNode, useId, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { BookingCalendar } from '../../../components/booking-calendar.tsx';
import { formatPrice } from '../../../components/price.ts';
import { Spinner } from '../../../components/spinner.tsx';
import { type AppointmentOption, clinicClosedOn, useAppointmentOptions } from '../../../lib/appointment-options.ts';
import { bookingPath, slotStartText } from '../../../lib/booking-choice.ts';
import { clinicToday, linkedDay, localDay } from '../../../lib/clinic-calendar.ts';
import { errorText } from '../../../lib/error-text.ts';
import { paymentRuleText } from '../../../lib/payment-rules.ts';
import { lengthText } from '../../../lib/schedule-text.ts';
import { useSession } from '../../../lib/session.tsx';
import { type TeamMember, useTeam } from '../../../lib/team.ts';
import { useFrame } from '../../../lib/use-hydrated.ts';
import '../book-page.css';

/**
 * docs/product.md#book (/book, anyone): a day's free times of every treatment as buttons, with price
 * and length, for any doctor or the one chosen. A time leads to the booking page with it chosen;
 * signed out, through Sign Up (or Login), which bring the visitor back to it. Nothing is held here.
 */
export function BookPage() {
  const search = useSearch();
  const framed = useFrame();
  const [selected, setSelected] = useState<Date>(() => linkedDay(search) ?? clinicToday());
  const [doctor, setDoctor] = useState<string | null>(() => new URLSearchParams(search).get('doctor'));
  const { data: team } = useTeam();
  const { data: options, error, isValidating, mutate } = useAppointmentOptions(framed ? null : selected, doctor);
  const { user } = useSession();
  const isoDate = format(selected, 'yyyy-MM-dd');
  const clinicClosed = clinicClosedOn(options);

  /** Where a time leads: the booking page with it chosen, through Sign Up for a visitor who is not signed in. */
  const hrefOf = (option: AppointmentOption, slot: string) => {
    const path = bookingPath({ date: isoDate, treatment: option._id, slot, doctor });
    return user?.email ? path : `/signup?from=${encodeURIComponent(path)}`;
  };

  let content: ReactNode;
  if (framed || (!options && !error)) {
    content = <Spinner label="Loading free times" />;
  } else if (error && !options) {
    content = (
      <div className="book-page__status" role="alert">
        <p>Sorry, the free times could not be loaded: {errorText(error)}</p>
        <button type="button" className="button" onClick={() => void mutate()} disabled={isValidating}>
          Try again
        </button>
      </div>
    );
  } else if (!options || options.length === 0) {
    content = <p className="book-page__status">No treatments are offered{doctor ? ' by this doctor' : ''} yet.</p>;
  } else if (clinicClosed) {
    const next = clinicClosed.nextOpenDate;
    content = (
      <div className="book-page__status">
        <p>Closed: {clinicClosed.reason}</p>
        {next && (
          <button type="button" className="button" onClick={() => setSelected(localDay(next))}>
            See {format(localDay(next), 'EEEE, PP')}, the next day the clinic opens
          </button>
        )}
      </div>
    );
  } else {
    content = (
      <div className="times-list">
        {options.map((option) => (
          <TreatmentTimes key={option._id} option={option} hrefOf={(slot) => hrefOf(option, slot)} />
        ))}
      </div>
    );
  }

  return (
    <div className="book-page">
      <section className="book-page__choose" aria-labelledby="book-title">
        <h1 id="book-title">Book a visit</h1>
        <p className="section-lead">
          Pick a day and a time. You sign in only to confirm it; nothing is held until then.
        </p>
        <DoctorChoice team={team ?? []} value={doctor} onChange={setDoctor} />
        <BookingCalendar selected={selected} onSelect={setSelected} />
      </section>
      <section className="book-page__times" aria-labelledby="times-title" aria-busy={isValidating || undefined}>
        <h2 id="times-title" className="book-page__title">
          {framed ? 'Free times' : `Free times on ${format(selected, 'EEEE, PP')}`}
        </h2>
        {content}
      </section>
    </div>
  );
}

/** Any doctor, or one, each with their photo and specialty: the times shown are theirs. */
function DoctorChoice({
  team,
  value,
  onChange,
}: {
  team: TeamMember[];
  value: string | null;
  onChange(doctor: string | null): void;
}) {
  const name = useId();
  if (team.length < 2) return null;
  return (
    <fieldset className="doctor-choice">
      <legend>Doctor</legend>
      <label className="doctor-choice__item">
        <input type="radio" name={name} checked={value === null} onChange={() => onChange(null)} />
        <span className="doctor-choice__any" aria-hidden="true">
          ★
        </span>
        <span className="doctor-choice__text">
          <span className="doctor-choice__name">Any doctor</span>
          <span className="doctor-choice__specialty">The first free</span>
        </span>
      </label>
      {team.map((member) => (
        <label key={member._id} className="doctor-choice__item">
          <input type="radio" name={name} checked={value === member._id} onChange={() => onChange(member._id)} />
          <img src={member.image} alt="" width={40} height={40} loading="lazy" />
          <span className="doctor-choice__text">
            <span className="doctor-choice__name">{member.name}</span>
            <span className="doctor-choice__specialty">{member.specialty}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** One treatment's free times that day, each a button-like link named "Teeth Cleaning at 10.00 AM". */
function TreatmentTimes({ option, hrefOf }: { option: AppointmentOption; hrefOf(slot: string): string }) {
  const titleId = useId();
  return (
    <article className="times-card" aria-labelledby={titleId}>
      <h3 id={titleId} className="times-card__name">
        {option.name}
      </h3>
      <p className="times-card__facts">
        {lengthText(option.durationMinutes)} · {formatPrice(option.price)}
        {option.payment !== 'full' && option.price > 0 && ` · ${paymentRuleText(option)}`}
      </p>
      {option.closed ? (
        <p className="times-card__none">Closed: {option.closed.reason}</p>
      ) : option.slots.length === 0 ? (
        <p className="times-card__none">No free time this day: try another day.</p>
      ) : (
        <ul className="times-card__times">
          {option.slots.map((slot) => (
            <li key={slot}>
              <Link href={hrefOf(slot)} className="time-button" aria-label={`${option.name} at ${slotStartText(slot)}`}>
                {slotStartText(slot)}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}
