import type { ConfirmedPayment, DemoCard } from '../../../../../contract/payments.ts';
import { client } from '../../../lib/client.ts';
import { ApiError } from '../../../lib/http.ts';
import { english, type Translate } from '../../../lib/i18n.tsx';

/**
 * POST /api/demo-payments/confirm: the demo provider charges the card (no real card is charged).
 * A decline is an ApiError carrying Stripe's own wording, e.g. 'Your card was declined.'.
 */
export async function confirmDemoPayment(clientSecret: string, card: DemoCard): Promise<ConfirmedPayment> {
  const answer = await client('POST /demo-payments/confirm', { body: { clientSecret, card } });
  if (!('paymentIntent' in answer)) throw new ApiError(200, 'The payment could not be made, please try again');
  return answer;
}

export type DemoCardFields = { number: string; expiry: string; cvc: string };

/** The typed fields as a card, or the message Stripe would show for what is missing. */
export function parseDemoCard(fields: DemoCardFields, t: Translate = english): { card: DemoCard } | { error: string } {
  const number = fields.number.replace(/[\s-]/g, '');
  if (!number) return { error: t('card.numberIncomplete') };
  const expiry = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(fields.expiry);
  if (!expiry) return { error: t('card.expiryIncomplete') };
  const cvc = fields.cvc.trim();
  if (!cvc) return { error: t('card.cvcIncomplete') };
  return { card: { number, expMonth: Number(expiry[1]), expYear: Number(expiry[2]), cvc } };
}
