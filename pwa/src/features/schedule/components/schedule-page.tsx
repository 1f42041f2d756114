import { addDays } from 'date-fns/addDays';
import { format } from 'date-fns/format';
import { isValid } from 'date-fns/isValid';
import { parseISO } from 'date-fns/parseISO';
import { startOfWeek } from 'date-fns/startOfWeek';
import { type ReactNode, type SubmitEvent, useEffect, useEffectEvent, useId, useState } from 'react';
import { useSearchParams } from 'wouter';
import { RescheduleDialog } from '../../../components/reschedule-dialog.tsx';
import { Spinner } from '../../../components/spinner.tsx';
import { clinicMomentText } from '../../../lib/booking-rules.ts';
import { clinicToday, isoDay } from '../../../lib/clinic-calendar.ts';
import { errorText } from '../../../lib/error-text.ts';
import { isNetworkFailure } from '../../../lib/http.ts';
import { notify } from '../../../lib/notify.ts';
import { saveFile } from '../../../lib/save-file.ts';
import { useSession } from '../../../lib/session.tsx';
import { useOnlineStatus, useReloadOnReconnect } from '../../../lib/use-online-status.ts';
import { useFrontDesk } from '../api/front-desk-actions.ts';
import {
  fetchScheduleCsv,
  KEPT_DAYS,
  keepComingDays,
  type ReviewEntry,
  type ScheduleEntry,
  useDayCounts,
  useReviewList,
  useScheduleDay,
} from '../api/get-schedule.ts';
import { BookingDetailsDialog } from './booking-details-dialog.tsx';
import { type ColumnView, DayGrid, isOnGrid } from './day-grid.tsx';
import { PendingDeskWrites, useDeskOutbox, withWaitingMarks } from './pending-desk-writes.tsx';
import { type FamilyVisitSlot, PhoneBookingDialog } from './phone-booking-dialog.tsx';
import '../front-desk.css';

const shift = (iso: string, days: number) => isoDay(addDays(parseISO(iso), days));
/** The day in the address (`?date=2026-12-10`), when it is a real date. */
const dayIn = (value: string | null) =>
  value && /^\d{4}-\d{2}-\d{2}$/.test(value) && isValid(parseISO(value)) && isoDay(parseISO(value)) === value
    ? value
    : null;

/** The week (Monday to Sunday) around a day, with each day's appointments and those waiting for review; a day opens it. */
function WeekStrip({
  date,
  review,
  onSelect,
}: {
  date: string;
  review: readonly ReviewEntry[];
  onSelect(iso: string): void;
}) {
  const monday = isoDay(startOfWeek(parseISO(date), { weekStartsOn: 1 }));
  const days = Array.from({ length: 7 }, (_, i) => shift(monday, i));
  const { data: counts } = useDayCounts(days[0] ?? monday, days[6] ?? monday);
  const countOf = (iso: string) => counts?.find((c) => c.date === iso)?.count;
  const closedOn = (iso: string) => counts?.find((c) => c.date === iso)?.closed ?? null;
  return (
    <ol className="week-strip" aria-label="This week">
      {days.map((iso) => {
        const count = countOf(iso);
        const waiting = review.filter((entry) => entry.date === iso).length;
        const closed = closedOn(iso);
        const day = parseISO(iso);
        return (
          <li key={iso}>
            <button
              type="button"
              className={closed ? 'week-strip__day week-strip__day--closed' : 'week-strip__day'}
              aria-current={iso === date ? 'date' : undefined}
              onClick={() => onSelect(iso)}
            >
              {/* Its name says in words what it shows in short: the visible text is a part of it. */}
              <span className="visually-hidden">
                {`${format(day, 'EEEE, MMM d')}: ${closed ? `closed (${closed}), ` : ''}${count ?? '…'} appointment${count === 1 ? '' : 's'}${waiting ? `, ${waiting} to review` : ''}`}
              </span>
              <span aria-hidden="true">{format(day, 'EEE')}</span>
              <span aria-hidden="true" className="week-strip__date">
                {format(day, 'd')}
              </span>
              <span aria-hidden="true" className="week-strip__count">
                {closed && !count ? 'Closed' : (count ?? '·')}
              </span>
              {waiting > 0 && (
                <span aria-hidden="true" className="week-strip__review" title={`${waiting} to review`}>
                  ⚠ {waiting}
                </span>
              )}
            </button>
          </li>
        );
      })}
    </ol>
  );
}

