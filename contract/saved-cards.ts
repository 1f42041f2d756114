import * as v from 'valibot';

/**
 * A card on file (GET /api/users/me/cards, issue 45): what the patient sees of it; the number stays
 * with the provider. The newest card is the one fees are charged to.
 */
export const SavedCard = v.strictObject({
  _id: v.string(),
  /** As Stripe names it: 'visa', 'mastercard', 'amex'… */
  brand: v.string(),
  last4: v.string(),
  expMonth: v.number(),
  expYear: v.number(),
});
export type SavedCard = v.InferOutput<typeof SavedCard>;

/**
 * POST /api/users/me/cards: a SetupIntent's client secret to save a card with (Stripe.js
 * `confirmCardSetup`, or the demo's POST /api/demo-payments/confirm). Nothing is charged.
 */
export const CardSetup = v.strictObject({
  clientSecret: v.string(),
  provider: v.picklist(['stripe', 'demo']),
  publishableKey: v.nullable(v.string()),
});
export type CardSetup = v.InferOutput<typeof CardSetup>;

/** The demo provider's answer to confirming a setup: the card saved. */
export const CardSaved = v.strictObject({
  setupIntent: v.strictObject({ id: v.string(), status: v.literal('succeeded') }),
  card: SavedCard,
});
export type CardSaved = v.InferOutput<typeof CardSaved>;
