import { addDays } from 'date-fns/addDays';
import { differenceInCalendarDays } from 'date-fns/differenceInCalendarDays';
import { type ReactNode, useDeferredValue, useId, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { labelStartText } from '../../../../../contract/slot-label.ts';
import { ClinicClosed } from '../../../components/clinic-closed.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import {
  type AppointmentOption,
  clinicClosedOn,
  freeTimes,
  useAppointmentOptions,
} from '../../../lib/appointment-options.ts';
import { bookingPath } from '../../../lib/booking-choice.ts';
import { clinicToday, isoDay, lastBookableDay, linkedDay } from '../../../lib/clinic-calendar.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { paymentRuleText } from '../../../lib/payment-rules.ts';
import { lengthText } from '../../../lib/schedule-text.ts';
import { useSession } from '../../../lib/session.tsx';
import { type TeamMember, useTeam } from '../../../lib/team.ts';
import { useFrame } from '../../../lib/use-hydrated.ts';
import '../book-page.css';

/**
 * docs/product-visitors.md#free-times-for-everyone (/book, anyone): a day's free times of every treatment as buttons, with price
 * and length, for any doctor or the one chosen. A time leads to the booking page with it chosen;
 * signed out, through Sign Up (or Login), which bring the visitor back to it. Nothing is held here.
 */
export function BookPage() {
  const search = useSearch();
  const framed = useFrame();
  const [selected, setSelected] = useState<Date>(() => linkedDay(search) ?? clinicToday());
  const [doctor, setDoctor] = useState<string | null>(() => new URLSearchParams(search).get('doctor'));
  // What arrives is drawn in a render that yields to the browser every few milliseconds (a deferred value's render
  // is a transition): the week's cards in one go blocked a phone's main thread for 50-90 ms as the page loaded.
  const team = useDeferredValue(useTeam().data);
  const answer = useAppointmentOptions(framed ? null : selected, doctor);
  const { error, isValidating, mutate } = answer;
  const options = useDeferredValue(answer.data);
  const { user } = useSession();
  const isoDate = isoDay(selected);
  const clinicClosed = clinicClosedOn(options);
  const { t, format } = useLanguage();

  /** Where a time leads: the booking page with it chosen, through Sign Up for a visitor who is not signed in. */
  const hrefOf = (option: AppointmentOption, start: string) => {
    const path = bookingPath({ date: isoDate, treatment: option._id, start, doctor });
    return user?.email ? path : `/signup?from=${encodeURIComponent(path)}`;
  };

  let content: ReactNode;
  if (framed || (!options && !error)) {
    content = <Spinner label={t('book.loading')} />;
  } else if (error && !options) {
    content = (
      <div className="book-page__status" role="alert">
        <p>{t('book.loadFailed', { reason: errorText(error, t) })}</p>
        <button type="button" className="button" onClick={() => void mutate()} disabled={isValidating}>
          {t('common.tryAgain')}
        </button>
      </div>
    );
  } else if (!options || options.length === 0) {
    content = <p className="book-page__status">{t('book.none', { doctor: doctor ? 'one' : 'any' })}</p>;
  } else if (clinicClosed) {
    content = <ClinicClosed closed={clinicClosed} className="book-page__status" onSeeDay={setSelected} />;
  } else {
    content = (
      <div className="times-list">
        {options.map((option) => (
          <TreatmentTimes key={option._id} option={option} hrefOf={(start) => hrefOf(option, start)} />
        ))}
      </div>
    );
  }

  return (
    <div className="book-page">
      <section className="book-page__choose" aria-labelledby="book-title">
        <h1 id="book-title">{t('book.title')}</h1>
        <p className="section-lead">{t('book.lead')}</p>
        <DoctorChoice team={team ?? []} value={doctor} onChange={setDoctor} />
        <DayStrip selected={selected} onSelect={setSelected} />
      </section>
      <section
        className="book-page__times"
        aria-labelledby="times-title"
        aria-describedby="times-day"
        aria-busy={isValidating || undefined}
      >
        {/* The same words in the prerendered frame and after: the day on a line of its own, so the heading's
            paint is not redone once the app has loaded (it would count as the page's largest paint, late). */}
        <h2 id="times-title" className="book-page__title">
          {t('book.times')}
        </h2>
        <p id="times-day" className="book-page__day">
          {framed ? '\u00a0' : format.fullDay(selected)}
        </p>
        {content}
      </section>
    </div>
  );
}

/**
 * Any doctor, or one: a button that says who (it keeps its size whether the doctors have loaded or not, so
 * nothing below it moves), opening the list of doctors with their photos and specialties. The times shown
 * are the chosen doctor's.
 */
