import { type ReactNode, type SubmitEvent, Suspense, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'wouter';
import { labelStartText, startClockText, startMinuteOf } from '../../../../../contract/slot-label.ts';
import { Modal } from '../../../components/modal.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import {
  type AppointmentOption,
  type FreeTime,
  freeTimes,
  useAppointmentOptions,
} from '../../../lib/appointment-options.ts';
import {
  deadlinesOf,
  holdSentence,
  payBySentence,
  policySentence,
  useBookingRules,
} from '../../../lib/booking-rules.ts';
import { isoDay, startInstant } from '../../../lib/clinic-calendar.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { notify } from '../../../lib/notify.ts';
import { feeSentence, paymentRuleText } from '../../../lib/payment-rules.ts';
import { lengthText } from '../../../lib/schedule-text.ts';
import { useSession } from '../../../lib/session.tsx';
import { useTeam } from '../../../lib/team.ts';
import { useOnlineStatus } from '../../../lib/use-online-status.ts';
import { lastVisit, useMyBookings } from '../../bookings/api/get-my-bookings.ts';
import { useDependants } from '../../family/api/dependants.ts';
import { useCards } from '../../payments/api/cards.ts';
import { type Booking, book } from '../api/create-booking.ts';

/** The card form of a visit kept with a card on file (the payments feature's, composed by the app). */
export type CardOnFileSlot = (card: { email: string; name: string; online: boolean }) => ReactNode;

type BookingModalProps = {
  cardOnFile?: CardOnFileSlot;
  /** The card's treatment, kept current: after a refusal its slots are refetched and the choice follows. */
  option: AppointmentOption;
  date: Date;
  onClose(): void;
  /** The patient is done with the confirmation: the caller closes the modal. (Booking refreshes the slots itself.) */
  onBooked(): void;
  /** The start a link asked for ("10:00"; a published free time's deep link): chosen, or the nearest still free. */
  linkedStart?: string | null;
  /** The doctor a link asked for (null: any); absent: the doctor of the patient's last visit of this kind, if any. */
  linkedDoctor?: string | null;
};

/** The free time starting at `wanted` ("10:00"), else the nearest to it, else the first; undefined: none. */
function nearestTime(times: FreeTime[], wanted: string | null | undefined): FreeTime | undefined {
  const target = wanted ? startMinuteOf(wanted) : null;
  if (target === null) return times[0];
  const distance = (time: FreeTime) => Math.abs((startMinuteOf(time.start) ?? 0) - target);
  return [...times].sort((a, b) => distance(a) - distance(b))[0];
}

/** docs/product-booking.md#booking-modal: how long it takes, how it is paid, and with whom when only one doctor performs it. */
function BookingFacts({ option, onlyDoctor }: { option: AppointmentOption; onlyDoctor: string | undefined }) {
  const words = useLanguage();
  const { t } = words;
  return (
    <dl className="booking-facts">
      {onlyDoctor && (
        <div className="booking-facts__item">
          <dt>{t('booking.doctor')}</dt>
          <dd>{onlyDoctor}</dd>
        </div>
      )}
      <div className="booking-facts__item">
        <dt>{t('booking.length')}</dt>
        <dd>{lengthText(option.durationMinutes)}</dd>
      </div>
      <div className="booking-facts__item">
        <dt>{t('booking.payment')}</dt>
        <dd>{paymentRuleText(option, words)}</dd>
      </div>
    </dl>
  );
}

/** What a confirmed booking is, as the confirmation shows it (the booking as stored, or what was sent when it could not be read). */
type Confirmed = {
  id: string;
  treatment: string;
  when: string;
  minutes: number;
  price: number;
  doctor: Booking['doctor'];
  /** Until when to pay (null: nothing to pay; undefined: not known, the booking could not be read back). */
  payBy: string | null | undefined;
  deadlines: { freeCancellationUntil: string; rescheduleUntil: string } | null;
};

/**
 * docs/product-booking.md#booking-modal: the booking ends here, not in a toast: what, when, with whom, the
 * price, until when to pay (with Pay now) and the cancellation policy in one sentence. Focus moves
 * to its heading.
 */
