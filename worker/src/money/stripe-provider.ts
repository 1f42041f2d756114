import type Stripe from 'stripe';
import type { Env } from '../platform/env.ts';
import { HttpError } from '../platform/http.ts';
import {
  type Intent,
  type PaymentProvider,
  type RefundAnswer,
  refundFailureText,
  type SavedCardOutcome,
} from './provider.ts';

type StripeLibrary = typeof import('stripe').default;
type StripeErrors = StripeLibrary['errors'];
let library: Promise<StripeLibrary> | undefined;
/**
 * The Stripe library (some 270 modules), loaded when a payment first needs it: never with the demo provider,
 * so neither by a Worker that takes no cards nor by each Worker test file that loads the Worker.
 */
const stripeLibrary = () => (library ??= import('stripe').then((module) => module.default));

export async function stripeClient(secretKey: string): Promise<Stripe> {
  const StripeClient = await stripeLibrary();
  // Built per request: workerd has no Node http, so Stripe talks through fetch.
  return new StripeClient(secretKey, { httpClient: StripeClient.createFetchHttpClient(), maxNetworkRetries: 2 });
}

/** A webhook's event, its signature checked with `webhookSecret`; throws when it is not Stripe's. */
export async function stripeEvent(
  secretKey: string,
  webhookSecret: string,
  payload: string,
  signature: string,
): Promise<Stripe.Event> {
  const StripeClient = await stripeLibrary();
  return (await stripeClient(secretKey)).webhooks.constructEventAsync(
    payload,
    signature,
    webhookSecret,
    undefined,
    StripeClient.createSubtleCryptoProvider(),
  );
}

export function toIntent(intent: Stripe.PaymentIntent): Intent {
  // The card is on the intent's charge, which Stripe sends only when asked to expand it.
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  const card = charge?.payment_method_details?.card;
  return {
    id: intent.id,
    status: intent.status,
    amountCents: intent.amount,
    currency: intent.currency,
    ...bookingsOf(intent.metadata ?? {}),
    clientSecret: intent.client_secret ?? undefined,
    card: card?.last4 ? { brand: card.brand ?? 'unknown', last4: card.last4 } : null,
  };
}

/**
 * What an intent pays, from its metadata: `bookingId` (a booking's payment), or `familyVisitId`
 * and `bookingIds` (comma-separated: the members' bookings a family visit's payment covers).
 */
function bookingsOf(metadata: Stripe.Metadata): Pick<Intent, 'bookingIds' | 'familyVisitId'> {
  if (metadata.familyVisitId) {
    return {
      bookingIds: (metadata.bookingIds ?? '').split(',').filter(Boolean),
      familyVisitId: metadata.familyVisitId,
    };
  }
  return { bookingIds: metadata.bookingId ? [metadata.bookingId] : [], familyVisitId: null };
}

