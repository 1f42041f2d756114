import { useId } from 'react';
import { errorText } from '../lib/error-text.ts';
import { BookingCalendar } from './booking-calendar.tsx';

type SlotPickerProps = {
  date: Date;
  onDateChange(day: Date): void;
  /** The treatment's free times that day (useFreeSlots). */
  slots: string[];
  loading: boolean;
  error: unknown;
  /** The chosen time: one of `slots`, or '' when there is none. */
  value: string;
  onChange(slot: string): void;
  label?: string;
};

/** A bookable day on the calendar, then one of the treatment's free times that day. */
export function SlotPicker({
  date,
  onDateChange,
  slots,
  loading,
  error,
  value,
  onChange,
  label = 'Time',
}: SlotPickerProps) {
  const id = useId();
  return (
    <div className="slot-picker">
      <BookingCalendar selected={date} onSelect={onDateChange} />
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <select
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          disabled={slots.length === 0}
          aria-describedby={`${id}-note`}
        >
          {slots.map((slot) => (
            <option key={slot} value={slot}>
              {slot}
            </option>
          ))}
        </select>
        <p id={`${id}-note`} className="slot-picker__note" role="status">
          {error
            ? `The free times could not be loaded: ${errorText(error)}`
            : loading
              ? 'Loading the free times…'
              : slots.length === 0
                ? 'No free time that day; please pick another day.'
                : `${slots.length} free time${slots.length === 1 ? '' : 's'} that day.`}
        </p>
      </div>
    </div>
  );
}

/** The chosen time: the one picked while it is still free, else the first free one. */
export const chosenSlot = (slots: string[], picked: string) => (slots.includes(picked) ? picked : (slots[0] ?? ''));
