/** What the Worker knows about a payment once it has asked the provider. */
export interface Intent {
  id: string;
  status: string;
  amountCents: number;
  currency: string;
  bookingId: string | undefined;
  clientSecret: string | undefined;
  /** The card that paid, where the provider tells it. */
  card: { brand: string; last4: string } | null;
}

export interface PayableBooking {
  id: string;
  priceCents: number;
  email: string;
  treatment: string;
  paymentIntentId: string | null;
}

export interface RefundRequest {
  transactionId: string;
  amountCents: number;
  bookingId: string | null;
  /** The same key for the same refund, however often it is asked: the provider refunds once. */
  idempotencyKey: string;
}

/** The provider's answer to a refund: its id and state ('failed' with the reason in plain words). */
export interface RefundAnswer {
  id: string | null;
  status: 'pending' | 'succeeded' | 'failed';
  failure: string | null;
}

/** The small surface the routes use; Stripe in production, the demo without Stripe keys. */
export interface PaymentProvider {
  name: 'stripe' | 'demo';
  /** One intent per booking: asking again answers the same intent, never a second one. */
  intentFor(booking: PayableBooking): Promise<Intent>;
  retrieve(intentId: string): Promise<Intent | null>;
  /** Refunds a payment in full. */
  refund(request: RefundRequest): Promise<RefundAnswer>;
}

/** A refund's failure reason (Stripe's codes, which the demo uses too), in plain words (never the raw code). */
export function refundFailureText(reason: string | undefined | null): string {
  switch (reason) {
    case 'expired_or_canceled_card':
      return 'The card has expired or was cancelled, so the refund could not reach it';
    case 'lost_or_stolen_card':
      return 'The card was reported lost or stolen, so the refund could not reach it';
    default:
      return 'The card issuer could not take the refund';
  }
}
