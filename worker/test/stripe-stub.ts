// A stand-in for Stripe's API (this machine cannot reach Stripe): it answers the real `stripe`
// package's requests with the objects of Stripe's API reference, written by hand in fixtures/.
import Stripe from 'stripe';
import { vi } from 'vitest';
import documentedCharge from './fixtures/stripe-charge.json';
import documentedCustomer from './fixtures/stripe-customer.json';
import documentedIntent from './fixtures/stripe-payment-intent.json';
import documentedMethod from './fixtures/stripe-payment-method.json';
import documentedRefund from './fixtures/stripe-refund.json';
import documentedSetup from './fixtures/stripe-setup-intent.json';

export { documentedIntent, documentedRefund, documentedSetup };

/**
 * Stripe's test payment methods for saved cards, by how an off-session charge goes: pm_card_visa
 * pays, pm_card_chargeDeclined is declined, pm_card_authenticationRequired needs its holder.
 */
const OFF_SESSION_ERRORS: Record<string, { code: string; decline_code?: string; message: string }> = {
  pm_card_chargeDeclined: {
    code: 'card_declined',
    decline_code: 'generic_decline',
    message: 'Your card was declined.',
  },
  pm_card_authenticationRequired: {
    code: 'authentication_required',
    decline_code: 'authentication_required',
    message: 'Your card was declined. This transaction requires authentication.',
  },
};

/** The bindings that switch the Worker to Stripe. */
export const STRIPE = {
  STRIPE_SECRET_KEY: 'sk_test_fixture',
  STRIPE_WEBHOOK_SECRET: 'whsec_fixture',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_fixture',
};

export interface StripeRequest {
  method: string;
  url: string;
  headers: Headers;
  body: string;
}

export interface StripeStub {
  requests: StripeRequest[];
  /** The stub's intents, shaped as Stripe documents them, keyed by id. */
  intents: Map<string, Omit<typeof documentedIntent, 'metadata'> & { metadata: Record<string, string> }>;
  /** The status a new refund comes back with, and its failure reason when it failed. */
  refunds: { status: string; failureReason: string | null };
  /** While true, every request fails as a lost connection would. */
  unreachable: boolean;
  /** The requests that created refunds. */
  refundRequests(): StripeRequest[];
}

/** Stripe never reuses an id; neither does the stub. */
let lastId = 0;

