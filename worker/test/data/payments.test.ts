import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import { bookingById } from '../../src/booking/data/bookings.ts';
import {
  cancelActiveBooking,
  insertBooking,
  markBookingPaid,
  setPaymentIntent,
} from '../../src/booking/data/writes.ts';
import {
  advanceRefund,
  insertPayment,
  isPaymentRecorded,
  paymentStateQuery,
  receiptOf,
  recordStripeEvent,
  refundPaymentOfCancelledBooking,
  refundsDue,
  refundsToSend,
  STRIPE_EVENT_ONCE,
  type SucceededPayment,
} from '../../src/money/data/payments.ts';
import { violates } from '../../src/platform/data/unique-constraint.ts';
import { addUser, seed } from '../helpers.ts';

const db = env.DB;
const NOW = new Date('2026-11-21T15:00:00.000Z');
let day = 0;

/** An unpaid Teeth Cleaning ($80) on a date of its own, waiting for payment intent `pi_<its id>`. */
async function unpaidBooking(): Promise<{ id: string; intent: string }> {
  day += 1;
  const email = `payer${day}@example.com`;
  const id = crypto.randomUUID();
  const date = `2027-01-${String(day).padStart(2, '0')}`;
  await insertBooking(db, {
    id,
    treatmentId: 'teeth-cleaning',
    treatment: 'Teeth Cleaning',
    appointmentDate: date,
    slot: '09.00 AM - 09.30 AM',
    startMinute: 540,
    durationMinutes: 30,
    doctorId: 'dr-sofia-alvarez',
    chairId: 'chair-1',
    userId: await addUser(email, `Payer ${day}`),
    patientName: `Payer ${day}`,
    email,
    phone: '',
    priceCents: 8000,
    createdAt: NOW.toISOString(),
    holdUntil: '2026-12-31T00:00:00.000Z',
    paymentRule: 'full',
    depositCents: null,
    noShowFeeCents: 0,
    lateCancelFeeCents: 0,
  }).run();
  await setPaymentIntent(db, id, `pi_${id}`).run();
  return { id, intent: `pi_${id}` };
}

const payment = (
  booking: { id: string; intent: string },
  fields: Partial<SucceededPayment> = {},
): SucceededPayment => ({
  transactionId: booking.intent,
  bookingId: booking.id,
  amountCents: 8000,
  currency: 'usd',
  provider: 'demo',
  ...fields,
});

/** Records a payment as money/record.ts does: insert, pay, read its state, in one batch. */
async function record(paid: SucceededPayment) {
  const results = await db.batch([
    insertPayment(db, paid),
    markBookingPaid(db, paid.bookingId, paid.transactionId, NOW),
    paymentStateQuery(db, paid.transactionId),
  ]);
  return { paidChanges: results[1]?.meta.changes, state: results[2]?.results[0] };
}

beforeAll(seed);

