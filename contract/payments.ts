import * as v from 'valibot';
import { Inserted } from './answers.ts';
import { singleLine, text } from './fields.ts';

/** POST /api/create-payment-intent: the amount is the booking's (a `price` in the body is ignored). */
export const IntentRequest = v.object({ bookingId: text('bookingId', 100) });
export type IntentRequest = v.InferInput<typeof IntentRequest>;

/** Which provider takes the card, and the client secret it confirms with. */
export const PaymentIntentAnswer = v.strictObject({
  clientSecret: v.string(),
  provider: v.picklist(['stripe', 'demo']),
  /** Stripe's publishable key for Stripe.js; null with the demo provider. */
  publishableKey: v.nullable(v.string()),
  amount: v.number(),
  currency: v.string(),
});
export type PaymentIntentAnswer = v.InferOutput<typeof PaymentIntentAnswer>;

/** POST /api/payments: recorded once the provider confirms it. */
export const PaymentRecord = v.object({
  transactionId: text('transactionId', 255),
  bookingId: text('bookingId', 100),
});
/** What the spec's payment screen sends: also `price` and `email`, which the Worker ignores. */
export type PaymentRecord = v.InferInput<typeof PaymentRecord> & { price?: number; email?: string };

/**
 * `refundDue`: the money arrived but cannot pay the booking (cancelled meanwhile, already paid…);
 * it is recorded for a refund and `message` says so in plain words.
 */
export const RecordedPayment = v.strictObject({
  ...Inserted.entries,
  message: v.string(),
  refundDue: v.optional(v.literal(true)),
});
export type RecordedPayment = v.InferOutput<typeof RecordedPayment>;

/** A card as the demo provider takes it (Stripe's test cards decide the outcome). */
export const DemoCard = v.object({
  number: text('card.number', 30),
  expMonth: v.pipe(v.number('card.expMonth must be a number'), v.integer('card.expMonth must be a whole number')),
  expYear: v.pipe(v.number('card.expYear must be a number'), v.integer('card.expYear must be a whole number')),
  cvc: v.pipe(
    v.string('card.cvc must be text'),
    singleLine('card.cvc'),
    v.trim(),
    v.maxLength(4, "Your card's security code is invalid."),
  ),
});
export type DemoCard = v.InferInput<typeof DemoCard>;

/** POST /api/demo-payments/confirm (only without Stripe keys). A decline is a 4xx with Stripe's wording. */
export const DemoConfirmation = v.object({ clientSecret: text('clientSecret', 200), card: DemoCard });
export type DemoConfirmation = v.InferInput<typeof DemoConfirmation>;

export const ConfirmedPayment = v.strictObject({
  paymentIntent: v.strictObject({ id: v.string(), status: v.literal('succeeded'), amount: v.number() }),
});
export type ConfirmedPayment = v.InferOutput<typeof ConfirmedPayment>;

/** POST /api/stripe/webhook: what Stripe is told about a delivery it signed. */
export const WebhookReceipt = v.strictObject({
  received: v.literal(true),
  /** Why nothing was done: the event type, or a payment for no known booking. */
  ignored: v.optional(v.string()),
  /** The event was handled before: nothing changed. */
  duplicate: v.optional(v.boolean()),
  refundDue: v.optional(v.literal(true)),
});
export type WebhookReceipt = v.InferOutput<typeof WebhookReceipt>;

/** A payment the clinic owes back, as GET /api/refunds answers it; `amount` in the currency's units. */
export const RefundDue = v.strictObject({
  _id: v.string(),
  transactionId: v.string(),
  provider: v.string(),
  amount: v.number(),
  currency: v.string(),
  /** When the payment was recorded (ISO 8601, UTC). */
  paidAt: v.string(),
  refundStatus: v.string(),
  /** Why it cannot pay its booking, in plain words. */
  reason: v.string(),
  patientName: v.nullable(v.string()),
  email: v.string(),
  bookingId: v.nullable(v.string()),
  treatment: v.nullable(v.string()),
  /** e.g. "Nov 21, 2026" (date-fns PP). */
  appointmentDate: v.nullable(v.string()),
  slot: v.nullable(v.string()),
  bookingStatus: v.nullable(v.string()),
});
export type RefundDue = v.InferOutput<typeof RefundDue>;