/** Stubs `fetch` for api.stripe.com (restore with vi.restoreAllMocks()); anything else goes out as usual. */
export function stubStripe(): StripeStub {
  const stub: StripeStub = {
    requests: [],
    intents: new Map(),
    refunds: { status: 'succeeded', failureReason: null },
    unreachable: false,
    refundRequests: () => stub.requests.filter((r) => r.method === 'POST' && r.url.endsWith('/v1/refunds')),
  };
  // Stripe answers a repeated idempotency key with the first answer.
  const refundsByKey = new Map<string, object>();
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith('https://api.stripe.com/')) return realFetch(input, init);
    const body = await request.text();
    stub.requests.push({ method: request.method, url: request.url, headers: request.headers, body });
    if (stub.unreachable) throw new TypeError('Network connection lost.');
    const url = new URL(request.url);
    const form = new URLSearchParams(body);
    if (request.method === 'POST' && url.pathname === '/v1/customers') {
      lastId += 1;
      return Response.json({ ...documentedCustomer, id: `cus_fixture_${lastId}`, email: form.get('email') });
    }
    if (request.method === 'POST' && url.pathname === '/v1/setup_intents') {
      lastId += 1;
      const id = `seti_fixture_${lastId}`;
      return Response.json({
        ...documentedSetup,
        id,
        client_secret: `${id}_secret_abc`,
        customer: form.get('customer'),
        usage: form.get('usage'),
        metadata: metadataOf(form),
      });
    }
    const method = /^\/v1\/payment_methods\/([^/]+)(\/detach)?$/.exec(url.pathname);
    if (method) {
      const [, id = '', detach] = method;
      const card = id === 'pm_card_mastercard' ? { brand: 'mastercard', last4: '4444' } : {};
      return Response.json({
        ...documentedMethod,
        id,
        card: { ...documentedMethod.card, ...card },
        customer: detach ? null : documentedMethod.customer,
      });
    }
    if (request.method === 'POST' && url.pathname === '/v1/payment_intents' && form.get('off_session') === 'true') {
      lastId += 1;
      const paymentMethod = form.get('payment_method') ?? '';
      // By Stripe's name, or a name that begins with it (each patient's own payment method).
      const failure = Object.entries(OFF_SESSION_ERRORS).find(([name]) => paymentMethod.startsWith(name))?.[1];
      const intent = {
        ...documentedIntent,
        id: `pi_fixture_${lastId}`,
        client_secret: `pi_fixture_${lastId}_secret_abc`,
        amount: Number(form.get('amount')),
        customer: form.get('customer'),
        payment_method: paymentMethod,
        metadata: metadataOf(form),
        status: failure ? 'requires_payment_method' : 'succeeded',
      };
      if (!failure) return Response.json(intent);
      // Stripe answers a failed off-session confirmation 402, the intent inside the error.
      return Response.json({ error: { type: 'card_error', ...failure, payment_intent: intent } }, { status: 402 });
    }
    if (request.method === 'POST' && url.pathname === '/v1/payment_intents') {
      lastId += 1;
      const intent = {
        ...documentedIntent,
        id: `pi_fixture_${lastId}`,
        client_secret: `pi_fixture_${lastId}_secret_abc`,
        amount: Number(form.get('amount')),
        metadata: metadataOf(form),
      };
      stub.intents.set(intent.id, intent);
      return Response.json(intent);
    }
    if (request.method === 'POST' && url.pathname === '/v1/refunds') {
      const key = request.headers.get('Idempotency-Key') ?? crypto.randomUUID();
      if (!refundsByKey.has(key)) {
        lastId += 1;
        refundsByKey.set(key, {
          ...documentedRefund,
          id: `re_fixture_${lastId}`,
          amount: Number(form.get('amount')),
          payment_intent: form.get('payment_intent'),
          metadata: metadataOf(form),
          status: stub.refunds.status,
          ...(stub.refunds.failureReason ? { failure_reason: stub.refunds.failureReason } : {}),
        });
      }
      return Response.json(refundsByKey.get(key));
    }
    const found = stub.intents.get(url.pathname.replace('/v1/payment_intents/', ''));
    if (request.method === 'GET' && found) {
      // Asked to expand its charge, a succeeded intent shows the card that paid.
      const expand = url.searchParams.get('expand[0]') === 'latest_charge' && found.status === 'succeeded';
      return Response.json(
        expand
          ? { ...found, latest_charge: { ...documentedCharge, payment_intent: found.id, amount: found.amount } }
          : found,
      );
    }
    return Response.json(
      { error: { type: 'invalid_request_error', message: 'No such payment_intent' } },
      { status: 404 },
    );
  });
  return stub;
}

let lastEvent = 0;

/** A Stripe event of `type` about `object`, shaped as Stripe documents events; each has an id of its own. */
export function stripeEvent(type: string, object: object) {
  lastEvent += 1;
  return {
    id: `evt_fixture_${lastEvent}_${crypto.randomUUID().slice(0, 8)}`,
    object: 'event',
    api_version: '2026-10-28',
    created: 1795000000 + lastEvent,
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

const signer = new Stripe('sk_test_fixture', { httpClient: Stripe.createFetchHttpClient() });

/** The `metadata[...]` fields of a form-encoded Stripe request, as Stripe keeps them. */
const metadataOf = (form: URLSearchParams) =>
  Object.fromEntries(
    [...form].flatMap(([key, value]) => {
      const name = /^metadata\[(.+)\]$/.exec(key)?.[1];
      return name ? [[name, value]] : [];
    }),
  );

/** The body and Stripe-Signature header Stripe would send for `payload`, signed with the webhook secret. */
export async function signedDelivery(payload: object): Promise<{ body: string; signature: string }> {
  const body = JSON.stringify(payload);
  const signature = await signer.webhooks.generateTestHeaderStringAsync({
    payload: body,
    secret: STRIPE.STRIPE_WEBHOOK_SECRET,
  });
  return { body, signature };
}