/** A range of days to download as CSV for a spreadsheet. */
function CsvExport({ date }: { date: string }) {
  const ids = useId();
  const monday = isoDay(startOfWeek(parseISO(date), { weekStartsOn: 1 }));
  const [from, setFrom] = useState(monday);
  const [to, setTo] = useState(shift(monday, 6));
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    try {
      saveFile(await fetchScheduleCsv(from, to), `schedule-${from}-to-${to}.csv`);
    } catch (cause) {
      notify.error(errorText(cause));
    }
    setBusy(false);
  }

  return (
    <form className="schedule-export" onSubmit={handleSubmit} aria-labelledby={`${ids}-title`}>
      <h2 id={`${ids}-title`}>Export for a spreadsheet</h2>
      <div className="field">
        <label htmlFor={`${ids}-from`}>From</label>
        <input id={`${ids}-from`} type="date" required value={from} onChange={(e) => setFrom(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={`${ids}-to`}>To</label>
        <input id={`${ids}-to`} type="date" required value={to} onChange={(e) => setTo(e.target.value)} />
      </div>
      <button type="submit" className="button" disabled={busy || !from || !to}>
        Download CSV
      </button>
    </form>
  );
}

/**
 * docs/product-admin.md#schedule: every upcoming booking a schedule change left for the front desk, whatever
 * its day, until it is moved, cancelled or kept; each opens its details.
 */
function NeedsReview({ entries, onOpen }: { entries: readonly ReviewEntry[]; onOpen(entry: ReviewEntry): void }) {
  const id = useId();
  if (entries.length === 0) return null;
  return (
    <section className="needs-review" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Needs review ({entries.length})</h2>
      <p className="muted">
        A schedule change left these without their doctor, chair or hours; each patient was told the clinic will call
        (or, with no phone on file, to call the clinic). Nothing releases them meanwhile. Move, cancel or keep each one.
      </p>
      <ul>
        {entries.map((entry) => (
          <li key={entry._id}>
            <button type="button" className="button button--small" onClick={() => onOpen(entry)}>
              {entry.appointmentDate}, {entry.start}: {entry.patientName}
            </button>{' '}
            <span className="muted">{entry.treatment}</span>
            <span className="needs-review__contact">
              {entry.phone ? (
                <a href={`tel:${entry.phone.replace(/[^\d+]/g, '')}`}>{entry.phone}</a>
              ) : (
                'No phone on file'
              )}
              {!/\.invalid$/i.test(entry.email) && (
                <span>
                  {' '}
                  · <a href={`mailto:${entry.email}`}>{entry.email}</a>
                </span>
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * docs/product-booking.md#confirmations: the day's patients who answered a reminder with "Please call me",
 * first, so the front desk calls them before anything else; the confirmed and unanswered follow
 * in the count.
 */
function PleaseCall({ entries, onOpen }: { entries: readonly ScheduleEntry[]; onOpen(entry: ScheduleEntry): void }) {
  const id = useId();
  const active = entries.filter((entry) => entry.status === 'active');
  const callback = active.filter((entry) => entry.confirmation === 'callback');
  const confirmed = active.filter((entry) => entry.confirmation === 'confirmed').length;
  if (active.length === 0) return null;
  return (
    <section className="please-call" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        Confirmations: {confirmed} of {active.length} confirmed
        {callback.length > 0 && `, ${callback.length} asked to be called`}
      </h3>
      {callback.length > 0 && (
        <ul>
          {callback.map((entry) => (
            <li key={entry._id}>
              <button type="button" className="button button--small" onClick={() => onOpen(entry)}>
                Please call {entry.patientName}
              </button>{' '}
              <span className="muted">
                {entry.start}, {entry.treatment}
                {entry.phone && ` · ${entry.phone}`}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A booking opened from the day, or from the review list (whatever its day). */
type Opened = { entry: ScheduleEntry; date: string; appointmentDate: string };
type Open = ({ kind: 'details' | 'reschedule' } & Opened) | { kind: 'phone' } | null;

/**
 * docs/product-admin.md#schedule (/dashboard/schedule, admin): the front desk's day. A date picker with
 * previous and next day, the week's counts, the day as a column per doctor (or chair) with a block
 * per booking, and the cancelled ones below. A booking opens its details and actions; "Book by
 * phone" books for a caller.
 */
/** What other features draw in the schedule's dialogs, composed by the app (app/pages/schedule-page.tsx). */
export type ScheduleParts = { visitForms?: (bookingId: string) => ReactNode; familyVisitDialog?: FamilyVisitSlot };

export function SchedulePage({ visitForms, familyVisitDialog }: ScheduleParts) {
  const ids = useId();
  const [today] = useState(() => isoDay(clinicToday()));
  const [params, setParams] = useSearchParams();
  const date = dayIn(params.get('date')) ?? today;
  const setDate = (iso: string) => setParams({ date: iso });
  const [view, setView] = useState<ColumnView>('doctors');
  const [open, setOpen] = useState<Open>(null);
  const email = useSession().user?.email ?? null;
  const online = useOnlineStatus();
  const { data: loaded, error, isValidating, mutate } = useScheduleDay(date, email);
  const { data: deskWrites = [] } = useDeskOutbox();
  const day = loaded && { ...loaded.day, bookings: withWaitingMarks(loaded.day.bookings, deskWrites) };
  const savedAt = loaded?.savedAt ?? null;
  useReloadOnReconnect(online, savedAt !== null || isNetworkFailure(error), mutate);
  // Once per visit, and again when the connection is back: not on every day shown.
  const keepOnce = useEffectEvent(() => {
    if (email) keepComingDays(date, email);
  });
  useEffect(() => {
    if (online) keepOnce();
  }, [online]);
  const { data: review = [] } = useReviewList();
  const desk = useFrontDesk();
  const appointmentDate = day?.appointmentDate ?? format(parseISO(date), 'PP');
  const openOnDay = (entry: ScheduleEntry) => setOpen({ kind: 'details', entry, date, appointmentDate });

  let content: ReactNode;
  if (error && !day) {
    content = (
      <div className="schedule__status" role="alert">
        <p>
          {isNetworkFailure(error)
            ? `You are offline, and this day is not kept on this device: only today and the next ${KEPT_DAYS - 1} days are, once the schedule has loaded with a connection.`
            : `Sorry, the schedule could not be loaded: ${errorText(error)}`}
        </p>
        <button type="button" className="button" onClick={() => void mutate()} disabled={isValidating}>
          Try again
        </button>
      </div>
    );
  } else if (!day || day.date !== date) {
    content = <Spinner label="Loading the schedule" />;
  } else {
    const cancelled = day.bookings.filter((entry) => !isOnGrid(entry));
    const closed = day.closures.find((c) => c.doctorId === null);
    const booked = day.bookings.length - cancelled.length;
    content = (
      <>
        {savedAt !== null && (
          <p className="schedule__offline" role="status">
            <strong>Offline: the schedule as of {clinicMomentText(savedAt)}.</strong> Marks of attendance and notes are
            kept on this device and sent when the connection is back; booking, moving, cancelling and payments need the
            connection.
          </p>
        )}
        <p className="schedule__summary" role="status">
          {closed
            ? `The clinic is closed: ${closed.reason}. `
            : day.hours
              ? `Open ${day.hours.open}–${day.hours.close}. `
              : 'The clinic does not open on this weekday. '}
          {booked === 0 ? 'No appointments.' : `${booked} appointment${booked === 1 ? '' : 's'}.`}
        </p>
        <PleaseCall entries={day.bookings} onOpen={openOnDay} />
        <DayGrid day={day} view={view} onOpen={openOnDay} />
        {cancelled.length > 0 && (
          <section className="schedule__cancelled" aria-labelledby={`${ids}-cancelled`}>
            <h3 id={`${ids}-cancelled`}>Cancelled</h3>
            <ul>
              {cancelled.map((entry) => (
                <li key={entry._id}>
                  <button type="button" className="button button--small" onClick={() => openOnDay(entry)}>
                    {entry.start} {entry.patientName}, {entry.treatment}
                  </button>{' '}
                  <span className="muted">
                    {entry.cancelReason === 'unpaid'
                      ? 'not paid in time'
                      : entry.cancelReason === 'admin'
                        ? `by the clinic${entry.cancelNote ? `: ${entry.cancelNote}` : ''}`
                        : 'by the patient'}
                  </span>
                </li>
              ))}
            </ul>
          </section>
        )}
      </>
    );
  }

  return (
    <section className="dashboard-page schedule" aria-labelledby={`${ids}-title`}>
      <div className="schedule__header">
        <h1 id={`${ids}-title`}>Schedule</h1>
        <button
          type="button"
          className="button button--primary"
          onClick={() => setOpen({ kind: 'phone' })}
          disabled={savedAt !== null}
        >
          Book by phone
        </button>
      </div>
      <div className="schedule__toolbar">
        <button type="button" className="button button--small" onClick={() => setDate(shift(date, -1))}>
          Previous day
        </button>
        <div className="field schedule__date">
          <label htmlFor={`${ids}-date`}>Day</label>
          <input
            id={`${ids}-date`}
            type="date"
            value={date}
            onChange={(event) => {
              if (event.target.value) setDate(event.target.value);
            }}
          />
        </div>
        <button type="button" className="button button--small" onClick={() => setDate(shift(date, 1))}>
          Next day
        </button>
        <button type="button" className="button button--small" onClick={() => setDate(today)} disabled={date === today}>
          Today
        </button>
        <fieldset className="schedule__view">
          <legend>Columns</legend>
          <button
            type="button"
            className="button button--small"
            aria-pressed={view === 'doctors'}
            onClick={() => setView('doctors')}
          >
            Doctors
          </button>
          <button
            type="button"
            className="button button--small"
            aria-pressed={view === 'chairs'}
            onClick={() => setView('chairs')}
          >
            Chairs
          </button>
        </fieldset>
      </div>
      <NeedsReview
        entries={review}
        onOpen={(entry) =>
          setOpen({ kind: 'details', entry, date: entry.date, appointmentDate: entry.appointmentDate })
        }
      />
      <PendingDeskWrites />
      <WeekStrip date={date} review={review} onSelect={setDate} />
      <h2 className="schedule__day">{format(parseISO(date), 'EEEE, PP')}</h2>
      {content}
      <CsvExport date={date} />
      {open?.kind === 'details' && (
        <BookingDetailsDialog
          visitForms={visitForms}
          entry={open.entry}
          appointmentDate={open.appointmentDate}
          online={online && savedAt === null}
          onReschedule={() => setOpen({ ...open, kind: 'reschedule' })}
          onClose={() => setOpen(null)}
        />
      )}
      {open?.kind === 'reschedule' && (
        <RescheduleDialog
          booking={{ ...open.entry, appointmentDate: open.appointmentDate, date: open.date }}
          onSubmit={(move) => desk.reschedule({ _id: open.entry._id }, move)}
          onClose={() => setOpen(null)}
        />
      )}
      {open?.kind === 'phone' && (
        <PhoneBookingDialog
          familyVisitDialog={familyVisitDialog}
          initialDate={date < today ? parseISO(today) : parseISO(date)}
          onBooked={(iso) => {
            setOpen(null);
            setDate(iso);
          }}
          onClose={() => setOpen(null)}
        />
      )}
    </section>
  );
}