describe('payments: statements against D1', () => {
  it('records the payment a booking waits for and pays it, once per transaction', async () => {
    const booking = await unpaidBooking();
    expect(await isPaymentRecorded(db, booking.intent)).toBe(false);
    expect(await record(payment(booking))).toEqual({
      paidChanges: 1,
      state: { refund_reason: null, refund_status: null, status: 'active' },
    });
    expect(await bookingById(db, booking.id, NOW)).toMatchObject({ paid: 1 });
    expect(await isPaymentRecorded(db, booking.intent)).toBe(true);
    expect((await insertPayment(db, payment(booking)).run()).meta.changes).toBe(0);
  });

  it('gives back, with its reason, a payment that cannot pay its booking (refunded when the booking is gone, else due), and never pays the booking with it', async () => {
    const cancelled = await unpaidBooking();
    await cancelActiveBooking(db, cancelled.id, { evenPaid: false, by: 'patient' }).run();
    expect(await record(payment(cancelled))).toEqual({
      paidChanges: 0,
      state: { refund_reason: 'booking_not_active', refund_status: 'pending', status: 'cancelled' },
    });

    const cheaper = await unpaidBooking();
    expect((await record(payment(cheaper, { amountCents: 100 }))).state).toMatchObject({
      refund_reason: 'amount_differs',
      refund_status: 'due',
    });
    const otherIntent = await unpaidBooking();
    expect((await record(payment(otherIntent, { transactionId: 'pi_someone_else' }))).state).toMatchObject({
      refund_reason: 'other_intent',
    });
    const twice = await unpaidBooking();
    await record(payment(twice));
    expect((await record(payment(twice, { transactionId: 'pi_second' }))).state).toMatchObject({
      refund_reason: 'already_paid',
    });

    for (const booking of [cancelled, cheaper, otherIntent])
      expect(await bookingById(db, booking.id, NOW)).toMatchObject({ paid: 0 });
    const due = await refundsDue(db);
    expect(due.map((refund) => refund.transactionId).sort()).toEqual(
      [cancelled.intent, cheaper.intent, 'pi_someone_else', 'pi_second'].sort(),
    );
    // Those the clinic must act on (due) first, oldest first; then the refunds on their way.
    expect(due.map((refund) => refund.refundStatus)).toEqual(['due', 'due', 'due', 'pending']);
    expect(due.slice(0, 3).map((refund) => refund.paidAt)).toEqual(
      due
        .slice(0, 3)
        .map((refund) => refund.paidAt)
        .sort(),
    );
    expect(due.find((refund) => refund.transactionId === cancelled.intent)).toMatchObject({
      bookingId: cancelled.id,
      amount: 80,
      currency: 'usd',
      refundStatus: 'pending',
      reason: 'The booking was cancelled before the payment arrived',
      treatment: 'Teeth Cleaning',
      bookingStatus: 'cancelled',
    });
  });

  it('handles a Stripe event once: a second delivery fails its whole batch on STRIPE_EVENT_ONCE', async () => {
    const booking = await unpaidBooking();
    const event = { id: `evt_${booking.id}`, type: 'payment_intent.succeeded', created: 1 };
    await db.batch([recordStripeEvent(db, event), insertPayment(db, payment(booking))]);
    const other = await unpaidBooking();
    const error = await db.batch([recordStripeEvent(db, event), insertPayment(db, payment(other))]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(violates(error, STRIPE_EVENT_ONCE)).toBe(true);
    expect(await isPaymentRecorded(db, other.intent)).toBe(false);
  });

  it('puts a cancelled booking’s payment up for a refund once, and never an active booking’s', async () => {
    const booking = await unpaidBooking();
    await record(payment(booking, { card: { brand: 'visa', last4: '4242' } }));
    expect((await refundPaymentOfCancelledBooking(db, booking.id).all()).results).toEqual([]);
    await cancelActiveBooking(db, booking.id, { evenPaid: true, by: 'patient' }).run();
    const [first, second] = await db.batch([
      refundPaymentOfCancelledBooking(db, booking.id),
      refundPaymentOfCancelledBooking(db, booking.id),
    ]);
    expect(first?.results).toEqual([{ transaction_id: booking.intent }]);
    expect(second?.results).toEqual([]);
    expect(await refundsToSend(db, { bookingId: booking.id })).toEqual([
      {
        transaction_id: booking.intent,
        provider_payment: booking.intent,
        booking_id: booking.id,
        amount_cents: 8000,
        currency: 'usd',
        provider: 'demo',
        booking_intent: booking.intent,
      },
    ]);
    expect(await receiptOf(db, booking.id)).toMatchObject({
      booking_status: 'cancelled',
      card_brand: 'visa',
      card_last4: '4242',
      refund_status: 'pending',
      refund_amount_cents: 8000,
    });
  });

  it('moves a refund forward only: pending, succeeded, failed; the same state only learns the refund’s id', async () => {
    const booking = await unpaidBooking();
    await record(payment(booking));
    const update = async (status: 'pending' | 'succeeded' | 'failed', refundId: string | null = null) => {
      const results = await db.batch(
        advanceRefund(
          db,
          {
            transactionId: booking.intent,
            status,
            refundId,
            amountCents: null,
            failure: status === 'failed' ? 'The card issuer could not take the refund' : null,
          },
          { system: 'stripe' },
        ),
      );
      return results.at(-1) as D1Result;
    };
    const state = () => receiptOf(db, booking.id);
    expect((await update('pending')).meta.changes).toBe(1);
    expect((await update('pending')).meta.changes).toBe(0);
    expect((await update('pending', 're_1')).meta.changes).toBe(1);
    expect((await update('succeeded', 're_2')).meta.changes).toBe(1);
    expect((await update('pending')).meta.changes).toBe(0);
    expect(await state()).toMatchObject({ refund_status: 'succeeded', refund_amount_cents: 8000 });
    expect((await update('failed')).meta.changes).toBe(1);
    expect((await update('succeeded')).meta.changes).toBe(0);
    expect(await state()).toMatchObject({ refund_status: 'failed' });
    const row = await db
      .prepare('SELECT refund_id, refund_failure FROM payments WHERE transaction_id = ?1')
      .bind(booking.intent)
      .first();
    expect(row).toEqual({ refund_id: 're_1', refund_failure: 'The card issuer could not take the refund' });
    // One audit row per move of its state, none for a repeat or for learning the refund's id.
    const { results: audit } = await db
      .prepare(
        `SELECT actor_label, action, before, after FROM audit_log
         WHERE target_type = 'payment' AND target_id = ?1 ORDER BY id`,
      )
      .bind(booking.intent)
      .all();
    expect(audit).toEqual([
      {
        actor_label: 'stripe',
        action: 'payment.refund_requested',
        before: '{"refundStatus":null}',
        after: '{"refundStatus":"pending"}',
      },
      {
        actor_label: 'stripe',
        action: 'payment.refunded',
        before: '{"refundStatus":"pending"}',
        after: '{"refundStatus":"succeeded"}',
      },
      {
        actor_label: 'stripe',
        action: 'payment.refund_failed',
        before: '{"refundStatus":"succeeded"}',
        after: '{"refundStatus":"failed","failure":"The card issuer could not take the refund"}',
      },
    ]);
  });
});