function DoctorChoice({
  team,
  value,
  onChange,
}: {
  team: TeamMember[];
  value: string | null;
  onChange(doctor: string | null): void;
}) {
  const [open, setOpen] = useState(false);
  const name = useId();
  const chosen = team.find((member) => member._id === value);
  const t = useLanguage().t;
  const choose = (doctor: string | null) => {
    onChange(doctor);
    setOpen(false);
  };
  return (
    <div className="doctor-choice">
      <button
        type="button"
        className="doctor-choice__toggle"
        aria-expanded={open}
        aria-controls={name}
        onClick={() => setOpen(!open)}
      >
        <DoctorFace member={chosen} />
        <span className="doctor-choice__text">
          <span className="doctor-choice__specialty">{t('book.doctor')}</span>
          <span className="doctor-choice__name">{chosen?.name ?? t('book.anyDoctor')}</span>
        </span>
        <span className="doctor-choice__change">{t('book.change')}</span>
      </button>
      {open && (
        <fieldset id={name} className="doctor-choice__list">
          <legend className="visually-hidden">{t('book.doctor')}</legend>
          <label className="doctor-choice__item">
            <input type="radio" name={name} checked={value === null} onChange={() => choose(null)} />
            <DoctorFace member={undefined} />
            <span className="doctor-choice__text">
              <span className="doctor-choice__name">{t('book.anyDoctor')}</span>
              <span className="doctor-choice__specialty">{t('book.firstFree')}</span>
            </span>
          </label>
          {team.map((member) => (
            <label key={member._id} className="doctor-choice__item">
              <input type="radio" name={name} checked={value === member._id} onChange={() => choose(member._id)} />
              <DoctorFace member={member} />
              <span className="doctor-choice__text">
                <span className="doctor-choice__name">{member.name}</span>
                <span className="doctor-choice__specialty">{member.specialty}</span>
              </span>
            </label>
          ))}
        </fieldset>
      )}
    </div>
  );
}

/** A doctor's photo, or for any doctor a star in the same place. */
function DoctorFace({ member }: { member: TeamMember | undefined }) {
  return member ? (
    <img src={member.image} alt="" width={40} height={40} loading="lazy" />
  ) : (
    <span className="doctor-choice__any" aria-hidden="true">
      ★
    </span>
  );
}

const STRIP_DAYS = 7;

/**
 * The bookable days a week at a time, each a button ("Thu 3 Dec"), with
 * earlier and later weeks: lighter than a month's calendar, and the next days are a tap away.
 */
function DayStrip({ selected, onSelect }: { selected: Date; onSelect(day: Date): void }) {
  const [today] = useState(() => clinicToday());
  const last = lastBookableDay(today);
  const pageOf = (day: Date) => Math.floor(differenceInCalendarDays(day, today) / STRIP_DAYS);
  const [page, setPage] = useState(() => pageOf(selected));
  const chosen = isoDay(selected);
  // A day chosen from outside the strip (the next day the clinic opens) brings its week.
  const [shownFor, setShownFor] = useState(chosen);
  if (shownFor !== chosen) {
    setShownFor(chosen);
    setPage(pageOf(selected));
  }
  const first = addDays(today, page * STRIP_DAYS);
  const days = Array.from({ length: STRIP_DAYS }, (_, n) => addDays(first, n)).filter((day) => day <= last);
  const { t, format } = useLanguage();
  return (
    <nav className="day-strip" aria-label={t('book.days')}>
      <div className="day-strip__head">
        <button type="button" className="day-strip__turn" onClick={() => setPage(page - 1)} disabled={page === 0}>
          {t('book.earlier')}
        </button>
        <span className="day-strip__month">{format.month(first)}</span>
        <button
          type="button"
          className="day-strip__turn"
          onClick={() => setPage(page + 1)}
          disabled={addDays(first, STRIP_DAYS) > last}
        >
          {t('book.later')}
        </button>
      </div>
      <ul className="day-strip__days">
        {days.map((day) => (
          <li key={day.getTime()}>
            <button
              type="button"
              className="day-strip__day"
              aria-pressed={isoDay(day) === chosen}
              onClick={() => onSelect(day)}
            >
              {/* Its name is what it shows ("Thu 3 Dec"), which a speech user can say. */}
              <span>{format.weekday(day)}</span> <strong>{day.getDate()}</strong> <span>{format.monthShort(day)}</span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** How many of a treatment's times show before "Show all": a screenful, and less for the page to draw at first. */
const FIRST_TIMES = 8;

/** One treatment's free times that day, each a button-like link named "Teeth Cleaning at 10.00 AM". */
function TreatmentTimes({ option, hrefOf }: { option: AppointmentOption; hrefOf(start: string): string }) {
  const titleId = useId();
  const [all, setAll] = useState(false);
  const times = freeTimes(option);
  const shown = all ? times : times.slice(0, FIRST_TIMES);
  const words = useLanguage();
  const { t, format } = words;
  return (
    <article className="times-card" aria-labelledby={titleId}>
      <h3 id={titleId} className="times-card__name">
        {option.name}
      </h3>
      <p className="times-card__facts">
        {lengthText(option.durationMinutes)} · {format.price(option.price)}
        {option.payment !== 'full' && option.price > 0 && ` · ${paymentRuleText(option, words)}`}
      </p>
      {option.closed ? (
        <p className="times-card__none">{t('closed.reason', { reason: option.closed.reason })}</p>
      ) : times.length === 0 ? (
        <p className="times-card__none">{t('book.noTime')}</p>
      ) : (
        <ul className="times-card__times">
          {shown.map((time) => (
            <li key={time.start}>
              <Link
                href={hrefOf(time.start)}
                className="time-button"
                aria-label={t('book.timeName', { treatment: option.name, time: labelStartText(time.label) })}
              >
                {labelStartText(time.label)}
              </Link>
            </li>
          ))}
          {shown.length < times.length && (
            <li>
              <button
                type="button"
                className="time-button time-button--more"
                onClick={() => setAll(true)}
                aria-label={t('book.showAll', { count: times.length, treatment: option.name })}
              >
                {t('book.all', { count: times.length })}
              </button>
            </li>
          )}
        </ul>
      )}
    </article>
  );
}
