import useSWR from 'swr';
import type { Statement } from '../../../../../contract/fees.ts';
import type { DemoCard } from '../../../../../contract/payments.ts';
import type { CardSaved, CardSetup, SavedCard } from '../../../../../contract/saved-cards.ts';
import { type MyCardsKey, type MyStatementKey, myCardsKey, myStatementKey } from '../../../lib/cache-keys.ts';
import { client } from '../../../lib/client.ts';
import { ApiError } from '../../../lib/http.ts';

export type { CardSetup, SavedCard, Statement };

/** GET /api/users/me/cards: the signed-in patient's cards on file, newest (the one charged) first. */
export function useCards(email: string | null | undefined, refreshInterval = 0) {
  return useSWR<SavedCard[], unknown, MyCardsKey | null>(
    email ? myCardsKey(email) : null,
    () => client('GET /users/me/cards'),
    { refreshInterval },
  );
}

/** POST /api/users/me/cards: a setup to save a card with (nothing is charged). */
export const startCardSetup = () => client('POST /users/me/cards');

/** The demo provider saves the card of a setup (Stripe's test cards; a refusal is an ApiError in Stripe's words). */
export async function confirmDemoSetup(clientSecret: string, card: DemoCard): Promise<CardSaved> {
  const answer = await client('POST /demo-payments/confirm', { body: { clientSecret, card } });
  if (!('setupIntent' in answer)) throw new ApiError(200, 'The card could not be saved, please try again');
  return answer;
}

/** DELETE /api/users/me/cards/:id. */
export const removeCard = (id: string) => client('DELETE /users/me/cards/:id', { params: { id } });

/** GET /api/users/me/statement: what the account was charged, paid and refunded, per person. */
export function useStatement(email: string | null | undefined) {
  return useSWR<Statement, unknown, MyStatementKey | null>(email ? myStatementKey(email) : null, () =>
    client('GET /users/me/statement'),
  );
}
