import type { PaymentRule } from '../../../contract/payment-rules.ts';
import { formatPrice } from '../components/price.ts';
import { clinicMomentText, type Words } from './booking-rules.ts';

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
export function paymentRuleText(
  option: { payment: PaymentRule; deposit: number | null; price: number },
  { t, locale }: Words,
): string {
  if (option.price <= 0) return t('payment.free');
  switch (option.payment) {
    case 'deposit':
      return t('payment.deposit', { deposit: formatPrice(option.deposit ?? option.price, locale) });
    case 'card':
      return t('payment.card');
    case 'clinic':
      return t('payment.clinic');
    default:
      return t('payment.online');
  }
}

/**
 * The fees a patient accepts when booking with a card on file, in one sentence: "I accept that a
 * $40 fee is charged to my card if I miss the visit, and $25 if I cancel after Nov 29, 9:00 AM."
 */
export function feeSentence(
  fees: { noShowFee: number; lateCancelFee: number; freeCancellationHours: number },
  freeCancellationUntil: string | null,
  { t, locale }: Words,
): string {
  // Before a time is chosen, the window is said in hours.
  const late = freeCancellationUntil
    ? t('fees.lateAfter', { when: clinicMomentText(freeCancellationUntil, locale) })
    : t('fees.lateHours', { hours: fees.freeCancellationHours });
  const noShow = fees.noShowFee > 0 ? formatPrice(fees.noShowFee, locale) : '';
  const lateCancel = fees.lateCancelFee > 0 ? formatPrice(fees.lateCancelFee, locale) : '';
  const which = noShow && lateCancel ? 'both' : noShow ? 'noShow' : lateCancel ? 'late' : 'none';
  return t('fees.sentence', { which, noShow, lateCancel, late });
}

/** What a booking is paid online: its deposit, or its whole price. */
export const dueOnline = (booking: { price: number; deposit: number | null }) => booking.deposit ?? booking.price;

/** A statement's balance in words, to the patient or to the desk: owed, owed back, or settled (docs/product-payments.md#statement). */
export function balanceText(balance: number, { t, locale }: Words, to: 'patient' | 'desk' = 'patient'): string {
  const amount = formatPrice(Math.abs(balance), locale);
  if (balance > 0) return t('balance.owed', { amount });
  if (balance < 0) return to === 'patient' ? t('balance.back', { amount }) : t('balance.giveBack', { amount });
  return t('balance.none');
}
