import { useLayoutEffect, useRef, useState } from 'react';
import type { ScheduleDay, ScheduleEntry } from '../api/get-schedule.ts';

/** How tall a minute is on the day's grid: a 30-minute booking is 84 px high, room for its four lines. */
export const PX_PER_MINUTE = 2.8;

export type ColumnView = 'doctors' | 'chairs';

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
const clockOf = (minute: number) =>
  `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** The bookings that take (or took) their time: what the grid shows. Cancelled ones are listed apart. */
export const isOnGrid = (entry: ScheduleEntry) => entry.status !== 'cancelled';

const STATUS_TEXT: Record<ScheduleEntry['status'], string | null> = {
  active: null,
  attended: 'Attended',
  no_show: 'No-show',
  cancelled: 'Cancelled',
};

/** The notes a booking's block carries besides its time, patient and treatment. */
export function entryNotes(entry: ScheduleEntry & { waitingToSend?: boolean }): string[] {
  const notes: string[] = [];
  const status = STATUS_TEXT[entry.status];
  if (status) notes.push(entry.waitingToSend ? `${status} (on this device, not sent yet)` : status);
  if (!entry.paid && entry.price > 0 && entry.status === 'active')
    notes.push(entry.payment === 'clinic' ? 'Pays at desk' : 'Unpaid');
  if (entry.needsReview) notes.push('Needs review');
  if (entry.status === 'active' && entry.confirmation === 'callback') notes.push('Please call');
  if (entry.status === 'active' && entry.confirmation === 'confirmed') notes.push('Confirmed');
  if (entry.familyVisitId) notes.push('Family visit');
  // What the dentist must know first, then whether the forms are in (docs/product-booking.md#forms).
  for (const alert of entry.alerts) notes.push(`⚠ ${alert}`);
  if (entry.status === 'active' && !entry.formsComplete) notes.push('Forms missing');
  if (entry.noShows > 0 && entry.status !== 'no_show')
    notes.push(`${entry.noShows} no-show${entry.noShows === 1 ? '' : 's'}`);
  if (entry.note) notes.push(`Note: ${entry.note}`);
  return notes;
}

interface Column {
  id: string;
  name: string;
  note: string | null;
  entries: ScheduleEntry[];
}

/** The day's columns: one per doctor (or chair), and one for the bookings that have none, if any. */
export function columnsOf(day: ScheduleDay, view: ColumnView): Column[] {
  const onGrid = day.bookings.filter(isOnGrid);
  const resourceOf = (entry: ScheduleEntry) => (view === 'doctors' ? entry.doctor?._id : entry.chair?._id) ?? null;
  const away = new Map(day.closures.filter((c) => c.doctorId).map((c) => [c.doctorId, c.reason]));
  const columns: Column[] = (view === 'doctors' ? day.doctors : day.chairs).map((resource) => ({
    id: resource._id,
    name: resource.name,
    note: away.has(resource._id) ? `Away: ${away.get(resource._id)}` : null,
    entries: onGrid.filter((entry) => resourceOf(entry) === resource._id),
  }));
  const known = new Set(columns.map((c) => c.id));
  const orphans = onGrid.filter((entry) => {
    const id = resourceOf(entry);
    return id === null || !known.has(id);
  });
  if (orphans.length > 0) {
    columns.push({
      id: '',
      name: view === 'doctors' ? 'No doctor' : 'No chair',
      note: 'Needs the front desk',
      entries: orphans,
    });
  }
  return columns;
}

/** The hours the grid spans: the opening hours (09:00–17:00 on a closed day), widened to every booking. */
export function spanOf(day: ScheduleDay): { from: number; to: number } {
  let from = day.hours ? minutesOf(day.hours.open) : 9 * 60;
  let to = day.hours ? minutesOf(day.hours.close) : 17 * 60;
  for (const entry of day.bookings.filter(isOnGrid)) {
    from = Math.min(from, entry.startMinute);
    to = Math.max(to, entry.startMinute + entry.durationMinutes);
  }
  return { from: Math.floor(from / 60) * 60, to: Math.ceil(to / 60) * 60 };
}

/**
 * docs/product-admin.md#schedule: the day as columns of doctors (or chairs), each booking a block as tall
 * as it is long. The grid scrolls sideways inside its own box; the page does not.
 */
export function DayGrid({
  day,
  view,
  onOpen,
}: {
  day: ScheduleDay;
  view: ColumnView;
  onOpen(entry: ScheduleEntry): void;
}) {
  const columns = columnsOf(day, view);
  const { from, to } = spanOf(day);
  // On a narrow screen some columns are off to the side: say so, and how many there are.
  const gridRef = useRef<HTMLElement>(null);
  const [scrolls, setScrolls] = useState(false);
  useLayoutEffect(() => {
    const grid = gridRef.current;
    if (!grid) return;
    const measure = () => setScrolls(grid.scrollWidth > grid.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(grid);
    return () => observer.disconnect();
  }, []);
  const height = (to - from) * PX_PER_MINUTE;
  const hours = Array.from({ length: (to - from) / 60 + 1 }, (_, i) => from + i * 60);
  const label = `${day.appointmentDate} by ${view === 'doctors' ? 'doctor' : 'chair'}`;
  const what = view === 'doctors' ? 'doctors' : 'chairs';
  return (
    <>
      {scrolls && (
        <p className="schedule-grid__hint">
          {columns.length} {what}: scroll sideways to see them all <span aria-hidden="true">→</span>
        </p>
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard to be scrolled (WCAG 2.1.1). */}
      <section ref={gridRef} className="schedule-grid" aria-label={label} tabIndex={0}>
        <div
          className="schedule-grid__inner"
          style={{ gridTemplateColumns: `3.5rem repeat(${columns.length}, minmax(9.5rem, 1fr))` }}
        >
          <div className="schedule-grid__corner" />
          {columns.map((column) => (
            <div key={column.id || 'none'} className="schedule-grid__head">
              <span>{column.name}</span>
              {column.note && <small>{column.note}</small>}
            </div>
          ))}
          <div className="schedule-grid__times" style={{ height }} aria-hidden="true">
            {hours.map((minute) => (
              <span key={minute} style={{ top: (minute - from) * PX_PER_MINUTE }}>
                {clockOf(minute)}
              </span>
            ))}
          </div>
          {columns.map((column) => (
            <ul
              key={column.id || 'none'}
              className="schedule-grid__column"
              style={{ height, backgroundSize: `100% ${60 * PX_PER_MINUTE}px` }}
              aria-label={column.name}
            >
              {column.entries.map((entry) => {
                const notes = entryNotes(entry);
                return (
                  <li
                    key={entry._id}
                    className="schedule-block"
                    data-status={entry.status}
                    data-review={entry.needsReview || undefined}
                    data-unpaid={(!entry.paid && entry.price > 0 && entry.status === 'active') || undefined}
                    data-callback={(entry.status === 'active' && entry.confirmation === 'callback') || undefined}
                    data-short={entry.durationMinutes <= 30 || undefined}
                    style={{
                      top: (entry.startMinute - from) * PX_PER_MINUTE,
                      height: entry.durationMinutes * PX_PER_MINUTE,
                    }}
                  >
                    <button type="button" onClick={() => onOpen(entry)}>
                      <span className="schedule-block__time">
                        {entry.start}–{clockOf(entry.startMinute + entry.durationMinutes)}
                      </span>{' '}
                      <span className="schedule-block__name">{entry.patientName}</span>{' '}
                      <span className="schedule-block__what">
                        {entry.treatment}
                        {view === 'doctors' ? (entry.chair ? `, ${entry.chair.name}` : '') : ''}
                        {view === 'chairs' ? (entry.doctor ? `, ${entry.doctor.name}` : '') : ''}
                      </span>
                      {notes.length > 0 && (
                        <span className="schedule-block__notes">
                          <span className="visually-hidden">: </span>
                          {notes.join(' · ')}
                        </span>
                      )}
                    </button>
                  </li>
                );
              })}
            </ul>
          ))}
        </div>
      </section>
    </>
  );
}
