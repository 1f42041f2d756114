import { type ReactNode, useState } from 'react';
import { useSearch } from 'wouter';
import { BookingCalendar } from '../../../components/booking-calendar.tsx';
import { ClinicClosed } from '../../../components/clinic-closed.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { clinicClosedOn, useAppointmentOptions } from '../../../lib/appointment-options.ts';
import { type BookingChoice, choiceOf } from '../../../lib/booking-choice.ts';
import { clinicToday, isoDay, linkedDay } from '../../../lib/clinic-calendar.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { notify } from '../../../lib/notify.ts';
import { useSession } from '../../../lib/session.tsx';
import { useFrame } from '../../../lib/use-hydrated.ts';
import { useOnlineStatus } from '../../../lib/use-online-status.ts';
import { lastVisit, useMyBookings } from '../../bookings/api/get-my-bookings.ts';
import { useMyWaitlist } from '../../bookings/api/waitlist.ts';
import { useDependants } from '../../family/api/dependants.ts';
import type { FamilyVisitProps } from '../../family/api/family-visit.ts';
import { joinWaitlist } from '../api/join-waitlist.ts';
import '../appointments.css';
import { BookingModal, type CardOnFileSlot } from './booking-modal.tsx';
import { ChairArt } from './chair-art.tsx';
import { TreatmentCard } from './treatment-card.tsx';

/**
 * docs/product-booking.md#appointment-page (/appointment, signed in): a calendar beside the chair, then one card per
 * treatment with its free slots on the chosen day, and the booking modal.
 */
/**
 * What another feature draws inside this page, composed by the app (app/pages/appointment-page.tsx): the family
 * visit's dialog, and the card form of a visit that keeps the time with a card on file.
 */
export type AppointmentPageParts = {
  familyVisit?: (visit: FamilyVisitProps) => ReactNode;
  cardOnFile?: CardOnFileSlot;
};