/** A short, stable digest of `text` (an idempotency key's part). */
async function digest(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return [...bytes.slice(0, 8)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A Stripe Refund as the Worker keeps it: pending (or waiting for the customer), succeeded, or failed (or canceled). */
export function toRefundAnswer(refund: Stripe.Refund): RefundAnswer {
  if (refund.status === 'succeeded') return { id: refund.id, status: 'succeeded', failure: null };
  if (refund.status === 'failed' || refund.status === 'canceled') {
    return { id: refund.id, status: 'failed', failure: refundFailureText(refund.failure_reason) };
  }
  return { id: refund.id, status: 'pending', failure: null };
}

/**
 * Runs a call to Stripe; when Stripe cannot be reached or is failing (after the client's own
 * retries) the caller gets a 502 or 503 with Retry-After and a plain message, never a 500.
 */
async function reachStripe<T>(
  client: Promise<Stripe>,
  call: (stripe: Stripe, errors: StripeErrors) => Promise<T>,
): Promise<T> {
  const [stripe, { errors }] = await Promise.all([client, stripeLibrary()]);
  try {
    return await call(stripe, errors);
  } catch (error) {
    if (error instanceof errors.StripeRateLimitError) {
      console.error('Stripe rate limit', error.message);
      throw new HttpError(503, 'The payment service is busy right now; please try again in a minute', {
        'Retry-After': '30',
      });
    }
    if (
      error instanceof errors.StripeConnectionError ||
      error instanceof errors.StripeAPIError ||
      (error instanceof errors.StripeError && (error.statusCode ?? 0) >= 500)
    ) {
      console.error('Stripe unreachable', error.message);
      throw new HttpError(502, 'The payment service cannot be reached right now; please try again in a minute', {
        'Retry-After': '30',
      });
    }
    throw error;
  }
}

export function stripeProvider(_env: Env, secretKey: string): PaymentProvider {
  const client = stripeClient(secretKey);
  return {
    name: 'stripe',
    intentFor: (payable) =>
      reachStripe(client, async (stripe) => {
        const metadata: Record<string, string> =
          payable.kind === 'family'
            ? { familyVisitId: payable.id, bookingIds: payable.bookingIds.join(',') }
            : payable.kind === 'fee'
              ? { feeId: payable.id }
              : { bookingId: payable.id };
        if (payable.paymentIntentId) {
          const existing = await stripe.paymentIntents.retrieve(payable.paymentIntentId);
          const same = existing.amount === payable.priceCents && existing.status !== 'canceled';
          if (same && (payable.kind === 'booking' || existing.metadata?.bookingIds === metadata.bookingIds)) {
            return toIntent(existing);
          }
        }
        const intent = await stripe.paymentIntents.create(
          {
            amount: payable.priceCents,
            currency: 'usd',
            description: payable.description,
            receipt_email: payable.email,
            metadata,
          },
          // A retried request (lost answer, double click) gets the same intent back from Stripe.
          {
            idempotencyKey:
              payable.kind === 'family'
                ? `family-${payable.id}-${payable.priceCents}-${await digest(metadata.bookingIds ?? '')}`
                : `${payable.kind}-${payable.id}-${payable.priceCents}`,
          },
        );
        return toIntent(intent);
      }),
    retrieve: (intentId) =>
      reachStripe(client, async (stripe, errors) => {
        try {
          return toIntent(await stripe.paymentIntents.retrieve(intentId, { expand: ['latest_charge'] }));
        } catch (error) {
          if (error instanceof errors.StripeInvalidRequestError && error.statusCode === 404) return null;
          throw error;
        }
      }),
    refund: (request) =>
      reachStripe(client, async (stripe, errors) => {
        try {
          const refund = await stripe.refunds.create(
            {
              payment_intent: request.transactionId,
              amount: request.amountCents,
              reason: 'requested_by_customer',
              metadata: request.bookingId ? { bookingId: request.bookingId } : {},
            },
            { idempotencyKey: request.idempotencyKey },
          );
          return toRefundAnswer(refund);
        } catch (error) {
          if (error instanceof errors.StripeInvalidRequestError) {
            // Refunded already (from Stripe's dashboard, say): the money is back.
            if (error.code === 'charge_already_refunded') return { id: null, status: 'succeeded', failure: null };
            console.error('Stripe refused a refund', request.transactionId, error.message);
            return { id: null, status: 'failed', failure: 'The payment provider refused the refund' };
          }
          throw error;
        }
      }),
    setupFor: (account, customerId) =>
      reachStripe(client, async (stripe) => {
        const customer =
          customerId ??
          (
            await stripe.customers.create(
              { email: account.email, metadata: { userId: account.id } },
              { idempotencyKey: `customer-${account.id}` },
            )
          ).id;
        // usage off_session: Stripe asks for authentication now, so later fees go through without the patient.
        const setup = await stripe.setupIntents.create({
          customer,
          usage: 'off_session',
          metadata: { userId: account.id },
        });
        if (!setup.client_secret) throw new Error(`setup intent ${setup.id} came without a client secret`);
        return { id: setup.id, clientSecret: setup.client_secret, customerId: customer };
      }),
    cardOf: (paymentMethodId) =>
      reachStripe(client, async (stripe, errors) => {
        try {
          const card = (await stripe.paymentMethods.retrieve(paymentMethodId)).card;
          return card
            ? { brand: card.brand, last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year }
            : null;
        } catch (error) {
          if (error instanceof errors.StripeInvalidRequestError) return null;
          throw error;
        }
      }),
    chargeSaved: (charge) =>
      reachStripe(client, async (stripe, errors): Promise<SavedCardOutcome> => {
        try {
          const intent = await stripe.paymentIntents.create(
            {
              amount: charge.amountCents,
              currency: 'usd',
              customer: charge.customerId,
              payment_method: charge.paymentMethodId,
              off_session: true,
              confirm: true,
              description: charge.description,
              metadata: charge.metadata,
            },
            { idempotencyKey: charge.idempotencyKey },
          );
          if (intent.status === 'succeeded') return { status: 'succeeded', id: intent.id };
          return { status: 'needs_patient', id: intent.id, message: NEEDS_PATIENT };
        } catch (error) {
          if (error instanceof errors.StripeCardError) {
            const id = error.payment_intent?.id ?? null;
            if (error.code === 'authentication_required')
              return { status: 'needs_patient', id, message: NEEDS_PATIENT };
            return { status: 'declined', id, message: 'The card on file was declined' };
          }
          throw error;
        }
      }),
    detach: (paymentMethodId) =>
      reachStripe(client, async (stripe, errors) => {
        try {
          await stripe.paymentMethods.detach(paymentMethodId);
        } catch (error) {
          // Detached already, or never attached: nothing is left to forget.
          if (!(error instanceof errors.StripeInvalidRequestError)) throw error;
        }
      }),
  };
}

const NEEDS_PATIENT = 'The bank asks the card holder to approve this charge';
