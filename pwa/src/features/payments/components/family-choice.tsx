import { useId } from 'react';
import { labelStartText } from '../../../../../contract/slot-label.ts';
import { formatPrice } from '../../../components/price.ts';
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
  return (
    <fieldset className="checkbox-group payment__family">
      <legend>What would you like to pay?</legend>
      <label className="checkbox">
        <input type="radio" name={`${id}-pay`} checked={whole} onChange={() => onChange(true)} />
        The whole family visit: {formatPrice(total)}
      </label>
      <ul className="payment__family-lines" aria-label="The family visit">
        {family.map((member) => (
          <li key={member._id}>
            {member.patientName}, {member.treatment} at {labelStartText(member.slot)}: {formatPrice(dueOnline(member))}
          </li>
        ))}
      </ul>
      <label className="checkbox">
        <input type="radio" name={`${id}-pay`} checked={!whole} onChange={() => onChange(false)} />
        Only {booking.patientName}’s visit: {formatPrice(dueOnline(booking))}
      </label>
    </fieldset>
  );
}
