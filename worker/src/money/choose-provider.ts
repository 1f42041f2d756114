import type { Env } from '../platform/env.ts';
import { demoProvider } from './demo-provider.ts';
import type { PaymentProvider } from './provider.ts';
import { stripeProvider } from './stripe-provider.ts';

/** Stripe when its secret key is configured, else the demo provider. */
export function paymentProvider(env: Env): PaymentProvider {
  return env.STRIPE_SECRET_KEY ? stripeProvider(env, env.STRIPE_SECRET_KEY) : demoProvider(env);
}

/** The provider that took a payment, to refund it; null when this deployment cannot reach it (Stripe without its key). */
export function providerOf(env: Env, name: 'stripe' | 'demo'): PaymentProvider | null {
  if (name === 'demo') return demoProvider(env);
  return env.STRIPE_SECRET_KEY ? stripeProvider(env, env.STRIPE_SECRET_KEY) : null;
}
