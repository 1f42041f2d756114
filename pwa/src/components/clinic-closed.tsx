import { format } from 'date-fns/format';
import type { AppointmentOption } from '../lib/appointment-options.ts';
import { localDay } from '../lib/clinic-calendar.ts';

/**
 * A day the whole clinic is closed, on a page of free times: why, and the next day it opens (when there is
 * one within the booking horizon), which `onSeeDay` shows.
 */
export function ClinicClosed({
  closed,
  className,
  onSeeDay,
}: {
  closed: NonNullable<AppointmentOption['closed']>;
  className: string;
  onSeeDay(day: Date): void;
}) {
  const next = closed.nextOpenDate;
  return (
    <div className={className}>
      <p>Closed: {closed.reason}</p>
      {next && (
        <button type="button" className="button" onClick={() => onSeeDay(localDay(next))}>
          See {format(localDay(next), 'EEEE, PP')}, the next day the clinic opens
        </button>
      )}
    </div>
  );
}
