import type { PaymentRule } from '../../../contract/payment-rules.ts';
import { formatPrice } from '../components/price.ts';
import { clinicMomentText } from './booking-rules.ts';

export type { PaymentRule };

/** How a treatment is paid, as the Treatments screen offers it (docs/product-admin.md#treatments). */
export const PAYMENT_RULE_CHOICES: { value: PaymentRule; label: string }[] = [
  { value: 'full', label: 'Pay in full online' },
  { value: 'deposit', label: 'Deposit online, the rest at the desk' },
  { value: 'card', label: 'Card on file, nothing paid ahead' },
  { value: 'clinic', label: 'Pay at the clinic' },
];

/** A treatment's rule in a table cell: "Full online", "30% deposit", "Card on file", "At the clinic". */
export function paymentRuleShort(treatment: { payment: PaymentRule; depositPercent: number | null }): string {
  switch (treatment.payment) {
    case 'deposit':
      return `${treatment.depositPercent ?? 0}% deposit`;
    case 'card':
      return 'Card on file';
    case 'clinic':
      return 'At the clinic';
    default:
      return 'Full online';
  }
}

/**
 * What a patient is told before booking, beside the price: "Pay online within the hold",
 * "$30 deposit online", "Card on file to keep the time", "Pay at the clinic".
 */
export function paymentRuleText(option: { payment: PaymentRule; deposit: number | null; price: number }): string {
  if (option.price <= 0) return 'Free';
  switch (option.payment) {
    case 'deposit':
      return `${formatPrice(option.deposit ?? option.price)} deposit online, the rest at the clinic`;
    case 'card':
      return 'Keep it with a card on file; pay at the clinic';
    case 'clinic':
      return 'Pay at the clinic';
    default:
      return 'Pay online after booking';
  }
}

/**
 * The fees a patient accepts when booking with a card on file, in one sentence: "I accept that a
 * $40 fee is charged to my card if I miss the visit, and $25 if I cancel after Nov 29, 9:00 AM."
 */
export function feeSentence(
  fees: { noShowFee: number; lateCancelFee: number; freeCancellationHours: number },
  freeCancellationUntil: string | null,
): string {
  // Before a time is chosen, the window is said in hours.
  const late = freeCancellationUntil
    ? `after ${clinicMomentText(freeCancellationUntil)}`
    : `less than ${fees.freeCancellationHours} hours before it`;
  const parts = [
    ...(fees.noShowFee > 0 ? [`${formatPrice(fees.noShowFee)} if I miss the visit`] : []),
    ...(fees.lateCancelFee > 0 ? [`${formatPrice(fees.lateCancelFee)} if I cancel ${late}`] : []),
  ];
  if (parts.length === 0) return 'I agree to keep my card on file for this visit; the clinic charges no fees.';
  return `I accept that the clinic charges my card on file ${parts.join(', and ')}.`;
}

/** What a booking is paid online: its deposit, or its whole price. */
export const dueOnline = (booking: { price: number; deposit: number | null }) => booking.deposit ?? booking.price;

/** A statement's balance in words, to the patient or to the desk: owed, owed back, or settled (docs/product-payments.md#statement). */
export function balanceText(balance: number, to: 'patient' | 'desk' = 'patient'): string {
  if (balance > 0) return `${formatPrice(balance)} to pay at the clinic`;
  if (balance < 0) return `${formatPrice(-balance)} ${to === 'patient' ? 'to be given back to you' : 'to give back'}`;
  return 'Nothing owed';
}
