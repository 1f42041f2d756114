import type { DemoCard } from '../../../contract/payments.ts';
import { bookingOfIntent, bookingsOfFamilyIntent } from '../booking/data/bookings.ts';
import { cardOfMethod } from '../people/data/cards.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { isPaymentRecorded } from './data/payments.ts';
import type { PaymentProvider } from './provider.ts';

/**
 * The stand-in for Stripe when no Stripe key is configured: same intent shape, decided here.
 * Intent ids are derived from the booking or family visit (so there is one per booking and one per
 * family visit); the client secret carries an HMAC so only the caller who was handed it can
 * confirm a payment. A family visit's intent is known by the bookings waiting for its lines.
 */
export function demoProvider(env: Env): PaymentProvider {
  return {
    name: 'demo',
    async intentFor(payable) {
      const id = demoIntentId(payable.id);
      return {
        id,
        status: (await isPaymentRecorded(env.DB, id)) ? 'succeeded' : 'requires_payment_method',
        amountCents: payable.priceCents,
        currency: 'usd',
        bookingIds: payable.bookingIds,
        familyVisitId: payable.kind === 'family' ? payable.id : null,
        clientSecret: `${id}_secret_${await demoSignature(env, id)}`,
        card: null,
      };
    },
    async retrieve(intentId) {
      const booking = await bookingOfIntent(env.DB, intentId);
      const lines = booking ? [] : await bookingsOfFamilyIntent(env.DB, intentId);
      if (!booking && lines.length === 0) return null;
      const status = (await isPaymentRecorded(env.DB, intentId)) ? 'succeeded' : 'requires_payment_method';
      return {
        id: intentId,
        status,
        amountCents: booking ? booking.due_cents : lines.reduce((sum, line) => sum + line.due_cents, 0),
        currency: 'usd',
        bookingIds: booking ? [booking.id] : lines.map((line) => line.id),
        familyVisitId: lines[0]?.family_visit_id ?? null,
        clientSecret: undefined,
        card: null,
      };
    },
    async setupFor(account, customerId) {
      const id = `seti_demo_${crypto.randomUUID().replaceAll('-', '')}`;
      return {
        id,
        clientSecret: `${id}_secret_${await demoSignature(env, id)}`,
        customerId: customerId ?? `cus_demo_${account.id.replaceAll('-', '')}`,
      };
    },
    async cardOf(paymentMethodId) {
      const card = await cardOfMethod(env.DB, paymentMethodId);
      return card && { brand: card.brand, last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year };
    },
    // Stripe's test cards for saved cards: 4000 0000 0000 0341 is saved and then declined,
    // 4000 0027 6000 3184 is saved and then needs its holder to approve every charge.
    async chargeSaved({ paymentMethodId, idempotencyKey }) {
      const id = `pi_demo_${(await hexDigest(idempotencyKey)).slice(0, 32)}`;
      const behaviour = /^pm_demo_(\w+?)_/.exec(paymentMethodId)?.[1];
      if (behaviour === 'auth')
        return { status: 'needs_patient', id, message: 'The bank asks the card holder to approve this charge' };
      if (behaviour === 'declined') return { status: 'declined', id, message: 'The card on file was declined' };
      return { status: 'succeeded', id };
    },
    async detach() {
      // The demo keeps its cards only in D1: forgetting the row forgets the card.
    },
    // Like a card refund at Stripe: it succeeds at once. The refund of Stripe's test card
    // 4000 0000 0000 5126 fails a while later (the Cron Trigger's sweep), as Stripe's does.
    // A family visit's payment is refunded line by line: one refund per member's booking.
    async refund({ transactionId, idempotencyKey }) {
      const line = /^refund:([0-9a-f-]{36})$/.exec(idempotencyKey)?.[1];
      const suffix = line && transactionId !== demoIntentId(line) ? `_${line.replaceAll('-', '')}` : '';
      return { id: `re_demo_${transactionId.replace(/^pi_demo_/, '')}${suffix}`, status: 'succeeded', failure: null };
    },
  };
}

