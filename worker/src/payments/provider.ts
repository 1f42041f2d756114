/** What the Worker knows about a payment once it has asked the provider. */
export interface Intent {
  id: string;
  status: string;
  amountCents: number;
  currency: string;
  bookingId: string | undefined;
  clientSecret: string | undefined;
}

export interface PayableBooking {
  id: string;
  priceCents: number;
  email: string;
  treatment: string;
  paymentIntentId: string | null;
}

/** The small surface the routes use; Stripe in production, the demo without Stripe keys. */
export interface PaymentProvider {
  name: 'stripe' | 'demo';
  /** One intent per booking: asking again answers the same intent, never a second one. */
  intentFor(booking: PayableBooking): Promise<Intent>;
  retrieve(intentId: string): Promise<Intent | null>;
}
