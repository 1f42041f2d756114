import * as v from 'valibot';
import { count, Inserted, Modified } from './answers.ts';
import { WithdrawnOffer } from './bookings.ts';
import { text, wholeNumber } from './fields.ts';
import { PAYMENT_RULES, type PaymentRule } from './payment-rules.ts';

const payment = v.picklist(PAYMENT_RULES, 'payment must be "full", "deposit", "card" or "clinic"');
const depositPercent = v.nullable(wholeNumber('depositPercent', 'percent', 1, 99));
const depositNamesItsShare = (t: { payment?: PaymentRule; depositPercent?: number | null }) =>
  t.payment !== 'deposit' || (t.depositPercent !== undefined && t.depositPercent !== null);

/** A treatment as the admin's Treatments screen lists it (GET /api/treatments: active and not). */
export const Treatment = v.strictObject({
  _id: v.string(),
  name: v.string(),
  /** In dollars. */
  price: v.number(),
  /** 15 to 180, a multiple of 15. */
  durationMinutes: v.number(),
  /** The name of the specialty whose doctors may perform it (GET /api/appointmentSpecialty). */
  specialty: v.string(),
  /** An inactive treatment is not offered to patients; its bookings stay. */
  active: v.boolean(),
  /** Months until the patient is due again after a visit (the six-month cleaning); null: no recall. */
  recallMonths: v.nullable(v.number()),
  /** How a patient who books it online pays (PAYMENT_RULES). */
  payment: v.picklist(PAYMENT_RULES),
  /** The share paid online for a deposit, in percent (null for every other rule). */
  depositPercent: v.nullable(v.number()),
});
export type Treatment = v.InferOutput<typeof Treatment>;

const price = v.pipe(
  v.number((issue) => (issue.input === undefined ? 'price is required' : 'price must be a number of dollars')),
  v.minValue(0, 'price must not be negative'),
  v.maxValue(100_000, 'price must be at most 100000'),
  v.check(
    (value: number) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-6,
    'price must have at most two decimals',
  ),
);

const durationMinutes = v.pipe(
  v.number('durationMinutes must be a number of minutes'),
  v.integer('durationMinutes must be a whole number of minutes'),
  v.minValue(15, 'durationMinutes must be at least 15'),
  v.maxValue(180, 'durationMinutes must be at most 180'),
  v.check((value: number) => value % 15 === 0, 'durationMinutes must be a multiple of 15'),
);

const active = v.boolean('active must be true or false');

const recallMonths = v.nullable(
  v.pipe(
    v.number('recallMonths must be a number of months or null'),
    v.integer('recallMonths must be a whole number of months'),
    v.minValue(1, 'recallMonths must be 1 to 36'),
    v.maxValue(36, 'recallMonths must be 1 to 36'),
  ),
);

/** POST /api/treatments (admin): `specialty` by name; a new treatment is active unless told. */
export const NewTreatment = v.pipe(
  v.object({
    name: text('name', 100),
    price,
    durationMinutes,
    specialty: text('specialty', 100),
    active: v.optional(active, true),
    recallMonths: v.optional(recallMonths, null),
    payment: v.optional(payment, 'full'),
    depositPercent: v.optional(depositPercent, null),
  }),
  v.check((t) => depositNamesItsShare(t), 'A deposit needs depositPercent (1 to 99)'),
);
export type NewTreatment = v.InferInput<typeof NewTreatment>;

/**
 * PUT /api/treatments/:id (admin): the fields to change; those not sent stay. Upcoming bookings
 * keep the length, price and doctor they were booked with.
 */
export const TreatmentChanges = v.pipe(
  v.object({
    name: v.optional(text('name', 100)),
    price: v.optional(price),
    durationMinutes: v.optional(durationMinutes),
    specialty: v.optional(text('specialty', 100)),
    active: v.optional(active),
    recallMonths: v.optional(recallMonths),
    /** A change to 'deposit' names its share; the share of a deposit already set may change alone. */
    payment: v.optional(payment),
    depositPercent: v.optional(depositPercent),
  }),
  v.check((t) => depositNamesItsShare(t), 'A deposit needs depositPercent (1 to 99)'),
);
export type TreatmentChanges = v.InferInput<typeof TreatmentChanges>;

export const TreatmentAdded = Inserted;
export type TreatmentAdded = Inserted;
/** A treatment changed; deactivating it withdraws the open waitlist offers of it (listed). */
export const TreatmentUpdated = v.strictObject({ ...Modified.entries, withdrawnOffers: v.array(WithdrawnOffer) });
export type TreatmentUpdated = v.InferOutput<typeof TreatmentUpdated>;

/**
 * DELETE /api/treatments/:id (admin): a treatment with upcoming bookings is deactivated instead
 * (`deletedCount: 0, deactivated: true`), and `message` says so.
 */
export const TreatmentDeleted = v.strictObject({
  acknowledged: v.literal(true),
  deletedCount: count,
  deactivated: v.boolean(),
  message: v.string(),
  withdrawnOffers: v.array(WithdrawnOffer),
});
export type TreatmentDeleted = v.InferOutput<typeof TreatmentDeleted>;
