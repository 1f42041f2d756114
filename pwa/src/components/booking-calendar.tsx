import { useMemo, useState } from 'react';
import { type DateLib, DayPicker, type Modifiers } from 'react-day-picker';
import 'react-day-picker/style.css';
import { clinicToday, lastBookableDay } from '../lib/clinic-calendar.ts';
import { useFrame } from '../lib/use-hydrated.ts';
import './booking-calendar.css';

/**
 * A day button's name holds the number it shows as a word ("Sunday, November 1, 2026", not the
 * default "November 1st"): a speech user says what they see (axe's label-content-name-mismatch).
 */
function labelDayButton(date: Date, modifiers: Modifiers, _options?: unknown, dateLib?: DateLib): string {
  const day = dateLib ? dateLib.format(date, 'EEEE, MMMM d, yyyy') : date.toDateString();
  return `${modifiers.today ? 'Today, ' : ''}${day}${modifiers.selected ? ', selected' : ''}`;
}

type BookingCalendarProps = {
  selected: Date;
  onSelect(day: Date): void;
};

/**
 * The calendar of bookable days (docs/product-booking.md#appointment-page): from the clinic's today to the
 * end of the booking horizon; other days cannot be picked. The booking page, rescheduling and the
 * front desk's phone booking share it.
 */
export function BookingCalendar({ selected, onSelect }: BookingCalendarProps) {
  const [today] = useState(() => clinicToday());
  const lastDay = useMemo(() => lastBookableDay(today), [today]);
  // A page's frame, built once for every day it is served: the calendar's place, without a month.
  if (useFrame()) return <div className="booking-calendar booking-calendar--frame" />;
  return (
    <DayPicker
      className="booking-calendar"
      mode="single"
      required
      selected={selected}
      onSelect={onSelect}
      today={today}
      defaultMonth={selected}
      startMonth={today}
      endMonth={lastDay}
      disabled={[{ before: today }, { after: lastDay }]}
      labels={{ labelDayButton }}
    />
  );
}
