/** What the Worker knows about a payment once it has asked the provider. */
export interface Intent {
  id: string;
  status: string;
  amountCents: number;
  currency: string;
  /** The booking it pays (a booking's payment), or the members' bookings (a family visit's). */
  bookingIds: string[];
  /** Set when it pays a family visit: one payment, one line per member's booking. */
  familyVisitId: string | null;
  clientSecret: string | undefined;
  /** The card that paid, where the provider tells it. */
  card: { brand: string; last4: string } | null;
}

/** What one payment pays: a booking, or the unpaid bookings of a family visit together. */
export interface Payable {
  /** A fee's pay link pays a fee (`id`), no booking. */
  kind: 'booking' | 'family' | 'fee';
  /** The booking's id, or the family visit's. */
  id: string;
  /** The whole amount: the booking's price, or the sum of the members'. */
  priceCents: number;
  email: string;
  description: string;
  /** The intent handed out for it before, if any: asked again, the same one is answered while it still fits. */
  paymentIntentId: string | null;
  bookingIds: string[];
}

export interface RefundRequest {
  /** The provider's payment (a family visit's, when the refund is one member's line of it). */
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

/** A card's setup handed to an account: the provider's SetupIntent, and the account's customer there. */
export interface CardSetupStarted {
  id: string;
  clientSecret: string;
  customerId: string;
}

/** A card as the provider describes its payment method. */
export interface CardDetails {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** A charge to a saved card without the patient (a fee). */
export interface SavedCardCharge {
  customerId: string;
  paymentMethodId: string;
  amountCents: number;
  description: string;
  /** The same key for the same fee, however often it is asked: the provider charges once. */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

/**
 * What came of it: charged; or the card needs the patient (Stripe's `authentication_required`) or
 * was declined, and a pay link goes to the patient instead (`message` in plain words).
 */
export type SavedCardOutcome =
  | { status: 'succeeded'; id: string }
  | { status: 'needs_patient' | 'declined'; id: string | null; message: string };

/** The small surface the routes use; Stripe in production, the demo without Stripe keys. */
export interface PaymentProvider {
  name: 'stripe' | 'demo';
  /** One intent per booking or family visit: asking again answers the same intent, never a second one. */
  intentFor(payable: Payable): Promise<Intent>;
  retrieve(intentId: string): Promise<Intent | null>;
  /** Refunds `amountCents` of a payment: all of it, or one member's line of a family visit's. */
  refund(request: RefundRequest): Promise<RefundAnswer>;
  /** Starts saving a card for `account` (one customer per account at the provider; `customerId` when it has one). */
  setupFor(account: { id: string; email: string }, customerId: string | null): Promise<CardSetupStarted>;
  /** The card behind a payment method, or null when the provider has none such. */
  cardOf(paymentMethodId: string): Promise<CardDetails | null>;
  /** Charges a saved card off-session, once per idempotency key. */
  chargeSaved(charge: SavedCardCharge): Promise<SavedCardOutcome>;
  /** Forgets a saved card at the provider. */
  detach(paymentMethodId: string): Promise<void>;
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
