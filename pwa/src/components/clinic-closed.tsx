import type { AppointmentOption } from '../lib/appointment-options.ts';
import { localDay } from '../lib/clinic-calendar.ts';
import { useLanguage } from '../lib/i18n.tsx';

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
  const { t, format } = useLanguage();
  return (
    <div className={className}>
      <p>{t('closed.reason', { reason: closed.reason })}</p>
      {next && (
        <button type="button" className="button" onClick={() => onSeeDay(localDay(next))}>
          {t('closed.next', { day: format.fullDay(localDay(next)) })}
        </button>
      )}
    </div>
  );
}
