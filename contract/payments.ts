import * as v from 'valibot';
import { Inserted } from './answers.ts';
import { singleLine, text } from './fields.ts';

/**
 * POST /api/create-payment-intent: what one payment pays, a booking (`bookingId`: its price) or the
 * bookings of a family visit still to pay, together (`familyVisitId`: the sum of their prices).
 * A `price` in the body is ignored.
 */
export const IntentRequest = v.pipe(
  v.object({
    bookingId: v.optional(text('bookingId', 100)),
    familyVisitId: v.optional(text('familyVisitId', 100)),
    /** An unpaid fee's pay link (issue 45). */
    feeId: v.optional(text('feeId', 100)),
  }),
  v.check(
    (body) => [body.bookingId, body.familyVisitId, body.feeId].filter((id) => id !== undefined).length === 1,
    'name one of the bookingId, the familyVisitId or the feeId to pay',
  ),
);
export type IntentRequest = v.InferInput<typeof IntentRequest>;

/**
 * GET /api/payments/provider: which provider takes cards here, known before any payment is asked for, so a payment
 * page draws its card form while its intent is made.
 */
export const CardProvider = v.strictObject({
  provider: v.picklist(['stripe', 'demo']),
  /** Stripe's publishable key for Stripe.js; null with the demo provider. */
  publishableKey: v.nullable(v.string()),
});
export type CardProvider = v.InferOutput<typeof CardProvider>;

/** Which provider takes the card, and the client secret it confirms with. */
export const PaymentIntentAnswer = v.strictObject({
  clientSecret: v.string(),
  ...CardProvider.entries,
  amount: v.number(),
  currency: v.string(),
});
export type PaymentIntentAnswer = v.InferOutput<typeof PaymentIntentAnswer>;

/**
 * POST /api/payments: recorded once the provider confirms it. `bookingId` names the booking paid,
 * or any booking a family visit's payment covers: then a line is recorded for each of them.
 */
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

/**
 * Where a refund stands: 'due' (owed, to be refunded by hand from the provider's dashboard),
 * 'pending' (asked of the provider), 'succeeded', 'failed'.
 */
export const RefundStatus = v.picklist(['due', 'pending', 'succeeded', 'failed']);
export type RefundStatus = v.InferOutput<typeof RefundStatus>;

/** A refund of a payment; `amount` in the currency's units. */
export const RefundState = v.strictObject({ status: RefundStatus, amount: v.number(), currency: v.string() });
export type RefundState = v.InferOutput<typeof RefundState>;

/** A payment the clinic owes back or has refunded, as GET /api/refunds answers it; `amount` in the currency's units. */
export const RefundDue = v.strictObject({
  _id: v.string(),
  transactionId: v.string(),
  provider: v.string(),
  amount: v.number(),
  currency: v.string(),
  /** When the payment was recorded (ISO 8601, UTC). */
  paidAt: v.string(),
  refundStatus: RefundStatus,
  /** Why it is given back, in plain words. */
  reason: v.string(),
  /** Why the provider could not refund it, in plain words (a failed refund). */
  failure: v.nullable(v.string()),
  /** Whose visit it was. */
  patientName: v.nullable(v.string()),
  email: v.string(),
  /** Who paid, and gets the money back: the account holder (a parent, for a child's visit). */
  payer: v.nullable(v.string()),
  /** How it was paid, so how it goes back: "Visa ending in 4242", "cash at the desk", "card at the desk", "card". */
  paidWith: v.string(),
  bookingId: v.nullable(v.string()),
  treatment: v.nullable(v.string()),
  /** e.g. "Nov 21, 2026" (date-fns PP). */
  appointmentDate: v.nullable(v.string()),
  slot: v.nullable(v.string()),
  bookingStatus: v.nullable(v.string()),
});
export type RefundDue = v.InferOutput<typeof RefundDue>;

/** POST /api/refunds/:id/handed-back (admin): a payment taken at the desk was given back there. */
export const RefundHandedBack = v.strictObject({
  acknowledged: v.literal(true),
  message: v.string(),
  refund: RefundDue,
});
export type RefundHandedBack = v.InferOutput<typeof RefundHandedBack>;

/** GET /api/bookings/:id/receipt (the booking's owner or an admin): the payment of a booking, and its refund. */
export const Receipt = v.strictObject({
  bookingId: v.string(),
  treatment: v.string(),
  /** e.g. "Nov 21, 2026" (date-fns PP). */
  appointmentDate: v.string(),
  slot: v.string(),
  patientName: v.string(),
  email: v.string(),
  /** The booking's status: 'active', 'cancelled'… */
  bookingStatus: v.string(),
  /** In the currency's units. */
  amount: v.number(),
  currency: v.string(),
  /** When the payment was recorded (ISO 8601, UTC). */
  paidAt: v.string(),
  transactionId: v.string(),
  provider: v.string(),
  /** Paid at the front desk: in cash, or by card on the clinic's terminal; null for a payment online. */
  method: v.nullable(v.picklist(['cash', 'card'])),
  /** The card's brand ("visa") and last four digits, where the provider gives them. */
  card: v.nullable(v.strictObject({ brand: v.string(), last4: v.string() })),
  refund: v.nullable(RefundState),
});
export type Receipt = v.InferOutput<typeof Receipt>;

/** POST /api/bookings/:id/desk-payment (admin): the patient paid the booking's price at the front desk. */
export const DeskPayment = v.object({ method: v.picklist(['cash', 'card'], 'method must be "cash" or "card"') });
export type DeskPayment = v.InferInput<typeof DeskPayment>;

export const DeskPaid = v.strictObject({
  acknowledged: v.literal(true),
  message: v.string(),
  transactionId: v.string(),
});
export type DeskPaid = v.InferOutput<typeof DeskPaid>;