/** The demo intent of a booking, or of a family visit, by its id. */
export function demoIntentId(id: string): string {
  return `pi_demo_${id.replaceAll('-', '')}`;
}

async function demoSignature(env: Env, intentId: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(`demo-payments:${env.JWT_SECRET ?? ''}`),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(intentId)));
  return [...mac.slice(0, 12)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function hexDigest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A demo saved card's payment method id: how its off-session charges go ('ok', 'declined', 'auth') and a random part. */
export function demoPaymentMethodId(card: DemoCard): string {
  const number = card.number.replace(/[\s-]/g, '');
  const behaviour = number === '4000002760003184' ? 'auth' : number === '4000000000000341' ? 'declined' : 'ok';
  return `pm_demo_${behaviour}_${crypto.randomUUID().replaceAll('-', '')}`;
}

/** The intent or setup id inside a demo client secret, if the secret is genuine. */
export async function verifyDemoSecret(env: Env, clientSecret: string): Promise<string | null> {
  const match = /^((?:pi|seti)_demo_[0-9a-f]{32})_secret_([0-9a-f]{24})$/.exec(clientSecret);
  if (!match) return null;
  const [, intentId, signature] = match as unknown as [string, string, string];
  return (await demoSignature(env, intentId)) === signature ? intentId : null;
}

export type CardDecision =
  | { ok: true }
  | { ok: false; status: 400 | 402; code: string; declineCode?: string; message: string };

/** Stripe's test cards, with Stripe's own messages. */
export function decideDemoCard(card: DemoCard, now = clock(), purpose: 'payment' | 'setup' = 'payment'): CardDecision {
  const number = card.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) {
    return { ok: false, status: 400, code: 'incorrect_number', message: 'Your card number is incorrect.' };
  }
  const year = card.expYear < 100 ? 2000 + card.expYear : card.expYear;
  if (!Number.isInteger(card.expMonth) || card.expMonth < 1 || card.expMonth > 12) {
    return {
      ok: false,
      status: 400,
      code: 'invalid_expiry_month',
      message: "Your card's expiration month is invalid.",
    };
  }
  if (year < now.getUTCFullYear() || (year === now.getUTCFullYear() && card.expMonth < now.getUTCMonth() + 1)) {
    return {
      ok: false,
      status: 400,
      code: 'invalid_expiry_year',
      message: "Your card's expiration date is in the past.",
    };
  }
  if (!/^\d{3,4}$/.test(card.cvc)) {
    return { ok: false, status: 400, code: 'incomplete_cvc', message: "Your card's security code is incomplete." };
  }
  // Saved for later, these two are kept; charged, they are declined (the default below).
  if (purpose === 'setup' && (number === '4000000000000341' || number === '4000002760003184')) return { ok: true };
  switch (number) {
    case '4242424242424242':
    case '5555555555554444':
    case '4000000000005126': // pays; its refund fails later
      return { ok: true };
    case '4000000000009995':
      return {
        ok: false,
        status: 402,
        code: 'card_declined',
        declineCode: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      };
    case '4000000000000069':
      return { ok: false, status: 402, code: 'expired_card', message: 'Your card has expired.' };
    case '4000000000000127':
      return { ok: false, status: 402, code: 'incorrect_cvc', message: "Your card's security code is incorrect." };
    default:
      return {
        ok: false,
        status: 402,
        code: 'card_declined',
        declineCode: 'generic_decline',
        message: 'Your card was declined.',
      };
  }
}

/** The card's brand (as Stripe names it) and last four digits, for the receipt. */
export function demoCardOf(card: DemoCard): { brand: string; last4: string } {
  const number = card.number.replace(/[\s-]/g, '');
  const brand = /^4/.test(number)
    ? 'visa'
    : /^(5[1-5]|2[2-7])/.test(number)
      ? 'mastercard'
      : /^3[47]/.test(number)
        ? 'amex'
        : 'unknown';
  return { brand, last4: number.slice(-4) };
}

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits.at(-1 - i));
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
