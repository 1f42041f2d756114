import { useId } from 'react';
import { labelStartText } from '../../../../../contract/slot-label.ts';
import { useLanguage } from '../../../lib/i18n.tsx';
import { dueOnline } from '../../../lib/payment-rules.ts';
import type { Booking } from '../api/get-booking.ts';

/**
 * A booking of a family visit whose other members are still to pay: pay them all in one payment
 * (the default; each member gets a receipt line of their own), or only this one.
 */
export function FamilyChoice({
  booking,
  family,
  whole,
  onChange,
}: {
  booking: Booking;
  family: Booking[];
  whole: boolean;
  onChange: (whole: boolean) => void;
}) {
  const id = useId();
  const total = family.reduce((sum, member) => sum + dueOnline(member), 0);
  const { t, format, language } = useLanguage();
  return (
    <fieldset className="checkbox-group payment__family">
      <legend>{t('family.payWhat')}</legend>
      <label className="checkbox">
        <input type="radio" name={`${id}-pay`} checked={whole} onChange={() => onChange(true)} />
        {t('family.payAll', { amount: format.price(total) })}
      </label>
      <ul className="payment__family-lines" aria-label={t('family.visit')}>
        {family.map((member) => (
          <li key={member._id}>
            {t('family.line', {
              name: member.patientName,
              treatment: member.treatment,
              time:
                language === 'en' ? labelStartText(member.slot) : format.visitTime({ ...member, durationMinutes: 0 }),
              amount: format.price(dueOnline(member)),
            })}
          </li>
        ))}
      </ul>
      <label className="checkbox">
        <input type="radio" name={`${id}-pay`} checked={!whole} onChange={() => onChange(false)} />
        {t('family.payOne', { name: booking.patientName, amount: format.price(dueOnline(booking)) })}
      </label>
    </fieldset>
  );
}
