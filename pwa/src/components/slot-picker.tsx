import { useId } from 'react';
import type { FreeTime } from '../lib/appointment-options.ts';
import { errorText } from '../lib/error-text.ts';
import { useT } from '../lib/i18n.tsx';
import { BookingCalendar } from './booking-calendar.tsx';

type SlotPickerProps = {
  date: Date;
  onDateChange(day: Date): void;
  /** The treatment's free times that day (useFreeSlots). */
  times: FreeTime[];
  loading: boolean;
  error: unknown;
  /** The chosen time's start: one of `times`', or '' when there is none. */
  value: string;
  onChange(start: string): void;
  label?: string;
};

/** A bookable day on the calendar, then one of the treatment's free times that day. */
export function SlotPicker({ date, onDateChange, times, loading, error, value, onChange, label }: SlotPickerProps) {
  const id = useId();
  const t = useT();
  return (
    <div className="slot-picker">
      <BookingCalendar selected={date} onSelect={onDateChange} />
      <div className="field">
        <label htmlFor={id}>{label ?? t('slots.time')}</label>
        <select
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          disabled={times.length === 0}
          aria-describedby={`${id}-note`}
        >
          {times.map((time) => (
            <option key={time.start} value={time.start}>
              {time.label}
            </option>
          ))}
        </select>
        <p id={`${id}-note`} className="slot-picker__note" role="status">
          {error
            ? t('slots.loadFailed', { reason: errorText(error, t) })
            : loading
              ? t('slots.loading')
              : times.length === 0
                ? t('slots.none')
                : t('slots.count', { count: times.length })}
        </p>
      </div>
    </div>
  );
}

/** The chosen time: the one picked (by its start) while it is still free, else the first free one; undefined: none. */
export const chosenTime = (times: FreeTime[], picked: string): FreeTime | undefined =>
  times.find((time) => time.start === picked) ?? times[0];