export function AppointmentPage({ familyVisit, cardOnFile }: AppointmentPageParts) {
  // "Today" is the clinic's, in its time zone; days before it and beyond the booking horizon cannot be picked.
  // A link may name the day (`?date=yyyy-mm-dd`) and open the family visit's dialog (`&family`): a family's recall message.
  const search = useSearch();
  const framed = useFrame();
  const [selected, setSelected] = useState<Date>(() => linkedDay(search) ?? clinicToday());
  // A chosen time's link (the public /book page's, a published free time's) names the treatment, the time and
  // perhaps the doctor (`&treatment=&start=&doctor=`; `source` and `booking-referral` need nothing here): its
  // booking dialog opens.
  const [linked] = useState(() => linkedTime(search));
  const [bookingId, setBookingId] = useState<string | null>(linked?.treatment ?? null);
  const online = useOnlineStatus();
  const { data: options, error, isValidating, mutate } = useAppointmentOptions(selected);
  const [joining, setJoining] = useState(false);
  const { user } = useSession();
  const { data: waitlist } = useMyWaitlist(user?.email);
  const { data: family } = useDependants(user?.email);
  const { data: mine } = useMyBookings(user?.email, { keep: false });
  const last = lastVisit(mine?.bookings);
  const again = last ? options?.find((option) => option._id === last.treatmentId && !option.closed) : undefined;
  // "Book again" asks for the last visit's doctor; a card's Book asks for whom the dialog suggests.
  const [againDoctor, setAgainDoctor] = useState<string | null | undefined>(linked?.doctor);
  const [familyVisiting, setFamilyVisiting] = useState(() => new URLSearchParams(search).has('family'));
  const isoDate = isoDay(selected);
  const { t, format } = useLanguage();
  /** Whether the patient already waits for this treatment on the chosen day. */
  const waiting = (treatmentId: string) =>
    waitlist?.some((entry) => entry.treatmentId === treatmentId && entry.from <= isoDate && isoDate <= entry.to) ??
    false;

  /** On a day with no free time for a treatment, the patient waits for one to free up (an offer comes by mail). */
  async function handleJoinWaitlist(treatmentId: string) {
    setJoining(true);
    try {
      const joined = await joinWaitlist({ treatment: treatmentId, from: isoDate });
      notify.success(joined.message);
    } catch (cause) {
      notify.error(errorText(cause, t));
    } finally {
      setJoining(false);
    }
  }

  const displayDate = format.day(selected);
  // The whole clinic closed that day: one sentence, not a card of "0 spaces" per treatment.
  const clinicClosed = clinicClosedOn(options);
  const bookingOption = bookingId ? options?.find((option) => option._id === bookingId) : undefined;

  let content: ReactNode;
  if (error && !options) {
    content = (
      <div className="available__status" role="alert">
        <p>{t('appointment.loadFailed', { reason: errorText(error, t) })}</p>
        <button type="button" className="button" onClick={() => void mutate()} disabled={isValidating}>
          {t('common.tryAgain')}
        </button>
      </div>
    );
  } else if (!options) {
    content = <Spinner label={t('appointment.loading')} />;
  } else if (options.length === 0) {
    content = <p className="available__status">{t('book.none', { doctor: 'any' })}</p>;
  } else if (clinicClosed) {
    content = <ClinicClosed closed={clinicClosed} className="available__status" onSeeDay={setSelected} />;
  } else {
    content = (
      <div className="available__grid">
        {options.map((option) => (
          <TreatmentCard
            key={option._id}
            option={option}
            onBook={() => {
              setAgainDoctor(undefined);
              setBookingId(option._id);
            }}
            waiting={waiting(option._id)}
            onJoinWaitlist={online && !joining ? () => void handleJoinWaitlist(option._id) : undefined}
          />
        ))}
      </div>
    );
  }

  return (
    <div className="appointment-page">
      <section className="appointment-banner" aria-labelledby="appointment-title">
        <div className="appointment-banner__calendar">
          <h1 id="appointment-title">{t('appointment.title')}</h1>
          <p className="section-lead">{t('appointment.lead')}</p>
          <BookingCalendar selected={selected} onSelect={setSelected} />
        </div>
        <ChairArt />
      </section>

      <div role="status" className="appointment-page__offline">
        {!online && <p className="callout">{t('booking.offline')}</p>}
      </div>

      <section className="available" aria-labelledby="available-title">
        <h2 id="available-title" className="available__title">
          {/* A page's frame is built once for every day it is served: no day in it. */}
          {framed ? t('appointment.available') : t('appointment.availableOn', { day: displayDate })}
        </h2>
        {again && last?.doctor && online && !clinicClosed && (
          <p className="available__again">
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                setAgainDoctor(last.doctor?._id);
                setBookingId(again._id);
              }}
            >
              {t('appointment.again', { treatment: again.name, doctor: last.doctor.name })}
            </button>
          </p>
        )}
        {family && family.length > 0 && options && options.length > 0 && online && !clinicClosed && (
          <p className="available__family">
            <button type="button" className="button" onClick={() => setFamilyVisiting(true)}>
              {t('appointment.family')}
            </button>
          </p>
        )}
        {content}
      </section>

      {familyVisiting &&
        options &&
        family &&
        family.length > 0 &&
        familyVisit?.({
          myName: user?.displayName ?? t('appointment.me'),
          family,
          treatments: options,
          isoDate,
          displayDate,
          onClose: () => setFamilyVisiting(false),
        })}
      {bookingOption && (
        <BookingModal
          key={`${bookingOption._id}-${displayDate}`}
          option={bookingOption}
          date={selected}
          linkedStart={
            linked && bookingOption._id === linked.treatment && isoDate === linked.date ? linked.start : null
          }
          {...(againDoctor === undefined ? {} : { linkedDoctor: againDoctor })}
          onClose={() => setBookingId(null)}
          onBooked={() => setBookingId(null)}
          cardOnFile={cardOnFile}
        />
      )}
    </div>
  );
}

/** The treatment, time and doctor a chosen time's link names, on its (bookable) day; null for none. */
function linkedTime(search: string): BookingChoice | null {
  const choice = choiceOf(search);
  return choice && linkedDay(search) ? choice : null;
}