function BookingConfirmation({ booked, titleId, onDone }: { booked: Confirmed; titleId: string; onDone(): void }) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  const payable = booked.price > 0 && booked.payBy !== null;
  const words = useLanguage();
  const { t, format } = words;
  return (
    <div className="booking-confirmation">
      <h2 id={titleId} ref={headingRef} tabIndex={-1} className="modal__title">
        {t('booking.confirmed')}
      </h2>
      <dl className="booking-facts booking-confirmation__facts">
        <div className="booking-facts__item">
          <dt>{t('booking.what')}</dt>
          <dd>
            {booked.treatment}, {lengthText(booked.minutes)}
          </dd>
        </div>
        <div className="booking-facts__item">
          <dt>{t('booking.when')}</dt>
          <dd>{booked.when}</dd>
        </div>
        <div className="booking-facts__item">
          <dt>{t('booking.with')}</dt>
          <dd>
            {booked.doctor ? (
              <span className="booked-with">
                <img src={booked.doctor.image} alt="" width={32} height={32} />
                {booked.doctor.name}
              </span>
            ) : (
              t('booking.anyDoctorFree')
            )}
          </dd>
        </div>
        <div className="booking-facts__item">
          <dt>{t('booking.price')}</dt>
          <dd>{format.price(booked.price)}</dd>
        </div>
      </dl>
      {booked.payBy && <p className="callout">{payBySentence(booked.payBy, words)}</p>}
      {booked.deadlines && <p className="booking-policy">{policySentence(booked.deadlines, words)}</p>}
      <div className="modal__actions">
        <button type="button" className="button" onClick={onDone}>
          {t('common.done')}
        </button>
        {payable ? (
          <Link href={`/dashboard/payment/${encodeURIComponent(booked.id)}`} className="button button--primary">
            {t('booking.payNow')}
          </Link>
        ) : (
          <Link href="/dashboard" className="button button--primary">
            {t('booking.mine')}
          </Link>
        )}
      </div>
    </div>
  );
}

/**
 * docs/product-booking.md#booking-modal: the doctor and length, the date, name and email read-only, a slot
 * from the card's free slots and a free-text phone number, and the policy for that slot. Submitting
 * posts the booking and shows the confirmation; a refusal is a toast, the modal staying open.
 */
