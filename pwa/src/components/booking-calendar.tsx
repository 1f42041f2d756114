import { useMemo, useState } from 'react';
import { DayPicker, type Modifiers } from 'react-day-picker';
import 'react-day-picker/style.css';
import { clinicToday, lastBookableDay } from '../lib/clinic-calendar.ts';
import { useLanguage } from '../lib/i18n.tsx';
import { useFrame } from '../lib/use-hydrated.ts';
import './booking-calendar.css';

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
  const { t, format, language } = useLanguage();
  // In the page's language: its month names, its weekday letters and its first day of the week.
  const words = useMemo(
    () => ({
      labels: {
        // A day button's name holds the number it shows as a word ("Sunday, November 1, 2026", not the
        // default "November 1st"): a speech user says what they see (axe's label-content-name-mismatch).
        labelDayButton: (date: Date, modifiers: Modifiers) =>
          t('calendar.day', {
            day: format.longDay(date),
            today: modifiers.today ? 'yes' : 'no',
            selected: modifiers.selected ? 'yes' : 'no',
          }),
        labelNext: () => t('calendar.next'),
        labelPrevious: () => t('calendar.previous'),
        labelGrid: (month: Date) => format.month(month),
      },
      formatters: {
        formatCaption: (month: Date) => format.month(month),
        formatWeekdayName: (day: Date) => format.weekdayNarrow(day),
      },
    }),
    [t, format],
  );
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
      labels={words.labels}
      formatters={words.formatters}
      weekStartsOn={language === 'en' ? 0 : 1}
    />
  );
}
