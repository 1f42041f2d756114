/**
 * Cards on file (issue 45): a patient saves a card through the provider's SetupIntent (Stripe.js,
 * or the demo's confirmation with Stripe's test cards); the Worker keeps the payment method's id,
 * brand, last four digits and expiry, never the number. A booking of a 'card' treatment needs one;
 * fees the patient accepted are charged to the newest.
 */

import type { Deleted } from '../../../contract/answers.ts';
import type { CardSetup, SavedCard } from '../../../contract/saved-cards.ts';
import { callerOf } from '../people/auth.ts';
import {
  type CardProvider,
  cardOfSetup,
  cardsOf,
  customerOf,
  deleteCard,
  insertCard,
  insertCustomer,
  insertSetup,
  setupOwner,
  toSavedCard,
} from '../people/data/cards.ts';
import type { User } from '../people/data/users.ts';
import { clock } from '../platform/clock.ts';
import type { Env } from '../platform/env.ts';
import { HttpError, json } from '../platform/http.ts';
import { inputOf } from '../platform/input.ts';
import { paymentProvider, providerOf } from './choose-provider.ts';

/** GET /api/users/me/cards: the caller's cards, newest (the one charged) first. */
export async function listCards(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  return json((await cardsOf(env.DB, user.id)).map(toSavedCard) satisfies SavedCard[]);
}

/** POST /api/users/me/cards: a setup to save a card with; nothing is charged. */
export async function startCardSetup(request: Request, env: Env): Promise<Response> {
  const user = callerOf(request);
  const provider = paymentProvider(env);
  const setup = await provider.setupFor({ id: user.id, email: user.email }, await customerOf(env.DB, user.id));
  await env.DB.batch([
    insertCustomer(env.DB, user.id, provider.name, setup.customerId),
    insertSetup(env.DB, setup.id, user.id, provider.name, clock().toISOString()),
  ]);
  return json(
    {
      clientSecret: setup.clientSecret,
      provider: provider.name,
      publishableKey: provider.name === 'stripe' ? (env.STRIPE_PUBLISHABLE_KEY ?? null) : null,
    } satisfies CardSetup,
    201,
  );
}

/**
 * Keeps the card a setup of `user`'s saved (404 for anyone else's setup); the same setup twice
 * keeps one card. Answers it.
 */
export async function saveCard(
  env: Env,
  user: Pick<User, 'id'>,
  setupId: string,
  card: {
    paymentMethodId: string;
    provider: CardProvider;
    brand: string;
    last4: string;
    expMonth: number;
    expYear: number;
  },
): Promise<SavedCard> {
  if ((await setupOwner(env.DB, setupId)) !== user.id) throw new HttpError(404, 'No such card setup');
  await insertCard(
    env.DB,
    {
      id: crypto.randomUUID(),
      user_id: user.id,
      provider: card.provider,
      payment_method_id: card.paymentMethodId,
      brand: card.brand,
      last4: card.last4,
      exp_month: card.expMonth,
      exp_year: card.expYear,
    },
    setupId,
    clock().toISOString(),
  ).run();
  const saved = await cardOfSetup(env.DB, setupId);
  if (!saved) throw new HttpError(409, 'This card is saved on another setup already');
  return toSavedCard(saved);
}

/**
 * Stripe's `setup_intent.succeeded`: the card the patient confirmed with Stripe.js is kept for the
 * account the setup was handed to. Null when the setup is not one of ours.
 */
export async function cardSetUp(
  env: Env,
  setup: { id: string; payment_method: string | { id: string } | null },
): Promise<SavedCard | null> {
  const owner = await setupOwner(env.DB, setup.id);
  const method = typeof setup.payment_method === 'string' ? setup.payment_method : setup.payment_method?.id;
  const provider = providerOf(env, 'stripe');
  if (!owner || !method || !provider) return null;
  const card = await provider.cardOf(method);
  if (!card) return null;
  // A payment method saved before (on another setup) stays as it is.
  return saveCard(env, { id: owner }, setup.id, { paymentMethodId: method, provider: 'stripe', ...card }).catch(
    (error: unknown) => {
      if (error instanceof HttpError) return null;
      throw error;
    },
  );
}

/** DELETE /api/users/me/cards/:id: the card is forgotten here and at the provider. */
export async function removeCard(request: Request & { params: Record<string, string> }, env: Env): Promise<Response> {
  const user = callerOf(request);
  const card = (await cardsOf(env.DB, user.id)).find(
    (c) => c.id === inputOf(request, 'DELETE /users/me/cards/:id').params.id,
  );
  if (!card) throw new HttpError(404, 'No such card');
  const { meta } = await deleteCard(env.DB, user.id, card.id).run();
  await providerOf(env, card.provider)
    ?.detach(card.payment_method_id)
    .catch((error: unknown) => console.error('detaching a card at the provider failed', error));
  return json({ acknowledged: true, deletedCount: meta.changes } satisfies Deleted);
}