export function BookingModal({
  option,
  date,
  onClose,
  onBooked,
  linkedStart,
  linkedDoctor,
  cardOnFile,
}: BookingModalProps) {
  const { user, confirmVerified } = useSession();
  const online = useOnlineStatus();
  const ids = useId();
  const slotRef = useRef<HTMLSelectElement>(null);
  // The doctors who perform it; the one of the patient's last visit of this kind comes first.
  const { data: team } = useTeam();
  const doctors = team?.filter((member) => member.specialtyId === option.specialtyId) ?? [];
  const { data: mine } = useMyBookings(user?.email, { keep: false });
  const last = lastVisit(mine?.bookings, (booking) => doctors.some((d) => d._id === booking.doctor?._id));
  const [doctorChoice, setDoctorChoice] = useState<string | undefined>(linkedDoctor ?? undefined);
  const asked = doctorChoice ?? (linkedDoctor === null ? '' : (last?.doctor?._id ?? ''));
  // A doctor's own free times, once they load (none if they do not perform it); any doctor's are the card's.
  const { data: doctorOptions, error: noSuchDoctor } = useAppointmentOptions(asked ? date : null, asked || null);
  // A link's doctor who is gone: any doctor instead.
  const doctor = noSuchDoctor ? '' : asked;
  const doctorName = doctors.find((d) => d._id === doctor)?.name;
  const theirs = doctorOptions?.find((o) => o._id === option._id);
  const times = !doctor ? freeTimes(option) : doctorOptions ? (theirs ? freeTimes(theirs) : []) : null;
  const [picked, setPicked] = useState(linkedStart ?? '');
  const [phone, setPhone] = useState('');
  const { data: family } = useDependants(user?.email);
  const [forWhom, setForWhom] = useState('');
  const person = family?.find((p) => p._id === forWhom);
  const [sending, setSending] = useState(false);
  const [booked, setBooked] = useState<Confirmed | null>(null);
  const { data: rules } = useBookingRules();
  const withCard = option.payment === 'card' && option.price > 0;
  const { data: cards } = useCards(withCard ? user?.email : null);
  const [feesAccepted, setFeesAccepted] = useState(false);
  const cardReady = !withCard || (Boolean(cards?.length) && feesAccepted);
  const words = useLanguage();
  const { t, format } = words;

  const appointmentDate = format.day(date);
  const patientName = user?.displayName ?? '';
  const email = user?.email ?? '';
  // A link's time (or the one picked) taken meanwhile: the nearest still free is chosen, and the patient is told.
  const chosen = times ? nearestTime(times, picked) : undefined;
  const linkTaken =
    Boolean(linkedStart) &&
    times !== null &&
    picked === linkedStart &&
    !times.some((time) => time.start === linkedStart);
  const unverified = Boolean(user && !user.emailVerified);
  // Back from the verification mail's link: the session learns it without a tap.
  useEffect(() => {
    if (unverified) void confirmVerified().catch(() => undefined);
  }, [unverified, confirmVerified]);

  const close = () => {
    if (booked) onBooked();
    else if (!sending) onClose();
  };
  const deadlines = chosen && rules ? deadlinesOf(startInstant(date, chosen.start), rules) : null;

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!online || sending || !chosen || !cardReady || unverified) return;
    setSending(true);
    try {
      const { result, booking } = await book({
        treatment: option.name,
        appointmentDate: isoDay(date),
        start: chosen.start,
        patientName: person?.name ?? patientName,
        email,
        phone: phone.trim(),
        price: option.price,
        ...(person ? { patientId: person._id } : {}),
        ...(doctor ? { doctorId: doctor } : {}),
      });
      if (result.acknowledged) {
        setBooked({
          id: result.insertedId,
          treatment: option.name,
          when: `${appointmentDate}, ${booking ? format.visitTime(booking) : chosen.label}`,
          minutes: booking?.durationMinutes ?? option.durationMinutes,
          price: booking?.price ?? option.price,
          doctor: booking?.doctor ?? null,
          payBy: booking ? booking.payBy : undefined,
          deadlines: booking ?? deadlines,
        });
        setSending(false);
        return;
      }
      // Refused (the slot was just taken, …): the modal stays open on the refreshed slots.
      notify.error(result.message);
    } catch (cause) {
      notify.error(errorText(cause, t));
    }
    setSending(false);
  }

  if (booked) {
    return (
      <Modal labelledBy={`${ids}-done`} onClose={close}>
        <button type="button" className="modal__close" aria-label={t('common.close')} onClick={close}>
          ×
        </button>
        <BookingConfirmation booked={booked} titleId={`${ids}-done`} onDone={onBooked} />
      </Modal>
    );
  }

  return (
    <Modal labelledBy={`${ids}-title`} onClose={close} initialFocus={slotRef}>
      <h2 id={`${ids}-title`} className="modal__title">
        {option.name}
      </h2>
      <button type="button" className="modal__close" aria-label={t('common.close')} onClick={close} disabled={sending}>
        ×
      </button>
      <BookingFacts option={option} onlyDoctor={doctors.length === 1 ? doctors[0]?.name : undefined} />
      {/* The card form is a form of its own: it sits before the booking form, not inside it. */}
      {withCard && (
        <fieldset className="booking-card">
          <legend>{t('booking.cardOnFile')}</legend>
          <p className="field__hint">{t('booking.cardHint')}</p>
          <Suspense fallback={<Spinner label={t('booking.loadingCardForm')} />}>
            {cardOnFile?.({ email, name: patientName, online })}
          </Suspense>
          {rules && (
            <label className="checkbox">
              <input
                type="checkbox"
                checked={feesAccepted}
                onChange={(event) => setFeesAccepted(event.target.checked)}
              />
              {feeSentence(rules, deadlines?.freeCancellationUntil ?? null, words)}
            </label>
          )}
        </fieldset>
      )}
      <form className="modal__form booking-form" onSubmit={handleSubmit} aria-busy={sending || undefined}>
        <div className="field">
          <label htmlFor={`${ids}-date`}>{t('booking.date')}</label>
          <input id={`${ids}-date`} type="text" value={appointmentDate} readOnly tabIndex={-1} />
        </div>
        {doctors.length > 1 && (
          <div className="field">
            <label htmlFor={`${ids}-doctor`}>{t('booking.doctor')}</label>
            <select id={`${ids}-doctor`} value={doctor} onChange={(event) => setDoctorChoice(event.target.value)}>
              <option value="">{t('booking.anyDoctor')}</option>
              {doctors.map((member) => (
                <option key={member._id} value={member._id}>
                  {member._id === last?.doctor?._id ? t('booking.lastDoctor', { name: member.name }) : member.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor={`${ids}-slot`}>{t('booking.slot')}</label>
          <select
            ref={slotRef}
            id={`${ids}-slot`}
            value={chosen?.start ?? ''}
            onChange={(event) => setPicked(event.target.value)}
            disabled={times?.length === 0}
          >
            {(times ?? []).map((free) => (
              <option key={free.start} value={free.start}>
                {free.label}
              </option>
            ))}
          </select>
          <p className="field__hint" role="status">
            {times === null
              ? doctorName
                ? t('booking.loadingDoctor', { name: doctorName })
                : t('booking.loadingTimes')
              : linkTaken
                ? chosen
                  ? t('booking.takenNearest', {
                      time: startClockText(linkedStart ?? ''),
                      nearest: labelStartText(chosen.label),
                    })
                  : t('booking.takenNone', { time: startClockText(linkedStart ?? '') })
                : times.length === 0 && doctorName
                  ? t('booking.doctorNone', { name: doctorName })
                  : ''}
          </p>
        </div>
        {family && family.length > 0 && (
          <div className="field">
            <label htmlFor={`${ids}-who`}>{t('booking.who')}</label>
            <select id={`${ids}-who`} value={forWhom} onChange={(event) => setForWhom(event.target.value)}>
              <option value="">{t('booking.me', { name: patientName })}</option>
              {family.map((member) => (
                <option key={member._id} value={member._id}>
                  {member.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <div className="field">
          <label htmlFor={`${ids}-name`}>{t('field.name')}</label>
          <input
            id={`${ids}-name`}
            type="text"
            value={person?.name ?? patientName}
            readOnly
            tabIndex={-1}
            autoComplete="off"
          />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-email`}>{t('field.email')}</label>
          <input id={`${ids}-email`} type="email" value={email} readOnly tabIndex={-1} autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={`${ids}-phone`}>{t('booking.phone')}</label>
          <input
            id={`${ids}-phone`}
            type="tel"
            autoComplete="tel"
            maxLength={40}
            value={phone}
            onChange={(event) => setPhone(event.target.value)}
          />
        </div>
        {deadlines && rules && (
          <p className="booking-policy">
            {policySentence(deadlines, words)}
            {(option.payment === 'full' || option.payment === 'deposit') &&
              option.price > 0 &&
              ` ${holdSentence(rules, words)}`}
          </p>
        )}

        <div role="status">
          {unverified && (
            <div id={`${ids}-verify`} className="callout">
              <p>{t('booking.verify', { email })}</p>
              <button
                type="button"
                className="button button--small"
                onClick={() =>
                  void confirmVerified().then(
                    (verified) => verified || notify.error(t('booking.notVerified', { email })),
                    (cause: unknown) => notify.error(errorText(cause, t)),
                  )
                }
              >
                {t('verify.confirm')}
              </button>
            </div>
          )}
          {!online && (
            <p id={`${ids}-offline`} className="callout">
              {t('booking.offline')}
            </p>
          )}
        </div>
        {/* Stays in view at the bottom of the dialog, however far the form scrolls on a short screen. */}
        <div className="booking-form__submit">
          <button
            type="submit"
            className="button button--primary button--block"
            disabled={!online || sending || !chosen || !cardReady || unverified}
            aria-describedby={online ? (unverified ? `${ids}-verify` : undefined) : `${ids}-offline`}
          >
            {t('contact.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
