// How a payment is named to people (a receipt, a refund's line, a refund notice), for the Worker and
// the PWA alike; no schema here, so the PWA may import it.

/** Card brands as Stripe names them, as people read them. */
export const CARD_BRANDS: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  diners: 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
};

/** "Visa ending in 4242", or "Card ending in 0005" for a brand not listed. */
export const cardText = (card: { brand: string; last4: string }) =>
  `${CARD_BRANDS[card.brand] ?? 'Card'} ending in ${card.last4}`;

/** How a payment was made, so how it goes back: "Visa ending in 4242", "cash at the desk", "card at the desk", "card". */
export function paidWithText(payment: {
  provider: string;
  method: string | null;
  card_brand: string | null;
  card_last4: string | null;
}): string {
  if (payment.provider === 'desk') return payment.method === 'cash' ? 'cash at the desk' : 'card at the desk';
  return payment.card_brand && payment.card_last4
    ? cardText({ brand: payment.card_brand, last4: payment.card_last4 })
    : 'card';
}

/** A fee's name as people read it (a mail lower-cases it in a sentence). */
export const FEE_NAMES = { no_show: 'Missed-appointment fee', late_cancel: 'Late-cancellation fee' } as const;
