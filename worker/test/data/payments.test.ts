import { env } from 'cloudflare:test';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  bookingById,
  cancelActiveBooking,
  insertBooking,
  markBookingPaid,
  setPaymentIntent,
} from '../../src/data/bookings.ts';
import {
  insertPayment,
  isPaymentRecorded,
  paymentStateQuery,
  recordStripeEvent,
  refundsDue,
  STRIPE_EVENT_ONCE,
  type SucceededPayment,
} from '../../src/data/payments.ts';
import { violates } from '../../src/data/unique-constraint.ts';
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
  await insertBooking(
    db,
    {
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
    },
    3,
  ).run();
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

/** Records a payment as payments/record.ts does: insert, pay, read its state, in one batch. */
async function record(paid: SucceededPayment) {
  const results = await db.batch([
    insertPayment(db, paid),
    markBookingPaid(db, paid.bookingId, paid.transactionId),
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
      state: { refund_reason: null, status: 'active' },
    });
    expect(await bookingById(db, booking.id, NOW)).toMatchObject({ paid: 1 });
    expect(await isPaymentRecorded(db, booking.intent)).toBe(true);
    expect((await insertPayment(db, payment(booking)).run()).meta.changes).toBe(0);
  });

  it('flags for a refund, with its reason, a payment that cannot pay its booking, and never pays the booking with it', async () => {
    const cancelled = await unpaidBooking();
    await cancelActiveBooking(db, cancelled.id, { evenPaid: false, by: 'patient' }).run();
    expect(await record(payment(cancelled))).toEqual({
      paidChanges: 0,
      state: { refund_reason: 'booking_not_active', status: 'cancelled' },
    });

    const cheaper = await unpaidBooking();
    expect((await record(payment(cheaper, { amountCents: 100 }))).state).toMatchObject({
      refund_reason: 'amount_differs',
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
    expect(due.map((refund) => refund.paidAt)).toEqual(due.map((refund) => refund.paidAt).sort());
    expect(due.find((refund) => refund.transactionId === cancelled.intent)).toMatchObject({
      bookingId: cancelled.id,
      amount: 80,
      currency: 'usd',
      refundStatus: 'due',
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
});
